import { startOutboxLoop } from '../storage/outbox-loop';
import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import type { Queryable } from '../storage/db';
import { describeMailRoute, describeSmsRoute, loadMessagingConfig, type MessagingConfig } from './config';
import { OutboxMessenger } from './messenger';
import { MessageOutbox } from './outbox';
import {
  HttpSmsProvider,
  MailboxTransport,
  SmtpMailTransport,
  type MailTransport,
  type SmsProvider,
} from './transports';

export interface MessagingService {
  stop(): Promise<void>;
  outbox: MessageOutbox;
  /** Runs a pass now (tests; the messenger calls it after queueing). */
  wake(): void;
}

export interface StartMessagingOptions {
  config: MessagingConfig;
  db: Queryable;
  log: (line: string) => void;
  now?: () => Date;
  random?: () => number;
  /** Replace the transports (tests); by default built from the configuration. */
  mail?: MailTransport;
  sms?: SmsProvider | null;
  /** The process's messenger, woken on every queued message. */
  messenger?: unknown;
  /** Base of the links in alert mails (PUBLIC_URL, else the listening address). */
  publicUrl?: string;
}

const PRUNE_EVERY_MS = 3_600_000;

export function mailTransportOf(config: MessagingConfig): MailTransport {
  return config.SMTP_URL
    ? new SmtpMailTransport(config.SMTP_URL, config.MAIL_FROM, config.SMTP_TIMEOUT_MS, config.dkim)
    : new MailboxTransport();
}

export function smsProviderOf(config: MessagingConfig): SmsProvider | null {
  return config.SMS_URL
    ? new HttpSmsProvider({
        url: config.SMS_URL,
        authHeader: config.SMS_AUTH_HEADER,
        bodyTemplate: config.SMS_BODY,
        contentType: config.SMS_CONTENT_TYPE,
      })
    : null;
}

/**
 * The message outbox worker: polls every MESSAGE_POLL_MS, and runs at once when this process queued a
 * message. Every process that runs it (the one-process server, every scale-out worker) competes for
 * rows safely (see MessageOutbox).
 */
export function startMessaging(o: StartMessagingOptions): MessagingService {
  const now = o.now ?? (() => new Date());
  const mail = o.mail ?? mailTransportOf(o.config);
  const outbox = new MessageOutbox({
    db: o.db,
    mail,
    sms: o.sms === undefined ? smsProviderOf(o.config) : o.sms,
    now,
    ...(o.random ? { random: o.random } : {}),
    maxAttempts: o.config.MESSAGE_MAX_ATTEMPTS,
    retryBaseMs: o.config.MESSAGE_RETRY_BASE_MS,
    retryMaxMs: o.config.MESSAGE_RETRY_MAX_MS,
    hourlyLimit: o.config.MESSAGE_RECIPIENT_HOURLY_LIMIT,
    product: o.config.PRODUCT_NAME,
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    log: o.log,
  });
  const loop = startOutboxLoop({
    drain: () => outbox.drain(),
    prune: () => outbox.prune(),
    pollMs: o.config.MESSAGE_POLL_MS,
    pruneEveryMs: PRUNE_EVERY_MS,
    now,
    onError: (err) => o.log(`[messages] outbox pass failed: ${err.message}`),
  });
  if (o.messenger instanceof OutboxMessenger) o.messenger.onQueued = loop.wake;
  return {
    outbox,
    wake: loop.wake,
    stop: async () => {
      if (o.messenger instanceof OutboxMessenger) o.messenger.onQueued = null;
      await loop.stop();
      mail.close?.();
    },
  };
}

/**
 * The messaging part (embedded mode and the worker role): the message outbox worker, woken by this
 * process's messenger when the instance carries the API's context, stopped on close.
 */
const messagingPart: PartPlugin = async (app, { config: server, env, storage, log }) => {
  const config = loadMessagingConfig(env);
  log(describeMailRoute(config));
  log(describeSmsRoute(config));
  const messenger = app.hasDecorator('ctx') ? app.ctx.messenger : undefined;
  const publicUrl = server.PUBLIC_URL ?? `http://${server.HOST}:${server.PORT}`;
  const messaging = startMessaging({ config, db: storage.db, log, messenger, publicUrl });
  app.addHook('onClose', () => messaging.stop());
};

export default fp(messagingPart, { name: 'messaging', fastify: '5.x' });
