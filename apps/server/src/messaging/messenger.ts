import type { Messenger, OutgoingMessage, SendOptions } from '../auth/messenger';
import type { Queryable } from '../storage/db';
import type { MessagingConfig } from './config';
import { enqueueMessage } from './outbox';

/**
 * The server's Messenger: every message is rendered in the recipient's language and queued in the
 * message outbox (in the caller's transaction when it passes one), never sent inline, so no API request
 * waits for an SMTP server or an SMS provider. The outbox worker (messaging/plugin.ts) delivers it.
 */
export class OutboxMessenger implements Messenger {
  /** Set by the in-process worker: called after a message is queued, so it goes out at once. */
  onQueued: (() => void) | null = null;

  constructor(
    private readonly o: {
      db: Queryable;
      config: MessagingConfig;
      now?: () => Date;
      log?: (line: string) => void;
    },
  ) {}

  get smsEnabled(): boolean {
    return Boolean(this.o.config.SMS_URL);
  }

  async send(message: OutgoingMessage, options: SendOptions = {}): Promise<void> {
    const row = await enqueueMessage(options.db ?? this.o.db, message, {
      product: this.o.config.PRODUCT_NAME,
      now: (this.o.now ?? (() => new Date()))(),
      ...(this.o.log ? { log: this.o.log } : {}),
    });
    // Inside a transaction the row is visible only after the commit: wake the worker a moment later
    // (its poll catches anything this misses).
    if (row?.status === 'queued' && this.onQueued)
      setTimeout(() => this.onQueued?.(), options.db ? 50 : 0).unref();
  }
}
