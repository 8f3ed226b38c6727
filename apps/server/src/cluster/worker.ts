import type { LocationInput, Storage } from '../storage/storage';
import type { Queryable } from '../storage/db';
import type { Bus } from '../realtime/bus';
import type { NatsBus, PartitionMessage, PartitionReader } from '../realtime/nats-bus';
import { IngestQueue } from '../gateway/ingest-queue';
import { reviveBatch, type WireLocationBatch } from './ingest';
import type { LockSession } from './lease';
import { PartitionOwnership } from './partitions';
import { pipelineHooks } from './pipeline-hooks';

export interface WorkerStats {
  messages: number;
  batches: number;
  records: number;
  stored: number;
  duplicates: number;
  malformed: number;
}

export interface Worker {
  readonly stats: WorkerStats;
  /** Partitions this worker owns right now. */
  readonly partitions: number[];
  close(): Promise<void>;
}

export interface WorkerOptions {
  storage: Pick<Storage, 'insertLocations'>;
  /** The cluster bus (NATS): the locations partitions are read from it. */
  bus: Pick<NatsBus, 'readPartition' | 'partitionCount'>;
  /** Where stored batches are announced for the pipeline (the worker's in-process bus). */
  local: Bus;
  /**
   * The node's PostgreSQL lock session (partition ownership). Without one (ROLE=all on PGlite: one
   * process is the whole cluster) the worker owns every partition.
   */
  session?: LockSession;
  /**
   * Where clean hand-overs are recorded (table cluster_partitions, with the session): the cluster
   * namespace and this node's name. Without it every take-over is treated as after a crash.
   */
  handover?: { db: Queryable; namespace: string; owner: string };
  /** Queue group name (default `workers`). */
  queue?: string;
  /** Largest batch read from one partition at once (default 512). */
  maxBatch?: number;
  log?: (msg: string) => void;
}

/**
 * A pipeline worker. It owns a share of the locations partitions (cluster/partitions.ts) and reads
 * each owned partition in batches (NatsBus.readPartition): a batch (whatever arrived while the
 * previous one was stored, up to `maxBatch` messages, many devices) is revived, its records go into
 * ONE multi-row insert (the IngestQueue also merges the batches of partitions read at the same time),
 * the unique (device, fix time) makes a redelivered message store nothing twice. Only after the insert
 * committed are the NEW records announced on the local bus as `locations.<company>.<device>`, one
 * message per device with its records in stream order (devices of a batch concurrently, a device's
 * records never split), and only after those handlers returned is the batch acked.
 *
 * Ordering guarantee: a device always maps to the same partition; a partition has one owner at a time
 * and its messages are handled in stream order, one batch after the other; across an ownership
 * hand-over the next owner gets the unacked messages first (see readPartition). A crash between
 * commit and ack redelivers the batch: it stores nothing and announces nothing (trips and rollups are
 * recomputed from stored rows anyway).
 */
export function startWorker(opts: WorkerOptions): Worker {
  const log = opts.log ?? (() => undefined);
  const queue = new IngestQueue(opts.storage, { maxBatch: 4000, maxDelayMs: 2, concurrency: 2 });
  const stats: WorkerStats = { messages: 0, batches: 0, records: 0, stored: 0, duplicates: 0, malformed: 0 };
  const readers = new Map<number, PartitionReader>();

  async function handle(batch: PartitionMessage[]): Promise<void> {
    // Per device, in stream order: one wire batch of all its records of this read.
    const byDevice = new Map<
      string,
      { subject: string; wire: WireLocationBatch; records: LocationInput[] }
    >();
    for (const m of batch) {
      const wire = reviveBatch(m.payload);
      if (!wire) {
        stats.malformed++;
        log(`worker: dropped malformed batch on ${m.subject}`);
        continue;
      }
      const hit = byDevice.get(wire.deviceUuid);
      if (hit) hit.records.push(...wire.records);
      else byDevice.set(wire.deviceUuid, { subject: m.subject, wire, records: [...wire.records] });
    }
    const all = [...byDevice.values()].flatMap((d) => d.records);
    const fresh = await queue.submit(all);
    const freshSet = new Set(fresh);
    // The pipeline's per-device state: read before announcing, written before the ack (a next owner
    // of the partition starts from it and goes through what was stored but not processed).
    const hooks = pipelineHooks(opts.storage);
    if (hooks) await hooks.prepare([...byDevice.keys()]);
    await Promise.all(
      [...byDevice.values()].map(async (d) => {
        const mine = d.records.filter((r) => freshSet.has(r));
        if (mine.length > 0) await opts.local.publish(d.subject, { ...d.wire, records: mine });
      }),
    );
    if (hooks) await hooks.commit();
    stats.batches++;
    stats.messages += batch.length;
    stats.records += all.length;
    stats.stored += fresh.length;
    stats.duplicates += all.length - fresh.length;
  }

  const h = opts.handover;
  const acquire = async (p: number) => {
    // The devices of this partition were handled elsewhere until now: their pipeline state is read
    // from the store again.
    pipelineHooks(opts.storage)?.reset();
    let waitForHeld = true;
    if (h) {
      const [row] = await h.db.query<{ clean: boolean }>(
        'SELECT clean FROM cluster_partitions WHERE namespace = $1 AND partition = $2',
        [h.namespace, p],
      );
      waitForHeld = row?.clean !== true;
      await h.db.query(
        `INSERT INTO cluster_partitions (namespace, partition, owner, clean) VALUES ($1, $2, $3, false)
         ON CONFLICT (namespace, partition) DO UPDATE SET owner = $3, clean = false, updated_at = now()`,
        [h.namespace, p, h.owner],
      );
    }
    const reader = await opts.bus.readPartition(opts.queue ?? 'workers', 'locations.>', p, handle, {
      maxBatch: opts.maxBatch ?? 512,
      waitForHeld,
    });
    readers.set(p, reader);
  };
  const release = async (p: number) => {
    const reader = readers.get(p);
    readers.delete(p);
    await reader?.stop();
    // Everything received was acked or handed back: the next owner may read at once.
    if (h && reader)
      await h.db
        .query(
          `UPDATE cluster_partitions SET clean = true, updated_at = now()
           WHERE namespace = $1 AND partition = $2 AND owner = $3`,
          [h.namespace, p, h.owner],
        )
        .catch((err: unknown) =>
          log(`worker: could not record the hand-over of partition ${p}: ${String(err)}`),
        );
  };
  if (!opts.session) {
    const all = Array.from({ length: opts.bus.partitionCount }, (_, p) => p);
    const started = Promise.all(all.map(acquire));
    started.catch((err: unknown) => log(`worker: could not start reading: ${String(err)}`));
    return {
      stats,
      get partitions() {
        return [...readers.keys()].sort((a, b) => a - b);
      },
      async close() {
        await started.catch(() => undefined);
        await Promise.all([...readers.keys()].map(release));
        await queue.drain();
      },
    };
  }
  const ownership = new PartitionOwnership({
    session: opts.session,
    partitions: opts.bus.partitionCount,
    log,
    acquire,
    release,
  });
  ownership.start();
  return {
    stats,
    get partitions() {
      return ownership.partitions;
    },
    async close() {
      await ownership.close();
      await queue.drain();
    },
  };
}
