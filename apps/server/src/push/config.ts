import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Push settings, read from the process environment by the push plugin (the server's main config
 * schema stays untouched; each part parses its own keys, see plugins.ts).
 *
 * - FCM_SERVICE_ACCOUNT_FILE: path of a Google service-account JSON key, or
 * - FCM_SERVICE_ACCOUNT_JSON: the same JSON inline. Without either, push is disabled.
 * - FCM_ENDPOINT: base URL of the FCM HTTP v1 API (default https://fcm.googleapis.com).
 * - FCM_TOKEN_URI: overrides the OAuth2 token endpoint named in the key's `token_uri`.
 * - FCM_PROJECT_ID: overrides the key's `project_id`.
 * - PUSH_MAX_ATTEMPTS (default 8), PUSH_RETRY_BASE_MS (default 2000), PUSH_RETRY_MAX_MS (default 600000),
 *   PUSH_POLL_MS (default 1000), PUSH_MAX_AGE_MS (default 86400000: older undelivered pushes are dropped).
 */
export const serviceAccountSchema = z.object({
  type: z.literal('service_account').optional(),
  project_id: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }),
  client_email: z.string().email(),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().default('https://oauth2.googleapis.com/token'),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

const int = (def: number, min: number) => z.coerce.number().int().min(min).default(def);

const envSchema = z.object({
  FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  FCM_SERVICE_ACCOUNT_JSON: z.string().min(1).optional(),
  FCM_ENDPOINT: z.string().url().default('https://fcm.googleapis.com'),
  FCM_TOKEN_URI: z.string().url().optional(),
  FCM_PROJECT_ID: z.string().min(1).optional(),
  PUSH_MAX_ATTEMPTS: int(8, 1),
  PUSH_RETRY_BASE_MS: int(2000, 1),
  PUSH_RETRY_MAX_MS: int(600_000, 1),
  PUSH_POLL_MS: int(1000, 10),
  PUSH_MAX_AGE_MS: int(86_400_000, 1000),
});

export interface PushConfig {
  /** Null when no credentials are configured: push is disabled. */
  account: ServiceAccount | null;
  endpoint: string;
  tokenUri: string | null;
  projectId: string | null;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  maxAgeMs: number;
}

export class PushConfigError extends Error {}

const describe = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/** Parse the push keys of `env`; a bad value throws {@link PushConfigError} naming the variable. */
export function loadPushConfig(env: Record<string, string | undefined>): PushConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new PushConfigError(`push configuration: ${describe(parsed.error)}`);
  const e = parsed.data;
  let raw: string | undefined;
  let source = '';
  if (e.FCM_SERVICE_ACCOUNT_JSON) {
    raw = e.FCM_SERVICE_ACCOUNT_JSON;
    source = 'FCM_SERVICE_ACCOUNT_JSON';
  } else if (e.FCM_SERVICE_ACCOUNT_FILE) {
    source = 'FCM_SERVICE_ACCOUNT_FILE';
    try {
      raw = readFileSync(e.FCM_SERVICE_ACCOUNT_FILE, 'utf8');
    } catch (err) {
      throw new PushConfigError(
        `push configuration: FCM_SERVICE_ACCOUNT_FILE cannot be read (${(err as Error).message})`,
      );
    }
  }
  let account: ServiceAccount | null = null;
  if (raw !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new PushConfigError(`push configuration: ${source} is not valid JSON`);
    }
    const acc = serviceAccountSchema.safeParse(json);
    if (!acc.success) throw new PushConfigError(`push configuration: ${source}: ${describe(acc.error)}`);
    account = acc.data;
  }
  return {
    account,
    endpoint: e.FCM_ENDPOINT.replace(/\/+$/, ''),
    tokenUri: e.FCM_TOKEN_URI ?? null,
    projectId: e.FCM_PROJECT_ID ?? null,
    maxAttempts: e.PUSH_MAX_ATTEMPTS,
    retryBaseMs: e.PUSH_RETRY_BASE_MS,
    retryMaxMs: e.PUSH_RETRY_MAX_MS,
    pollMs: e.PUSH_POLL_MS,
    maxAgeMs: e.PUSH_MAX_AGE_MS,
  };
}
