import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Messaging settings, read from the process environment (each part parses its own keys, plugins.ts).
 *
 * - SMTP_URL: smtp://user:pass@host:587 (STARTTLS is used when the server offers it) or
 *   smtps://user:pass@host:465 (TLS from the first byte). Without it, e-mail goes to the local mailbox
 *   in the database, shown to super admins in the portal (Sent messages).
 * - MAIL_FROM: the From of every mail (default `Fleet <no-reply@localhost>`).
 * - SMS_URL: the generic HTTP SMS provider's endpoint (POST). Without it SMS is off: OTP codes go by
 *   e-mail, and an SMS that must go anyway lands in the local mailbox.
 * - SMS_AUTH_HEADER: `Name: value` sent with each request (e.g. `Authorization: Bearer xyz`).
 * - SMS_BODY: the request body with {to} and {text} (JSON-escaped when the body is JSON, URL-encoded
 *   when SMS_CONTENT_TYPE is form); default `{"to":"{to}","text":"{text}"}`.
 * - SMS_CONTENT_TYPE: default application/json.
 * - MESSAGE_RECIPIENT_HOURLY_LIMIT (30): more messages to one address within an hour are not sent
 *   (stored as failed, "rate limited").
 * - MESSAGE_MAX_ATTEMPTS (8), MESSAGE_RETRY_BASE_MS (5000), MESSAGE_RETRY_MAX_MS (900000),
 *   MESSAGE_POLL_MS (2000), SMTP_TIMEOUT_MS (20000).
 * - PRODUCT_NAME: the product's name in every message (default Fleet).
 * - DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (the PEM text; `\n` may stand for line breaks in a
 *   one-line variable) or DKIM_PRIVATE_KEY_FILE (a path): every mail sent over SMTP is signed with DKIM
 *   (RFC 6376, relaxed/relaxed as nodemailer signs), so receivers that check the sender domain's
 *   `<selector>._domainkey.<domain>` TXT record accept it. All three or none; a key that does not parse
 *   stops the start with the reason, never the key in a log line.
 */
const int = (def: number, min: number) => z.coerce.number().int().min(min).default(def);

const envSchema = z.object({
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://user:pass@host:port or smtps://...')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^[^\r\n]+$/, 'must be one line')
    .default('Fleet <no-reply@localhost>'),
  SMS_URL: z
    .string()
    .trim()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMS_AUTH_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+:[^\r\n]*$/, 'must be "Name: value" on one line')
    .optional(),
  SMS_BODY: z.string().default('{"to":"{to}","text":"{text}"}'),
  SMS_CONTENT_TYPE: z
    .string()
    .regex(/^[^\r\n]+$/)
    .default('application/json'),
  MESSAGE_RECIPIENT_HOURLY_LIMIT: int(30, 1),
  MESSAGE_MAX_ATTEMPTS: int(8, 1),
  MESSAGE_RETRY_BASE_MS: int(5000, 1),
  MESSAGE_RETRY_MAX_MS: int(900_000, 1),
  MESSAGE_POLL_MS: int(2000, 10),
  SMTP_TIMEOUT_MS: int(20_000, 100),
  PRODUCT_NAME: z.string().trim().min(1).max(60).default('Fleet'),
  DKIM_DOMAIN: z
    .string()
    .trim()
    .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DKIM_SELECTOR: z
    .string()
    .trim()
    .regex(/^[a-z0-9](?:[a-z0-9._-]{0,62})$/i, 'must be a DNS label')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DKIM_PRIVATE_KEY: z.string().optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().trim().optional(),
});

type EnvConfig = z.infer<typeof envSchema>;

/** The DKIM signing settings nodemailer takes, resolved from the environment (key read and checked). */
export interface DkimSettings {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export type MessagingConfig = Omit<EnvConfig, 'DKIM_PRIVATE_KEY' | 'DKIM_PRIVATE_KEY_FILE'> & {
  dkim: DkimSettings | null;
};

function dkimOf(c: EnvConfig): DkimSettings | null {
  const key = c.DKIM_PRIVATE_KEY?.trim() ? c.DKIM_PRIVATE_KEY : undefined;
  const file = c.DKIM_PRIVATE_KEY_FILE || undefined;
  const given = [c.DKIM_DOMAIN, c.DKIM_SELECTOR, key ?? file].filter(Boolean).length;
  if (given === 0) return null;
  if (given < 3 || (key && file))
    throw new MessagingConfigError(
      'messaging settings: DKIM needs DKIM_DOMAIN, DKIM_SELECTOR and one of DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE',
    );
  let pem: string;
  try {
    pem = key ? key.replace(/\\n/g, '\n') : readFileSync(file!, 'utf8');
  } catch (e) {
    throw new MessagingConfigError(
      `messaging settings: DKIM_PRIVATE_KEY_FILE cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    const parsed = createPrivateKey(pem);
    if (parsed.asymmetricKeyType !== 'rsa' && parsed.asymmetricKeyType !== 'ed25519') throw new Error('type');
  } catch {
    throw new MessagingConfigError(
      'messaging settings: the DKIM private key is not an RSA or Ed25519 PEM key',
    );
  }
  return { domainName: c.DKIM_DOMAIN!, keySelector: c.DKIM_SELECTOR!, privateKey: pem };
}

export class MessagingConfigError extends Error {}

export function loadMessagingConfig(env: Record<string, string | undefined>): MessagingConfig {
  const r = envSchema.safeParse(env);
  if (!r.success)
    throw new MessagingConfigError(
      `messaging settings: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const { DKIM_PRIVATE_KEY: _key, DKIM_PRIVATE_KEY_FILE: _file, ...rest } = r.data;
  return { ...rest, dkim: dkimOf(r.data) };
}

/** Where mail goes, for the start line: the SMTP host (never its credentials) or the local mailbox. */
export function describeMailRoute(c: MessagingConfig): string {
  if (!c.SMTP_URL)
    return 'mail: local mailbox (no SMTP_URL; super admins read it in the portal under Sent messages)';
  try {
    const u = new URL(c.SMTP_URL);
    const signed = c.dkim ? `, DKIM ${c.dkim.keySelector}._domainkey.${c.dkim.domainName}` : '';
    return `mail: SMTP ${u.protocol === 'smtps:' ? 'over TLS' : '(STARTTLS when offered)'} at ${u.hostname}:${u.port || (u.protocol === 'smtps:' ? 465 : 587)} from ${c.MAIL_FROM}${signed}`;
  } catch {
    return 'mail: SMTP';
  }
}

export function describeSmsRoute(c: MessagingConfig): string {
  if (!c.SMS_URL) return 'sms: off (no SMS_URL; codes go by e-mail)';
  return `sms: HTTP provider at ${new URL(c.SMS_URL).host}`;
}
