/**
 * Where a message leaves the house: SMTP (nodemailer), a generic HTTP SMS provider, or the local
 * mailbox (the database row itself, read by super admins in the portal when no SMTP is configured).
 * Each answers one of three outcomes, which the outbox turns into its status: sent, retry later
 * (connection refused, time-out, 4xx), or rejected for good (5xx: unknown mailbox, refused sender).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailAttachment } from '../auth/messenger';
import type { DkimSettings } from './config';

export interface OutboundMail {
  /** Message-ID (stable per outbox row, so a receiver can drop a repeat after a crash mid-send). */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: MailAttachment[];
  /**
   * The one-click unsubscribe link of a message to someone who is not a user (guardians): sent as
   * `List-Unsubscribe: <link>` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 2369,
   * RFC 8058), so mail clients show their own "Unsubscribe" button, which POSTs to the link.
   */
  unsubscribe?: string;
}

export type DeliveryResult =
  { kind: 'sent'; detail?: string } | { kind: 'retry'; error: string } | { kind: 'rejected'; error: string };

export interface MailTransport {
  readonly name: 'smtp' | 'mailbox';
  send(mail: OutboundMail): Promise<DeliveryResult>;
  close?(): void;
}

export interface SmsProvider {
  readonly name: string;
  send(to: string, text: string): Promise<DeliveryResult>;
}

/** The demo's mailbox: the outbox row is the stored mail; delivering is marking it so. */
export class MailboxTransport implements MailTransport {
  readonly name = 'mailbox' as const;
  async send(): Promise<DeliveryResult> {
    return { kind: 'sent' };
  }
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** A short reason for the admins: the SMTP reply when there is one, never credentials. */
function reason(err: SmtpError): string {
  const text = (err.message || String(err)).replace(/\s+/g, ' ').slice(0, 300);
  return err.responseCode ? `SMTP ${err.responseCode}: ${text}` : `${err.code ?? 'error'}: ${text}`;
}

/**
 * SMTP through nodemailer. smtp:// upgrades with STARTTLS whenever the server offers it (nodemailer's
 * default for a non-secure connection); smtps:// speaks TLS from the first byte. Options in the URL's
 * query are nodemailer's (e.g. `?tls.rejectUnauthorized=false` for a test server's own certificate).
 */
export class SmtpMailTransport implements MailTransport {
  readonly name = 'smtp' as const;
  private readonly transporter: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    timeoutMs = 20_000,
    /** Sign every mail with DKIM (the sending domain's key); null sends unsigned. */
    dkim: DkimSettings | null = null,
  ) {
    // A pool keeps the SMTP connection (and its TLS session) open between messages instead of a new
    // handshake per mail; options in the URL's query still win (`url` is parsed by nodemailer).
    this.transporter = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 2,
      ...(dkim ? { dkim } : {}),
    } as Parameters<typeof nodemailer.createTransport>[0]);
  }

  async send(mail: OutboundMail): Promise<DeliveryResult> {
    try {
      const info = await this.transporter.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        messageId: mail.messageId,
        ...(mail.unsubscribe
          ? {
              list: { unsubscribe: { url: mail.unsubscribe } },
              headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.contentBase64, 'base64'),
        })),
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      if ((info.rejected?.length ?? 0) > 0) return { kind: 'rejected', error: 'SMTP refused the recipient' };
      return { kind: 'sent', detail: String(info.response ?? '').slice(0, 200) };
    } catch (e) {
      const err = e as SmtpError;
      // 5xx is a permanent refusal (bad mailbox, sender refused, message refused); everything else
      // (no connection, time-out, 4xx greylisting or a full mailbox) is worth another try.
      if (err.responseCode && err.responseCode >= 500 && err.code !== 'EAUTH')
        return { kind: 'rejected', error: reason(err) };
      return { kind: 'retry', error: reason(err) };
    }
  }

  close(): void {
    this.transporter.close();
  }
}

export interface HttpSmsOptions {
  url: string;
  authHeader?: string | undefined;
  bodyTemplate: string;
  contentType: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * Any SMS API that takes one HTTP POST per message: the body template names {to} and {text}. Values are
 * JSON-escaped when the content type is JSON and URL-encoded when it is a form, so a text can never
 * break the body's structure.
 */
export class HttpSmsProvider implements SmsProvider {
  readonly name = 'sms-http';
  constructor(private readonly o: HttpSmsOptions) {}

  body(to: string, text: string): string {
    const json = /json/i.test(this.o.contentType);
    const form = /x-www-form-urlencoded/i.test(this.o.contentType);
    const enc = (v: string) =>
      json ? JSON.stringify(v).slice(1, -1) : form ? encodeURIComponent(v) : v.replace(/[\r\n]+/g, ' ');
    return this.o.bodyTemplate.replace(/\{(to|text)\}/g, (_m, k: string) => enc(k === 'to' ? to : text));
  }

  async send(to: string, text: string): Promise<DeliveryResult> {
    const headers: Record<string, string> = { 'content-type': this.o.contentType };
    if (this.o.authHeader) {
      const i = this.o.authHeader.indexOf(':');
      headers[this.o.authHeader.slice(0, i).trim()] = this.o.authHeader.slice(i + 1).trim();
    }
    try {
      const res = await (this.o.fetchImpl ?? fetch)(this.o.url, {
        method: 'POST',
        headers,
        body: this.body(to, text),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
      if (res.ok) return { kind: 'sent', detail: `HTTP ${res.status}` };
      const error = `SMS provider HTTP ${res.status}`;
      // 429 and 5xx pass; other 4xx are the request's fault (bad number, bad credentials): final.
      return res.status === 429 || res.status >= 500 ? { kind: 'retry', error } : { kind: 'rejected', error };
    } catch (e) {
      return { kind: 'retry', error: `SMS provider unreachable: ${(e as Error).message}`.slice(0, 300) };
    }
  }
}

/** The tests' SMS provider, behind the same interface: records what it was given. */
export class MemorySmsProvider implements SmsProvider {
  readonly name = 'sms-memory';
  readonly sent: { to: string; text: string }[] = [];
  failNext = 0;
  async send(to: string, text: string): Promise<DeliveryResult> {
    if (this.failNext > 0) {
      this.failNext--;
      return { kind: 'retry', error: 'stand-in failure' };
    }
    this.sent.push({ to, text });
    return { kind: 'sent' };
  }
}
