import {
  AckPolicy,
  connect,
  DeliverPolicy,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type StreamConfig,
  type Subscription,
} from 'nats';
import type { Bus, BusHandler, SubscribeOptions } from './bus';

/**
 * The scale-out {@link Bus}: NATS JetStream between gateways, pipeline workers and API nodes.
 *
 * Subject families (the logical subjects of `subjects` in bus.ts; an optional `prefix` namespaces
 * them on the wire so several clusters or test runs share one NATS):
 *
 * - `locations.<company>.<device>` -> JetStream stream `<NAME>LOCATIONS`. On the wire a partition
 *   token is appended: `locations.<company>.<device>.<p>`, p = FNV-1a(device uuid) mod `partitions`.
 *   `publish` resolves after JetStream's PubAck (the record is in the stream's file storage), so the
 *   gateway ACKs a device only after that.
 * - `commands.<device>` -> stream `<NAME>COMMANDS` (short retention: the command row in PostgreSQL is
 *   the source of truth, the message is the "send it now" signal).
 * - everything else (`realtime.<company>`) -> plain core NATS: every API node receives every event and
 *   filters per WebSocket client; a node that is down misses events, its clients reconnect elsewhere
 *   and catch up from the API (latest locations), which is the spec's own recovery path.
 *
 * Two ways to read a partitioned family as a group, both on the same durable consumers (one per
 * partition, filter `locations.*.*.<p>`):
 *
 * - `readPartition` (what cluster workers use): the ONE node that owns partition p (ownership by
 *   PostgreSQL advisory locks, cluster/partitions.ts) reads it in batches with many messages out
 *   (`max_ack_pending` 1024), stream order kept inside the node; see its doc for hand-overs.
 * - `subscribe` with a queue (below): every member pulls every partition, one message in flight per
 *   partition. Correct without any coordination but bounded by round trips (about 250 records/s with
 *   32 partitions on this machine), kept for small set-ups and tests.
 *
 * Queue groups on a stream family = durable pull consumers. ORDER PER DEVICE: one durable consumer
 * per partition (filter `locations.*.*.<p>`) with `max_ack_pending: 1`, shared by every member of the
 * group. The server hands out the next message of a partition only after the previous one was acked,
 * so a device's messages are handled strictly in stream order across all workers, whichever worker
 * pulls them; a worker that dies mid-message leaves it unacked and it is redelivered after `ackWaitMs`
 * to any live member (automatic fail-over, no partition leases to manage). Parallelism = partition
 * count (default 32); workers batch across partitions in their storage layer. We chose this over
 * worker-owned partitions (static assignment or KV leases) because it needs no coordination and a
 * failed handler is redelivered in place (nak), which keeps the order even across failures.
 *
 * The ack is sent only AFTER the handler resolved; a throwing handler naks with a delay and the
 * message comes again (no max_deliver: a database outage must not drop acknowledged device data).
 * A message that cannot be decoded is terminated with a log line (it would never succeed).
 *
 * Without a queue, a stream family is read through an ordered consumer from "new" (every subscriber
 * sees every message, e.g. every gateway sees every command signal).
 *
 * Retention: limits (max age, default 24 h for locations, 1 h for commands), file storage. Not a work
 * queue: acked messages stay for the max age, so a stream can be replayed into a restored database
 * and observers (benchmarks, audits) can attach next to the worker group.
 *
 * Reconnects: the connection retries for ever; JetStream pull consumers resume by themselves, a
 * publish during an outage rejects after its timeout (the gateway then ACKs nothing and the device
 * resends).
 */

export interface NatsBusOptions {
  /** nats:// URL(s), comma-separated. */
  servers: string;
  /** Subject namespace on the wire ('' = none); e.g. 't1a2b' gives `t1a2b.locations...`. */
  prefix?: string;
  /** Stream name prefix (default: the upper-cased subject prefix). */
  streamPrefix?: string;
  /** Partitions of the locations family (default 32). All nodes of a cluster must agree. */
  partitions?: number;
  /** Redelivery delay of an unacked message (default 10 s). */
  ackWaitMs?: number;
  /** Delay before a failed (nak'ed) message comes again (default 500 ms). */
  retryDelayMs?: number;
  /** PubAck timeout (default 5 s). */
  publishTimeoutMs?: number;
  /** Max age of stored locations messages in hours (default 24). */
  locationsMaxAgeHours?: number;
  /** Stream replicas (1 on one server; 3 on a NATS cluster). */
  replicas?: number;
  /** Connection name (shows in NATS monitoring). */
  name?: string;
  log?: (msg: string) => void;
  onError?: (err: unknown, subject: string) => void;
}

