import type { Queryable } from '../storage/db';
import type { PushMessage, PushSender, SendResult } from './fcm';

export interface OutboxOptions {
  db: Queryable;
  sender: PushSender;
  now?: () => Date;
  /** In [0, 1); jitter of the back-off. */
  random?: () => number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A push still undelivered this long after its notification is dropped (stale alert). */
  maxAgeMs?: number;
  batchSize?: number;
  /**
   * A claimed row is invisible to other workers for this long; if this process dies mid-send the
   * row becomes due again afterwards (delivery is at least once).
   */
  leaseMs?: number;
  log?: (line: string) => void;
}

export interface RunStats {
  claimed: number;
  sent: number;
  retried: number;
  dead: number;
}

interface ClaimedRow {
  id: number;
  attempts: number;
  token_id: number;
  token: string;
  token_active: boolean;
  token_owner_ok: boolean;
  expired: boolean;
  uuid: string;
  type: string;
  title: string;
  message: string;
  vehicle_uuid: string | null;
}

/** Where the mobile app opens a notification push. */
export const PUSH_PATH = '/dashboard/notifications';

/**
 * Exponential back-off with jitter: base * 2^(attempt-1), capped at max, scaled by a random factor
 * in [0.5, 1) so that a fleet of retries after an FCM outage spreads out; never sooner than FCM's
 * Retry-After.
 */
export function backoffMs(
  attempt: number,
  o: { baseMs: number; maxMs: number; random: number; retryAfterMs?: number | null },
): number {
  const exp = Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exp * (0.5 + 0.5 * o.random));
  return Math.max(jittered, o.retryAfterMs ?? 0);
}

/**
 * Delivers the push outbox. `runOnce` claims the due rows (FOR UPDATE SKIP LOCKED, so several
 * server processes on one PostgreSQL share the work without sending a row twice; PGlite has a single
 * connection, where the same statement is simply serial), sends each and records the outcome.
 */
export class PushOutbox {
  private readonly db: Queryable;
  private readonly sender: PushSender;
  private readonly now: () => Date;
  private readonly random: () => number;
  readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxAgeMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly log: (line: string) => void;
  private running: Promise<RunStats> | null = null;

  constructor(o: OutboxOptions) {
    this.db = o.db;
    this.sender = o.sender;
    this.now = o.now ?? (() => new Date());
    this.random = o.random ?? Math.random;
    this.maxAttempts = o.maxAttempts ?? 8;
    this.retryBaseMs = o.retryBaseMs ?? 2000;
    this.retryMaxMs = o.retryMaxMs ?? 600_000;
    this.maxAgeMs = o.maxAgeMs ?? 86_400_000;
    this.batchSize = o.batchSize ?? 50;
    this.leaseMs = o.leaseMs ?? 60_000;
    this.log = o.log ?? (() => undefined);
  }

  /** One pass over the due rows (concurrent calls share the pass in progress). */
  runOnce(): Promise<RunStats> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Passes until nothing due is left (or `maxPasses`). */
  async drain(maxPasses = 100): Promise<RunStats> {
    const total: RunStats = { claimed: 0, sent: 0, retried: 0, dead: 0 };
    for (let i = 0; i < maxPasses; i++) {
      const s = await this.runOnce();
      total.claimed += s.claimed;
      total.sent += s.sent;
      total.retried += s.retried;
      total.dead += s.dead;
      if (s.claimed < this.batchSize) break;
    }
    return total;
  }

