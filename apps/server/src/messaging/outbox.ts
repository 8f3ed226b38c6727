import type { OutgoingMessage } from '../auth/messenger';
import type { Queryable } from '../storage/db';
import { logActivity } from '../activity/log';
import { backoffMs } from '../push/outbox';
import { renderMessage, type RenderedMessage } from './templates';
import { isGuardianKind, renderGuardianMessage } from '../guardians/render';
import { signUnsubscribe } from '../guardians/signing';
import type { MailTransport, SmsProvider, DeliveryResult } from './transports';

/** A recipient for log lines: enough to tell messages apart, not the whole address. */
export function maskRecipient(to: string): string {
  const at = to.indexOf('@');
  if (at > 0) return `${to.slice(0, 1)}***${to.slice(at)}`;
  return to.length > 6 ? `${to.slice(0, 4)}***${to.slice(-2)}` : '***';
}

export interface EnqueueOptions {
  product: string;
  now: Date;
  log?: (line: string) => void;
}

export interface Enqueued {
  uuid: string;
  status: 'queued' | 'failed';
}

/**
 * Render and queue one message on `db` (the caller's transaction when it has one). A message whose
 * idempotency key was queued before is not queued again (null).
 */
export async function enqueueMessage(
  db: Queryable,
  m: OutgoingMessage,
  o: EnqueueOptions,
): Promise<Enqueued | null> {
  const locale = m.locale ?? 'en';
  const rendered = renderMessage(
    m.kind,
    locale,
    { ...m.params, link: m.link ?? m.params?.link, ...(m.kind === 'otp' ? { code: m.secret } : {}) },
    o.product,
  );
  const rows = await db.query<Enqueued>(
    `INSERT INTO message_outbox (company_id, user_id, channel, kind, recipient, locale, subject, body_text,
       body_html, attachments, idempotency_key, status, last_error, created_at, updated_at, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $14)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING uuid, status`,
    [
      m.companyId ?? null,
      m.userId ?? null,
      m.channel,
      m.kind,
      m.to,
      locale,
      rendered.subject,
      m.channel === 'sms' ? rendered.sms : rendered.text,
      m.channel === 'sms' ? null : rendered.html,
      m.attachments?.length ? JSON.stringify(m.attachments) : null,
      m.idempotencyKey ?? null,
      'queued',
      null,
      o.now.toISOString(),
    ],
  );
  const row = rows[0] ?? null;
  if (row) o.log?.(`[messages] queued ${m.kind} ${m.channel} to ${maskRecipient(m.to)} (${row.uuid})`);
  return row;
}

interface ClaimedRow {
  id: number;
  uuid: string;
  attempts: number;
  company_id: number | null;
  user_id: number | null;
  channel: 'email' | 'sms';
  kind: string;
  recipient: string;
  locale: string;
  subject: string;
  body_text: string | null;
  body_html: string | null;
  params: { notification_uuid?: string; title?: string; detail?: string } | null;
  attachments: { filename: string; contentType: string; contentBase64: string }[] | null;
}

export interface MessageOutboxOptions {
  db: Queryable;
  mail: MailTransport;
  /** Null: SMS is not configured; SMS rows go to the local mailbox. */
  sms: SmsProvider | null;
  now?: () => Date;
  random?: () => number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  batchSize?: number;
  /** A claimed row is invisible to other workers this long; a process dying mid-send frees it after. */
  leaseMs?: number;
  /** At most this many messages to one address are sent within an hour; more fail as rate limited. */
  hourlyLimit?: number;
  /** Product name and public URL for messages the database queued (alert mails) and rendered here. */
  product?: string;
  publicUrl?: string;
  log?: (line: string) => void;
}

export interface MessageRunStats {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

/**
 * Sends the message outbox. `runOnce` claims due rows (FOR UPDATE SKIP LOCKED with a lease, so
 * every worker process may run it and each row is in one sender's hands at a time), sends each and
 * writes the outcome only if its claim is still the row's latest (`attempts` unchanged), so a sender
 * that outlived its lease cannot overwrite the one that took over. Delivery is at least once; each
 * mail's Message-ID is the row's uuid, so a repeat after a crash mid-send is recognisable.
 */
export class MessageOutbox {
  private readonly db: Queryable;
  private readonly mail: MailTransport;
  private readonly sms: SmsProvider | null;
  private readonly now: () => Date;
  private readonly random: () => number;
  readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly hourlyLimit: number;
  private readonly product: string;
  private readonly publicUrl: string;
  private readonly log: (line: string) => void;
  private running: Promise<MessageRunStats> | null = null;