/** One message of a partition batch (see {@link NatsBus.readPartition}). */
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

export interface PublishOptions {
  /** JetStream de-duplication id (a resend with the same id inside the window is stored once). */
  msgId?: string;
}

interface Family {
  name: 'locations' | 'commands';
  stream: string;
  /** Logical token count of its subjects (the partition token comes after). */
  tokens: number;
  /** Index of the token that is the ordering key (partitioned families only). */
  keyToken: number | null;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** FNV-1a 32-bit: a stable partition of a device uuid, the same in every process. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

function shortHash(s: string): string {
  return partitionOf(s, 0xffffff).toString(36);
}

export class NatsBus implements Bus {
  private readonly prefix: string;
  private readonly partitions: number;
  private readonly families: Family[];
  private readonly stops = new Set<() => Promise<void>>();
  private closed = false;
  private readonly log: (msg: string) => void;
  private readonly onError: (err: unknown, subject: string) => void;
  /** Subscriptions whose consumers are being created (subscribe is synchronous by interface). */
  private readonly starting = new Set<Promise<void>>();

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly opts: NatsBusOptions,
  ) {
    this.prefix = opts.prefix ? `${opts.prefix}.` : '';
    this.partitions = Math.max(1, Math.floor(opts.partitions ?? 32));
    const sp = opts.streamPrefix ?? (opts.prefix ? `${safeName(opts.prefix).toUpperCase()}_` : '');
    this.families = [
      { name: 'locations', stream: `${sp}LOCATIONS`, tokens: 3, keyToken: 2 },
      { name: 'commands', stream: `${sp}COMMANDS`, tokens: 2, keyToken: null },
    ];
    this.log = opts.log ?? (() => undefined);
    this.onError = opts.onError ?? ((err, subject) => this.log(`bus: handler on ${subject} failed: ${err}`));
  }