  private async pass(): Promise<RunStats> {
    const now = this.now();
    const stats: RunStats = { claimed: 0, sent: 0, retried: 0, dead: 0 };
    const claimed = await this.db.query<{ id: number }>(
      `UPDATE push_outbox SET attempts = attempts + 1, next_attempt_at = $2, updated_at = $1
       WHERE id IN (
         SELECT id FROM push_outbox WHERE status IN ('pending', 'failed') AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), this.batchSize],
    );
    stats.claimed = claimed.length;
    if (claimed.length === 0) return stats;
    const rows = await this.db.query<ClaimedRow>(
      `SELECT o.id, o.attempts, t.id AS token_id, t.token, t.active AS token_active,
         (t.user_id = n.user_id) AS token_owner_ok, (n.created_at < $2) AS expired,
         n.uuid, n.type, n.title, n.message, v.uuid AS vehicle_uuid
       FROM push_outbox o
       JOIN fcm_tokens t ON t.id = o.fcm_token_id
       JOIN notifications n ON n.id = o.notification_id
       LEFT JOIN vehicles v ON v.id = n.vehicle_id
       WHERE o.id = ANY($1::bigint[]) ORDER BY o.id`,
      [claimed.map((c) => c.id), new Date(now.getTime() - this.maxAgeMs).toISOString()],
    );
    await Promise.all(
      rows.map(async (r) => {
        const outcome = await this.deliver(r);
        stats[outcome]++;
      }),
    );
    return stats;
  }

  private async deliver(r: ClaimedRow): Promise<'sent' | 'retried' | 'dead'> {
    if (!r.token_active || !r.token_owner_ok) {
      await this.finish(r.id, 'dead', 'the FCM token was deactivated or now belongs to another user');
      return 'dead';
    }
    if (r.expired) {
      await this.finish(r.id, 'dead', 'expired: not delivered within PUSH_MAX_AGE_MS');
      return 'dead';
    }
    const message: PushMessage = {
      title: r.title,
      body: r.message,
      data: {
        notification_uuid: r.uuid,
        type: r.type,
        vehicle_uuid: r.vehicle_uuid ?? '',
        path: PUSH_PATH,
      },
    };
    let result: SendResult;
    try {
      result = await this.sender.send(r.token, message);
    } catch (err) {
      result = { kind: 'retry', error: (err as Error).message, retryAfterMs: null };
    }
    switch (result.kind) {
      case 'sent':
        await this.finish(r.id, 'sent', null);
        return 'sent';
      case 'invalid-token':
        await this.db.query('UPDATE fcm_tokens SET active = false, updated_at = now() WHERE id = $1', [
          r.token_id,
        ]);
        await this.finish(r.id, 'dead', result.error);
        this.log(`push: FCM token ${r.token_id} deactivated (${result.error})`);
        return 'dead';
      case 'rejected':
        await this.finish(r.id, 'dead', result.error);
        this.log(`push: notification ${r.uuid} rejected by FCM (${result.error})`);
        return 'dead';
      case 'retry': {
        if (r.attempts >= this.maxAttempts) {
          await this.finish(r.id, 'dead', `gave up after ${r.attempts} attempts: ${result.error}`);
          this.log(
            `push: notification ${r.uuid} not delivered after ${r.attempts} attempts (${result.error})`,
          );
          return 'dead';
        }
        const delay = backoffMs(r.attempts, {
          baseMs: this.retryBaseMs,
          maxMs: this.retryMaxMs,
          random: this.random(),
          retryAfterMs: result.retryAfterMs,
        });
        await this.db.query(
          `UPDATE push_outbox SET status = 'failed', next_attempt_at = $2, last_error = $3, updated_at = $4 WHERE id = $1`,
          [
            r.id,
            new Date(this.now().getTime() + delay).toISOString(),
            result.error,
            this.now().toISOString(),
          ],
        );
        return 'retried';
      }
    }
  }

  /** Deletes sent and dead rows older than `keepMs` (default a week); returns how many. */
  async prune(keepMs = 7 * 86_400_000): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM push_outbox WHERE status IN ('sent', 'dead') AND updated_at < $1 RETURNING 1`,
      [new Date(this.now().getTime() - keepMs).toISOString()],
    );
    return rows.length;
  }

  private async finish(id: number, status: 'sent' | 'dead', error: string | null): Promise<void> {
    await this.db.query(
      'UPDATE push_outbox SET status = $2, last_error = $3, updated_at = $4 WHERE id = $1',
      [id, status, error, this.now().toISOString()],
    );
  }
}