  constructor(o: MessageOutboxOptions) {
    this.db = o.db;
    this.mail = o.mail;
    this.sms = o.sms;
    this.now = o.now ?? (() => new Date());
    this.random = o.random ?? Math.random;
    this.maxAttempts = o.maxAttempts ?? 8;
    this.retryBaseMs = o.retryBaseMs ?? 5000;
    this.retryMaxMs = o.retryMaxMs ?? 900_000;
    this.batchSize = o.batchSize ?? 20;
    this.leaseMs = o.leaseMs ?? 120_000;
    this.hourlyLimit = o.hourlyLimit ?? 30;
    this.product = o.product ?? 'Fleet';
    this.publicUrl = o.publicUrl ?? 'http://127.0.0.1:8080';
    this.log = o.log ?? (() => undefined);
  }

  runOnce(): Promise<MessageRunStats> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async drain(maxPasses = 50): Promise<MessageRunStats> {
    const total: MessageRunStats = { claimed: 0, sent: 0, retried: 0, failed: 0 };
    for (let i = 0; i < maxPasses; i++) {
      const s = await this.runOnce();
      total.claimed += s.claimed;
      total.sent += s.sent;
      total.retried += s.retried;
      total.failed += s.failed;
      if (s.claimed < this.batchSize) break;
    }
    return total;
  }

  private async pass(): Promise<MessageRunStats> {
    const now = this.now();
    const stats: MessageRunStats = { claimed: 0, sent: 0, retried: 0, failed: 0 };
    const rows = await this.db.query<ClaimedRow>(
      `UPDATE message_outbox SET attempts = attempts + 1, next_attempt_at = $2, updated_at = $1
       WHERE id IN (
         SELECT id FROM message_outbox WHERE status = 'queued' AND (attempts = 0 OR next_attempt_at <= $1)
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, uuid, attempts, company_id, user_id, channel, kind, recipient, locale, subject, body_text,
         body_html, params, attachments`,
      [now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), this.batchSize],
    );
    stats.claimed = rows.length;
    rows.sort((a, b) => a.id - b.id);
    for (const r of rows) stats[await this.deliver(r)]++;
    return stats;
  }

  /**
   * Renders a row the database queued with its template values only (alert mails, migration 0018;
   * guardian messages, migration 0026). Answers the reason when the message is not to be sent at all.
   */
  private async renderDeferred(r: ClaimedRow): Promise<string | null> {
    if (r.body_html !== null || !r.params) return null;
    let rendered: RenderedMessage;
    if (isGuardianKind(r.kind)) {
      const out = await renderGuardianMessage(
        this.db,
        {
          kind: r.kind,
          channel: r.channel,
          locale: r.locale,
          company_id: r.company_id,
          params: r.params as Record<string, unknown>,
        },
        { publicUrl: this.publicUrl, product: this.product, now: this.now() },
      );
      if ('skip' in out) return out.skip;
      rendered = out.rendered;
    } else if (r.kind === 'alert') {
      const p = r.params;
      rendered = renderMessage(
        'alert',
        r.locale === 'ar' ? 'ar' : 'en',
        {
          title: p.title,
          detail: p.detail,
          ...(p.notification_uuid
            ? { link: `${this.publicUrl}/dashboard/notifications/details/${p.notification_uuid}` }
            : {}),
        },
        this.product,
      );
    } else return null;
    r.subject = rendered.subject;
    r.body_text = r.channel === 'sms' ? rendered.sms : rendered.text;
    r.body_html = r.channel === 'sms' ? null : rendered.html;
    await this.db.query(
      'UPDATE message_outbox SET subject = $2, body_text = $3, body_html = $4 WHERE id = $1 AND attempts = $5',
      [r.id, r.subject, r.body_text, r.body_html ?? '', r.attempts],
    );
    return null;
  }

