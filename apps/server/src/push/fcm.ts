import { createSign } from 'node:crypto';
import type { ServiceAccount } from './config';

/** What a push carries (built from a stored notification by the outbox worker). */
export interface PushMessage {
  title: string;
  body: string;
  /** FCM data values must be strings. */
  data: Record<string, string>;
}

/**
 * The outcome of one send, as the outbox needs it:
 * - sent: FCM accepted the message;
 * - retry: transient (5xx, 429, network, OAuth trouble); `retryAfterMs` when FCM said so;
 * - invalid-token: the registration token is gone (404 UNREGISTERED / NOT_FOUND, or 400
 *   INVALID_ARGUMENT about the token): deactivate it;
 * - rejected: FCM refused this message for another reason (do not retry).
 */
export type SendResult =
  | { kind: 'sent'; name: string | null }
  | { kind: 'retry'; error: string; retryAfterMs: number | null }
  | { kind: 'invalid-token'; error: string }
  | { kind: 'rejected'; error: string };

export interface PushSender {
  send(token: string, message: PushMessage): Promise<SendResult>;
}

export interface FcmSenderOptions {
  account: ServiceAccount;
  /** Base URL of the HTTP v1 API, e.g. https://fcm.googleapis.com. */
  endpoint: string;
  /** OAuth2 token endpoint; default the account's token_uri. */
  tokenUri?: string | null;
  projectId?: string | null;
  now?: () => number;
  fetch?: typeof fetch;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** Refresh the access token this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** A signed RS256 JWT assertion for the OAuth2 jwt-bearer grant (RFC 7523), as Google expects it. */
export function signAssertion(account: ServiceAccount, audience: string, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = {
    alg: 'RS256',
    typ: 'JWT',
    ...(account.private_key_id ? { kid: account.private_key_id } : {}),
  };
  const claims = { iss: account.client_email, scope: SCOPE, aud: audience, iat, exp: iat + 3600 };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(input).sign(account.private_key);
  return `${input}.${b64url(signature)}`;
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const s = value.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

interface FcmErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: { errorCode?: string }[] };
}

class TransientError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Sends through FCM's HTTP v1 API: POST {endpoint}/v1/projects/{project}/messages:send with a
 * bearer access token obtained from the service account (JWT assertion exchanged at token_uri),
 * cached until five minutes before it expires. A 401 from FCM drops the cached token and is retried.
 */
export class FcmSender implements PushSender {
  private readonly now: () => number;
  private readonly fetch: typeof fetch;
  private readonly tokenUri: string;
  private readonly projectId: string;
  private readonly timeoutMs: number;
  private cached: { token: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly opts: FcmSenderOptions) {
    this.now = opts.now ?? Date.now;
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.tokenUri = opts.tokenUri ?? opts.account.token_uri;
    this.projectId = opts.projectId ?? opts.account.project_id;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** The URL messages are posted to. */
  get sendUrl(): string {
    return `${this.opts.endpoint.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(this.projectId)}/messages:send`;
  }

  /** A valid access token, from cache when it has more than five minutes left. */
  async accessToken(): Promise<string> {
    if (this.cached && this.cached.expiresAt - REFRESH_MARGIN_MS > this.now()) return this.cached.token;
    // One exchange at a time: concurrent sends share it.
    this.pending ??= this.exchange().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async exchange(): Promise<string> {
    const assertion = signAssertion(this.opts.account, this.tokenUri, this.now());
    let res: Response;
    try {
      res = await this.fetch(this.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion,
        }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new TransientError(`OAuth token request failed: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      throw new TransientError(
        `OAuth token endpoint answered ${res.status}: ${text.slice(0, 200)}`,
        parseRetryAfter(res.headers.get('retry-after'), this.now()),
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new TransientError('OAuth token endpoint answered with something that is not JSON');
    }
    if (typeof body.access_token !== 'string' || !body.access_token)
      throw new TransientError('OAuth token endpoint answered without access_token');
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    this.cached = { token: body.access_token, expiresAt: this.now() + expiresIn * 1000 };
    return body.access_token;
  }

  /** The HTTP v1 message body for one device token. */
  static body(token: string, m: PushMessage) {
    return {
      message: {
        token,
        notification: { title: m.title, body: m.body },
        data: m.data,
        android: { priority: 'high', notification: { sound: 'default' } },
        apns: {
          headers: { 'apns-priority': '10', 'apns-push-type': 'alert' },
          payload: { aps: { sound: 'default' } },
        },
      },
    };
  }

  async send(token: string, message: PushMessage): Promise<SendResult> {
    let access: string;
    try {
      access = await this.accessToken();
    } catch (err) {
      const e = err as Error;
      return {
        kind: 'retry',
        error: e.message,
        retryAfterMs: e instanceof TransientError ? e.retryAfterMs : null,
      };
    }
    let res: Response;
    try {
      res = await this.fetch(this.sendUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
        body: JSON.stringify(FcmSender.body(token, message)),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      return { kind: 'retry', error: `FCM request failed: ${(err as Error).message}`, retryAfterMs: null };
    }
    const text = await res.text().catch(() => '');
    if (res.ok) {
      let name: string | null = null;
      try {
        const b = JSON.parse(text) as { name?: unknown };
        if (typeof b.name === 'string') name = b.name;
      } catch {
        /* FCM accepted it; the id is informational only */
      }
      return { kind: 'sent', name };
    }
    let err: FcmErrorBody['error'] = undefined;
    try {
      err = (JSON.parse(text) as FcmErrorBody).error;
    } catch {
      /* a proxy's HTML error page, for instance */
    }
    const codes = (err?.details ?? []).map((d) => d.errorCode).filter(Boolean);
    const status = err?.status ?? '';
    const error = `FCM ${res.status} ${[status, ...codes].filter(Boolean).join('/')}: ${(err?.message ?? text).slice(0, 200)}`;
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.now());
    if (res.status === 401) {
      // The access token was revoked or expired early: fetch a new one on the next try.
      this.cached = null;
      return { kind: 'retry', error, retryAfterMs };
    }
    if (res.status === 429 || res.status >= 500) return { kind: 'retry', error, retryAfterMs };
    if (res.status === 404 || codes.includes('UNREGISTERED')) return { kind: 'invalid-token', error };
    if (res.status === 400 && (codes.includes('INVALID_ARGUMENT') || status === 'INVALID_ARGUMENT')) {
      // INVALID_ARGUMENT also covers a malformed message; only a complaint about the token retires it.
      if (/token/i.test(err?.message ?? '')) return { kind: 'invalid-token', error };
    }
    return { kind: 'rejected', error };
  }
}