  /** Connect, create or update the streams, and return the bus. */
  static async connect(opts: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: opts.servers.split(',').map((s) => s.trim()),
      name: opts.name ?? 'fleet',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      pingInterval: 10_000,
    });
    const jsm = await nc.jetstreamManager();
    const bus = new NatsBus(nc, nc.jetstream({ timeout: opts.publishTimeoutMs ?? 5000 }), jsm, opts);
    await bus.ensureStreams();
    void bus.watchStatus();
    return bus;
  }

  get streamNames(): { locations: string; commands: string } {
    return { locations: this.families[0]!.stream, commands: this.families[1]!.stream };
  }

  get partitionCount(): number {
    return this.partitions;
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') {
        this.log(`bus: nats ${s.type} ${typeof s.data === 'string' ? s.data : ''}`.trim());
      }
    }
  }

  private async ensureStreams(): Promise<void> {
    const replicas = this.opts.replicas ?? 1;
    const hours = (h: number) => nanos(h * 3600_000);
    const configs: Partial<StreamConfig>[] = [
      {
        name: this.families[0]!.stream,
        subjects: [`${this.prefix}locations.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_age: hours(this.opts.locationsMaxAgeHours ?? 24),
        duplicate_window: nanos(120_000),
        num_replicas: replicas,
      },
      {
        name: this.families[1]!.stream,
        subjects: [`${this.prefix}commands.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_age: hours(1),
        duplicate_window: nanos(60_000),
        num_replicas: replicas,
      },
    ];
    for (const cfg of configs) {
      try {
        await this.jsm.streams.info(cfg.name!);
        await this.jsm.streams.update(cfg.name!, cfg);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.jsm.streams.add(cfg);
      }
    }
  }

  private familyOf(subjectOrPattern: string): Family | undefined {
    const first = subjectOrPattern.split('.', 1)[0];
    return this.families.find((f) => f.name === first);
  }

  /** The wire subject of a logical one (prefix, and the partition token for locations). */
  wireSubject(subject: string): string {
    const fam = this.familyOf(subject);
    if (!fam || fam.keyToken === null) return this.prefix + subject;
    const tokens = subject.split('.');
    if (tokens.length !== fam.tokens || tokens.some((t) => t === '' || t === '*' || t === '>')) {
      throw new Error(`bus: ${fam.name} subject must have ${fam.tokens} concrete tokens: ${subject}`);
    }
    return `${this.prefix}${subject}.${partitionOf(tokens[fam.keyToken]!, this.partitions)}`;
  }

  /** The logical subject of a wire one (prefix and partition token removed). */
  private logicalSubject(wire: string): string {
    const s = this.prefix && wire.startsWith(this.prefix) ? wire.slice(this.prefix.length) : wire;
    const fam = this.familyOf(s);
    if (!fam || fam.keyToken === null) return s;
    return s.split('.').slice(0, fam.tokens).join('.');
  }

  async publish<T>(subject: string, message: T, options: PublishOptions = {}): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    const data = enc.encode(JSON.stringify(message));
    const wire = this.wireSubject(subject);
    if (this.familyOf(subject)) {
      await this.js.publish(wire, data, options.msgId ? { msgID: options.msgId } : {});
    } else {
      this.nc.publish(wire, data);
    }
  }

  subscribe<T>(pattern: string, handler: BusHandler<T>, options: SubscribeOptions = {}): () => void {
    if (this.closed) throw new Error('bus closed');
    const fam = this.familyOf(pattern);
    if (!fam) return this.subscribeCore(pattern, handler as BusHandler, options.queue);
    const filters = this.filtersFor(fam, pattern);
    const loops: { stop: () => Promise<void> }[] = [];
    let stopped = false;
    const start = (async () => {
      for (const [i, filter] of filters.entries()) {
        if (stopped) return;
        const consumer = options.queue
          ? await this.durable(fam, options.queue, pattern, filter, i)
          : await this.js.consumers.get(fam.stream, {
              filterSubjects: filter,
              deliver_policy: DeliverPolicy.New,
            });
        if (stopped) return;
        const messages = await consumer.consume({ max_messages: fam.keyToken === null ? 64 : 8 });
        loops.push({ stop: async () => void (await messages.close()) });
        void this.loop(messages, handler as BusHandler, options.queue !== undefined);
      }
    })().catch((err: unknown) => this.onError(err, pattern));
    this.starting.add(start);
    void start.finally(() => this.starting.delete(start));
    const stop = async () => {
      stopped = true;
      await start;
      await Promise.all(loops.map((l) => l.stop().catch(() => undefined)));
    };
    this.stops.add(stop);
    return () => {
      this.stops.delete(stop);
      void stop();
    };
  }

  /** Resolves once every subscription made so far has its consumers in place. */
  async ready(): Promise<void> {
    await Promise.all([...this.starting]);
  }

  /** Consumer filter subjects of a pattern: one per partition for partitioned families. */
  private filtersFor(fam: Family, pattern: string): string[] {
    const tokens = pattern.split('.');
    if (tokens.at(-1) === '>') {
      tokens.pop();
      while (tokens.length < fam.tokens) tokens.push('*');
    }
    if (tokens.length !== fam.tokens) {
      throw new Error(`bus: pattern ${pattern} does not fit ${fam.name} subjects (${fam.tokens} tokens)`);
    }
    const base = this.prefix + tokens.join('.');
    if (fam.keyToken === null) return [base];
    return Array.from({ length: this.partitions }, (_, p) => `${base}.${p}`);
  }

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
  async readPartition(
    queue: string,
    pattern: string,
    partition: number,
    handler: (batch: PartitionMessage[]) => Promise<void>,
    opts: PartitionReaderOptions = {},
  ): Promise<PartitionReader> {
    if (this.closed) throw new Error('bus closed');
    const fam = this.familyOf(pattern);
    if (!fam || fam.keyToken === null) throw new Error(`bus: ${pattern} is not a partitioned family`);
    if (partition < 0 || partition >= this.partitions) throw new Error(`bus: no partition ${partition}`);
    const filter = this.filtersFor(fam, pattern)[partition]!;
    const maxBatch = Math.max(1, opts.maxBatch ?? 512);
    const maxAckPending = Math.max(maxBatch, opts.maxAckPending ?? 1024);
    const retryDelay = opts.retryDelayMs ?? this.opts.retryDelayMs ?? 500;
    const consumer = await this.durable(fam, queue, pattern, filter, partition, maxAckPending);
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

    const info = opts.waitForHeld ? await consumer.info().catch(() => null) : null;
    const buf: JsMsg[] = [];
    const fetchExpires = Math.max(1000, opts.fetchExpiresMs ?? 1000);
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
          if (this.closed || stopped) return;
          this.onError(err, `partition ${partition} fetch`);
          await new Promise((r) => setTimeout(r, retryDelay));
        }
      }
    };
    const run = (async () => {
      if (info && info.num_ack_pending > 0) {
        // The previous owner died holding messages: they come back (ahead of newer ones) after the
        // ack wait; pulling earlier would hand out newer messages of the same devices first.
        await new Promise<void>((r) => {
          takeoverTimer = setTimeout(r, (this.opts.ackWaitMs ?? 10_000) + 250);
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
        await this.nc.flush().catch(() => undefined);
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
          const subject = this.logicalSubject(m.subject);
          try {
            batch.push({
              subject,
              payload: JSON.parse(dec.decode(m.data)),
              seq: m.seq,
              redelivered: m.redelivered,
            });
          } catch {
            this.log(`bus: dropped undecodable message on ${subject} (seq ${m.seq})`);
            m.term();
          }
        }
        for (;;) {
          try {
            if (batch.length > 0) await handler(batch);
            break;
          } catch (err) {
            this.onError(err, `partition ${partition}`);
            stats.retries++;
            if (this.closed) return;
            if (stopped) {
              // Ownership is gone: give the batch back (in order, ahead of the rest) to the next owner.
              return giveBack(taken);
            }
            for (const m of taken) m.working();
            await new Promise((r) => setTimeout(r, retryDelay));
          }
        }
        for (const m of taken) m.ack();
        await this.nc.flush().catch(() => undefined);
        stats.batches++;
        stats.messages += taken.length;
      }
      await giveBack([]);
    })().catch((err: unknown) => this.onError(err, `partition ${partition}`));
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      signal('wake');
      signal('room');
      await run;
    };
    this.stops.add(stop);
    return {
      partition,
      stats,
      stop: async () => {
        this.stops.delete(stop);
        await stop();
      },
    };
  }

  private async durable(
    fam: Family,
    queue: string,
    pattern: string,
    filter: string,
    index: number,
    maxAckPending?: number,
  ) {
    const name = `${safeName(queue)}_${shortHash(pattern)}${fam.keyToken === null ? '' : `_p${index}`}`;
    const config = {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.opts.ackWaitMs ?? 10_000),
      deliver_policy: DeliverPolicy.All,
      filter_subject: filter,
      max_deliver: -1,
      max_ack_pending: maxAckPending ?? (fam.keyToken === null ? 1000 : 1),
    };
    try {
      await this.jsm.consumers.add(fam.stream, config);
    } catch (err) {
      // Exists with other settings (e.g. a changed ack wait): update what may be updated.
      await this.jsm.consumers.update(fam.stream, name, {
        ack_wait: config.ack_wait,
        max_ack_pending: config.max_ack_pending,
        max_deliver: config.max_deliver,
      });
      void err;
    }
    return this.js.consumers.get(fam.stream, name);
  }

  private async loop(messages: ConsumerMessages, handler: BusHandler, explicitAck: boolean): Promise<void> {
    try {
      for await (const m of messages) await this.handle(m, handler, explicitAck);
    } catch (err) {
      if (!this.closed) this.onError(err, 'consumer loop');
    }
  }

  private async handle(m: JsMsg, handler: BusHandler, explicitAck: boolean): Promise<void> {
    const subject = this.logicalSubject(m.subject);
    let payload: unknown;
    try {
      payload = JSON.parse(dec.decode(m.data));
    } catch {
      this.log(`bus: dropped undecodable message on ${subject} (seq ${m.seq})`);
      if (explicitAck) m.term();
      return;
    }
    try {
      await handler(payload, subject);
      if (explicitAck) await m.ackAck().catch(() => m.ack());
    } catch (err) {
      this.onError(err, subject);
      if (explicitAck) m.nak(this.opts.retryDelayMs ?? 500);
    }
  }

  private subscribeCore(pattern: string, handler: BusHandler, queue: string | undefined): () => void {
    const sub: Subscription = this.nc.subscribe(this.prefix + pattern, {
      ...(queue ? { queue } : {}),
      callback: (err, msg) => {
        if (err) return this.onError(err, pattern);
        const subject = this.logicalSubject(msg.subject);
        let payload: unknown;
        try {
          payload = JSON.parse(dec.decode(msg.data));
        } catch {
          return this.log(`bus: dropped undecodable message on ${subject}`);
        }
        Promise.resolve()
          .then(() => handler(payload, subject))
          .catch((e: unknown) => this.onError(e, subject));
      },
    });
    const stop = async () => {
      sub.unsubscribe();
    };
    this.stops.add(stop);
    return () => {
      this.stops.delete(stop);
      void stop();
    };
  }

  /** Waits until the server has processed everything published so far on core NATS. */
  async flush(): Promise<void> {
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.nc.isClosed()) return;
    // A handler that never settles must not hold the shutdown: give consumers 2 s to stop.
    const stops = Promise.all([...this.stops].map((s) => s().catch(() => undefined)));
    await Promise.race([stops, new Promise((r) => setTimeout(r, 2000).unref())]);
    this.stops.clear();
    await this.nc.drain().catch(() => this.nc.close());
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number }; message?: string };
  return e.api_error?.err_code === 10059 || e.code === '404' || /not found/i.test(e.message ?? '');
}
