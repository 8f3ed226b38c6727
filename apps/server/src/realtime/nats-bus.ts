import {
  connect,
  DeliverPolicy,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type Subscription,
} from 'nats';
import type { Bus, BusHandler, SubscribeOptions } from './bus';
import {
  runPartitionReader,
  type PartitionMessage,
  type PartitionReader,
  type PartitionReaderHost,
  type PartitionReaderOptions,
} from './nats-partition-reader';
import { durableConsumer, ensureStreams } from './nats-streams';
import { NatsSubjects, type Family } from './nats-subjects';

export { partitionOf } from './nats-subjects';
export type { PartitionMessage, PartitionReader, PartitionReaderOptions } from './nats-partition-reader';

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
 *
 * Layout: the wire layout of subjects and partitions is nats-subjects.ts, the stream and durable
 * consumer settings nats-streams.ts, the batch reader of one partition nats-partition-reader.ts; this
 * file is the Bus itself (connection, publish, subscribe, shutdown).
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

export interface PublishOptions {
  /** JetStream de-duplication id (a resend with the same id inside the window is stored once). */
  msgId?: string;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export class NatsBus implements Bus {
  private readonly subjects: NatsSubjects;
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
    this.subjects = new NatsSubjects(opts);
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
    await ensureStreams(jsm, bus.subjects, opts);
    void bus.watchStatus();
    return bus;
  }

  get streamNames(): { locations: string; commands: string } {
    const [locations, commands] = this.subjects.families;
    return { locations: locations!.stream, commands: commands!.stream };
  }

  get partitionCount(): number {
    return this.subjects.partitions;
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') {
        this.log(`bus: nats ${s.type} ${typeof s.data === 'string' ? s.data : ''}`.trim());
      }
    }
  }

  /** The wire subject of a logical one (prefix, and the partition token for locations). */
  wireSubject(subject: string): string {
    return this.subjects.wireSubject(subject);
  }

  async publish<T>(subject: string, message: T, options: PublishOptions = {}): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    const data = enc.encode(JSON.stringify(message));
    const wire = this.wireSubject(subject);
    if (this.subjects.familyOf(subject)) {
      await this.js.publish(wire, data, options.msgId ? { msgID: options.msgId } : {});
    } else {
      this.nc.publish(wire, data);
    }
  }

  subscribe<T>(pattern: string, handler: BusHandler<T>, options: SubscribeOptions = {}): () => void {
    if (this.closed) throw new Error('bus closed');
    const fam = this.subjects.familyOf(pattern);
    if (!fam) return this.subscribeCore(pattern, handler as BusHandler, options.queue);
    const filters = this.subjects.filtersFor(fam, pattern);
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

  /**
   * Batch reader of ONE partition of a queue group on the locations family, for the node that owns
   * that partition (see cluster/partitions.ts); how it keeps the order across failures and hand-overs
   * is described at runPartitionReader (nats-partition-reader.ts).
   */
  async readPartition(
    queue: string,
    pattern: string,
    partition: number,
    handler: (batch: PartitionMessage[]) => Promise<void>,
    opts: PartitionReaderOptions = {},
  ): Promise<PartitionReader> {
    if (this.closed) throw new Error('bus closed');
    const fam = this.subjects.familyOf(pattern);
    if (!fam || fam.keyToken === null) throw new Error(`bus: ${pattern} is not a partitioned family`);
    if (partition < 0 || partition >= this.subjects.partitions)
      throw new Error(`bus: no partition ${partition}`);
    const filter = this.subjects.filtersFor(fam, pattern)[partition]!;
    const maxBatch = Math.max(1, opts.maxBatch ?? 512);
    const maxAckPending = Math.max(maxBatch, opts.maxAckPending ?? 1024);
    const retryDelay = opts.retryDelayMs ?? this.opts.retryDelayMs ?? 500;
    const consumer = await this.durable(fam, queue, pattern, filter, partition, maxAckPending);
    const { stats, stop } = await runPartitionReader(this.readerHost(), consumer, partition, handler, {
      maxBatch,
      retryDelay,
      waitForHeld: opts.waitForHeld,
      fetchExpiresMs: opts.fetchExpiresMs,
    });
    return {
      partition,
      stats,
      stop: async () => {
        this.stops.delete(stop);
        await stop();
      },
    };
  }

  /** What a partition reader sees of this bus (it asks `closed` at every turn). */
  private readerHost(): PartitionReaderHost {
    return {
      nc: this.nc,
      subjects: this.subjects,
      isClosed: () => this.closed,
      ackWaitMs: this.opts.ackWaitMs ?? 10_000,
      log: this.log,
      onError: this.onError,
      track: (stop) => void this.stops.add(stop),
    };
  }

  private durable(
    fam: Family,
    queue: string,
    pattern: string,
    filter: string,
    index: number,
    maxAckPending?: number,
  ) {
    const ackWaitMs = this.opts.ackWaitMs ?? 10_000;
    return durableConsumer(this.js, this.jsm, ackWaitMs, fam, queue, pattern, filter, index, maxAckPending);
  }

  private async loop(messages: ConsumerMessages, handler: BusHandler, explicitAck: boolean): Promise<void> {
    try {
      for await (const m of messages) await this.handle(m, handler, explicitAck);
    } catch (err) {
      if (!this.closed) this.onError(err, 'consumer loop');
    }
  }

  private async handle(m: JsMsg, handler: BusHandler, explicitAck: boolean): Promise<void> {
    const subject = this.subjects.logicalSubject(m.subject);
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
    const sub: Subscription = this.nc.subscribe(this.subjects.prefix + pattern, {
      ...(queue ? { queue } : {}),
      callback: (err, msg) => {
        if (err) return this.onError(err, pattern);
        const subject = this.subjects.logicalSubject(msg.subject);
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
