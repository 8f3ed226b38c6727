/**
 * Outgoing e-mail / SMS (set-password invitations, reset links, OTP codes, shared locations, alerts,
 * reports). The server's Messenger is the message outbox (messaging/messenger.ts): `send` renders the
 * message in the recipient's language and queues it, in the caller's transaction when `options.db` is
 * given, and the outbox worker delivers it (SMTP, SMS provider, or the local mailbox without SMTP).
 * Tests that only need to see what went out capture messages with {@link MemoryMessenger}.
 */
import type { Queryable } from '../storage/db';
import type { Locale } from '../http/i18n';
import type { MessageKind, TemplateParams } from '../messaging/templates';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64 of the bytes. */
  contentBase64: string;
}

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  kind: MessageKind;
  /** English subject and text: what a messenger without templates shows (the outbox renders its own). */
  subject: string;
  text: string;
  /** The secret carried (link token or code) so tests can use it. Never logged. */
  secret: string;
  /** The recipient's language (their saved language; 'en' when unknown). */
  locale?: Locale;
  /** The plain link the message carries. */
  link?: string;
  /** More template values (name, title, detail, expiry). */
  params?: TemplateParams;
  /** Whose message it is (admins of that company see its status); null for system mail. */
  companyId?: number | null;
  /** The recipient user, when the message goes to a user. */
  userId?: number | null;
  /** A message with the same key is queued once. */
  idempotencyKey?: string;
  attachments?: MailAttachment[];
}

export interface SendOptions {
  /** Queue inside this transaction (the message exists only if the cause commits). */
  db?: Queryable;
}

export interface Messenger {
  send(message: OutgoingMessage, options?: SendOptions): Promise<void>;
  /** Whether SMS can be sent (a provider is configured); OTP codes go by e-mail otherwise. */
  readonly smsEnabled?: boolean;
}

export class MemoryMessenger implements Messenger {
  readonly sent: OutgoingMessage[] = [];
  smsEnabled = true;
  async send(message: OutgoingMessage): Promise<void> {
    this.sent.push(message);
  }
  last(kind?: OutgoingMessage['kind']): OutgoingMessage | undefined {
    return [...this.sent].reverse().find((m) => !kind || m.kind === kind);
  }
}

/** Logs that a message went out, never its content (which carries secrets). */
export class LogMessenger implements Messenger {
  constructor(private readonly log: (line: string) => void) {}
  async send(m: OutgoingMessage): Promise<void> {
    this.log(`[messenger] ${m.kind} ${m.channel} to ${m.to} (content hidden)`);
  }
}