  private async deliver(r: ClaimedRow): Promise<'sent' | 'retried' | 'failed'> {
    const notSent = await this.renderDeferred(r);
    if (notSent) return this.fail(r, 'none', notSent);
    const [{ n } = { n: 0 }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM message_outbox
       WHERE lower(recipient) = lower($1) AND status = 'sent' AND sent_at > $2`,
      [r.recipient, new Date(this.now().getTime() - 3_600_000).toISOString()],
    );
    if (n >= this.hourlyLimit)
      return this.fail(
        r,
        r.channel === 'sms' ? (this.sms?.name ?? 'mailbox') : this.mail.name,
        `rate limited: ${n} messages sent to this address in the last hour`,
      );
    let result: DeliveryResult;
    let transport: string;
    try {
      if (r.channel === 'sms' && this.sms) {
        transport = this.sms.name;
        result = await this.sms.send(r.recipient, r.body_text ?? '');
      } else if (r.channel === 'sms') {
        transport = 'mailbox';
        result = { kind: 'sent' };
      } else {
        transport = this.mail.name;
        result = await this.mail.send({
          messageId: `<${r.uuid}@fleet.messages>`,
          to: r.recipient,
          subject: r.subject,
          text: r.body_text ?? '',
          html: r.body_html,
          attachments: r.attachments ?? [],
          ...(await this.unsubscribeLink(r)),
        });
      }
    } catch (err) {
      transport = r.channel === 'sms' ? (this.sms?.name ?? 'mailbox') : this.mail.name;
      result = { kind: 'retry', error: (err as Error).message.slice(0, 300) };
    }
    const at = this.now();
    // Bodies carry one-time secrets: kept for the local mailbox, dropped once the message left.
    const keepBody = transport === 'mailbox';
    if (result.kind === 'sent') {
      const done = await this.db.query(
        `UPDATE message_outbox SET status = 'sent', transport = $3, sent_at = $4, updated_at = $4, last_error = NULL,
           body_text = CASE WHEN $5 THEN body_text END, body_html = CASE WHEN $5 THEN body_html END,
           attachments = CASE WHEN $5 THEN attachments END
         WHERE id = $1 AND attempts = $2 AND status = 'queued' RETURNING 1`,
        [r.id, r.attempts, transport, at.toISOString(), keepBody],
      );
      if (done.length) {
        this.log(
          `[messages] sent ${r.kind} ${r.channel} to ${maskRecipient(r.recipient)} via ${transport} (${r.uuid})`,
        );
        await this.activity(r, 'message_sent', transport, null);
      }
      return 'sent';
    }
    if (result.kind === 'retry' && r.attempts < this.maxAttempts) {
      const delay = backoffMs(r.attempts, {
        baseMs: this.retryBaseMs,
        maxMs: this.retryMaxMs,
        random: this.random(),
      });
      await this.db.query(
        `UPDATE message_outbox SET next_attempt_at = $3, last_error = $4, transport = $5, updated_at = $6
         WHERE id = $1 AND attempts = $2 AND status = 'queued'`,
        [
          r.id,
          r.attempts,
          new Date(at.getTime() + delay).toISOString(),
          result.error,
          transport,
          at.toISOString(),
        ],
      );
      this.log(
        `[messages] ${r.kind} ${r.channel} to ${maskRecipient(r.recipient)} not sent (try ${r.attempts}, again in ${Math.round(delay / 1000)} s): ${result.error}`,
      );
      return 'retried';
    }
    return this.fail(
      r,
      transport,
      result.kind === 'retry' ? `gave up after ${r.attempts} attempts: ${result.error}` : result.error,
    );
  }

  /**
   * The unsubscribe link of a guardian e-mail, for its List-Unsubscribe header: the same signed link as
   * in the body (the signature is a function of guardian and channel, so it is made again here rather
   * than stored; a retry of a message rendered on an earlier try gets it too).
   */
  private async unsubscribeLink(r: ClaimedRow): Promise<{ unsubscribe?: string }> {
    const guardian = (r.params as { guardian_uuid?: unknown } | null)?.guardian_uuid;
    if (!isGuardianKind(r.kind) || r.channel !== 'email' || typeof guardian !== 'string') return {};
    return {
      unsubscribe: `${this.publicUrl}/unsubscribe/${await signUnsubscribe(this.db, guardian, 'email')}`,
    };
  }

  private async fail(r: ClaimedRow, transport: string, error: string): Promise<'failed'> {
    const at = this.now();
    const done = await this.db.query(
      `UPDATE message_outbox SET status = 'failed', last_error = $3, transport = $4, updated_at = $5,
         body_text = NULL, body_html = NULL, attachments = NULL
       WHERE id = $1 AND attempts = $2 AND status = 'queued' RETURNING 1`,
      [r.id, r.attempts, error, transport, at.toISOString()],
    );
    if (done.length) {
      this.log(
        `[messages] failed ${r.kind} ${r.channel} to ${maskRecipient(r.recipient)} (${r.uuid}): ${error}`,
      );
      await this.activity(r, 'message_failed', transport, error);
    }
    return 'failed';
  }

  private async activity(
    r: ClaimedRow,
    action: 'message_sent' | 'message_failed',
    transport: string,
    error: string | null,
  ): Promise<void> {
    await logActivity(this.db, {
      companyId: r.company_id,
      userId: null,
      action,
      entity: 'message',
      entityUuid: r.uuid,
      after: {
        kind: r.kind,
        channel: r.channel,
        recipient: r.recipient,
        transport,
        attempts: r.attempts,
        ...(error ? { error } : {}),
      },
    }).catch((e: unknown) => this.log(`[messages] activity log failed: ${(e as Error).message}`));
  }

  /** Deletes sent and failed rows older than `keepMs` (default 30 days); returns how many. */
  async prune(keepMs = 30 * 86_400_000): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM message_outbox WHERE status IN ('sent', 'failed') AND updated_at < $1 RETURNING 1`,
      [new Date(this.now().getTime() - keepMs).toISOString()],
    );
    return rows.length;
  }
}
