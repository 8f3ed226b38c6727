import type { Consumer, JsMsg, NatsConnection } from 'nats';
import type { NatsSubjects } from './nats-subjects';

/** One message of a partition batch (see `NatsBus.readPartition` in nats-bus.ts). */
export interface PartitionMessage {
  /** Logical subject (no prefix, no partition token). */
  subject: string;
  payload: unknown;
  /** Stream sequence (strictly increasing within a partition). */
  seq: number;
  redelivered: boolean;
}

export interface PartitionReaderOptions {
  /** Unacked messages the partition's consumer may have out at once (default 1024). */
  maxAckPending?: number;
  /** Largest batch handed to the handler (default 512). */
  maxBatch?: number;
  /** Delay between attempts of a batch whose handler failed (default: the bus's retry delay). */
  retryDelayMs?: number;
  /**
   * The previous owner may have died holding messages (it did not let go cleanly): when the consumer
   * has unacked messages, wait one ack wait before pulling, so they come back first.
   */
  waitForHeld?: boolean;
  /** How long one pull request waits for messages (default and minimum 1 s; stop takes at most this). */
  fetchExpiresMs?: number;
}

export interface PartitionReader {
  readonly partition: number;
  /** Batches handled and messages acked so far. */
  readonly stats: { batches: number; messages: number; retries: number };
  /**
   * Stops reading: the batch being handled finishes (and is acked), messages received but not
   * handled are nak'ed so the partition's next owner gets them first, in order.
   */
  stop(): Promise<void>;
}

/** What a partition reader needs of the bus it belongs to. */
export interface PartitionReaderHost {
  readonly nc: NatsConnection;
  readonly subjects: NatsSubjects;
  /** Asked at every turn: the bus may close while the reader runs. */
  isClosed(): boolean;
  /** The consumers' ack wait (a dead owner's messages come back after it). */
  readonly ackWaitMs: number;
  log(msg: string): void;
  onError(err: unknown, subject: string): void;
  /** Takes the reader's stop as soon as the reader runs, so closing the bus stops it. */
  track(stop: () => Promise<void>): void;
}

export interface PartitionReaderSettings {
  maxBatch: number;
  retryDelay: number;
  waitForHeld?: boolean;
  fetchExpiresMs?: number;
}

const dec = new TextDecoder();

/**
 * Batch reader of ONE partition of a queue group on the locations family, for the node that owns
 * that partition (see cluster/partitions.ts: exactly one owner at a time, so the consumer may have
 * many messages out: `maxAckPending`). Messages are handed to `handler` in stream order, in batches
 * of whatever arrived while the previous batch was handled (at most `maxBatch`), one batch at a time.
 * After the handler resolved every message of the batch is acked and the acks are flushed before the
 * next batch; a failing handler is retried IN PLACE with the same batch after `retryDelayMs`
 * (messages kept alive with +WPI so the server does not hand them out again), so a database outage
 * neither reorders nor drops anything.
 *
 * Stopping hands back (nak) every message received but not handled, so the next owner gets them
 * first (the server serves redeliveries before new messages): a graceful hand-over keeps the order.
 * Taking over from an owner that died (`waitForHeld`): when the consumer still has unacked messages,
 * the reader waits until they are due for redelivery (ack wait) before it pulls, so the order is kept
 * across a crash as well.
 */
export async function runPartitionReader(
  host: PartitionReaderHost,
  consumer: Consumer,
  partition: number,
  handler: (batch: PartitionMessage[]) => Promise<void>,
  settings: PartitionReaderSettings,
): Promise<{ stats: PartitionReader['stats']; stop: () => Promise<void> }> {
  const { maxBatch, retryDelay } = settings;
  const stats = { batches: 0, messages: 0, retries: 0 };
  let stopped = false;
  /** Wakes the handler loop (messages arrived, or stop). */
  let wake: (() => void) | null = null;
  /** Wakes the pull loop (the buffer has room again, or stop). */
  let room: (() => void) | null = null;
  const signal = (which: 'wake' | 'room') => {
    const f = which === 'wake' ? wake : room;
    if (which === 'wake') wake = null;
    else room = null;
    f?.();
  };
  let takeoverTimer: NodeJS.Timeout | null = null;

  const info = settings.waitForHeld ? await consumer.info().catch(() => null) : null;
  const buf: JsMsg[] = [];
  const fetchExpires = Math.max(1000, settings.fetchExpiresMs ?? 1000);
  /**
   * Pulls with bounded fetches (one pull request at a time, at most `maxBatch` messages, expiring
   * after ~1 s) rather than a continuous consume(): every message the server delivers for a fetch is
   * yielded by its iterator, so on stop none can be left unseen in a client buffer; they are all
   * handled or nak'ed, and a graceful hand-over keeps the partition's order without any ack wait.
   */
  const pull = async () => {
    while (!stopped) {
      if (buf.length >= maxBatch * 2) {
        await new Promise<void>((r) => (room = r));
        continue;
      }
      try {
        const it = await consumer.fetch({ max_messages: maxBatch, expires: fetchExpires });
        for await (const m of it) {
          if (stopped) {
            m.nak();
            continue;
          }
          buf.push(m);
          signal('wake');
        }
      } catch (err) {
        if (host.isClosed() || stopped) return;
        host.onError(err, `partition ${partition} fetch`);
        await new Promise((r) => setTimeout(r, retryDelay));
      }
    }
  };
  const run = (async () => {
    if (info && info.num_ack_pending > 0) {
      // The previous owner died holding messages: they come back (ahead of newer ones) after the
      // ack wait; pulling earlier would hand out newer messages of the same devices first.
      await new Promise<void>((r) => {
        takeoverTimer = setTimeout(r, host.ackWaitMs + 250);
        wake = () => r();
      });
      if (takeoverTimer) clearTimeout(takeoverTimer);
    }
    if (stopped) return;
    const pump = pull();
    const giveBack = async (held: JsMsg[]) => {
      for (const m of [...held, ...buf.splice(0)]) m.nak();
      signal('room');
      await pump.catch(() => undefined);
      // Messages that arrived for the last fetch after the loop stopped were nak'ed by it.
      for (const m of buf.splice(0)) m.nak();
      await host.nc.flush().catch(() => undefined);
    };
    while (!stopped) {
      if (buf.length === 0) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      const taken = buf.splice(0, maxBatch);
      signal('room');
      const batch: PartitionMessage[] = [];
      for (const m of taken) {
        const subject = host.subjects.logicalSubject(m.subject);
        try {
          batch.push({
            subject,
            payload: JSON.parse(dec.decode(m.data)),
            seq: m.seq,
            redelivered: m.redelivered,
          });
        } catch {
          host.log(`bus: dropped undecodable message on ${subject} (seq ${m.seq})`);
          m.term();
        }
      }
      for (;;) {
        try {
          if (batch.length > 0) await handler(batch);
          break;
        } catch (err) {
          host.onError(err, `partition ${partition}`);
          stats.retries++;
          if (host.isClosed()) return;
          if (stopped) {
            // Ownership is gone: give the batch back (in order, ahead of the rest) to the next owner.
            return giveBack(taken);
          }
          for (const m of taken) m.working();
          await new Promise((r) => setTimeout(r, retryDelay));
        }
      }
      for (const m of taken) m.ack();
      await host.nc.flush().catch(() => undefined);
      stats.batches++;
      stats.messages += taken.length;
    }
    await giveBack([]);
  })().catch((err: unknown) => host.onError(err, `partition ${partition}`));
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    signal('wake');
    signal('room');
    await run;
  };
  host.track(stop);
  return { stats, stop };
}
