import type { Database, Queryable } from '../storage/db';
import {
  clusterWorkers,
  embeddedDbMemory,
  jetstreamAckPending,
  jetstreamPending,
  leaseHolder,
  outboxBacklog,
  partitionsOwned,
} from '../metrics/metrics';
import type { NatsBus } from '../realtime/nats-bus';
import type { Worker } from './worker';
import type { LeaderLease, LockSession } from './lease';

/** Outbox tables whose backlog is reported when they exist (the messaging outbox may not, yet). */
const OUTBOXES: { name: string; table: string; waiting: string }[] = [
  { name: 'push', table: 'push_outbox', waiting: `status IN ('pending', 'failed')` },
  { name: 'message', table: 'message_outbox', waiting: `status IN ('pending', 'failed')` },
];

/**
 * The scrape-time figures of a worker node (and of the embedded server) (metrics.onScrape): partitions it owns, whether it holds
 * the clock lease, the JetStream consumers' pending and unacknowledged messages, and the outbox
 * backlogs, and (embedded PGlite) the database's own memory. Read from their sources at each scrape, so a figure is never older than the scrape.
 */
export function watchClusterFigures(node: {
  /** Absent in the embedded mode (no JetStream). */
  bus?: NatsBus;
  storage: { db: Queryable & Partial<Pick<Database, 'memory'>> };
  worker?: Worker;
  leader?: LeaderLease;
  session?: LockSession;
}): () => Promise<void> {
  return async () => {
    if (node.worker) partitionsOwned.set(node.worker.partitions.length);
    if (node.leader) leaseHolder.labels('clock').set(node.leader.isLeader ? 1 : 0);
    if (node.session) {
      const n = await node.session.holders(node.session.ns('workers'));
      if (n !== null) clusterWorkers.set(n);
    }
    await Promise.all([
      node.bus ? jetstream(node.bus) : null,
      outboxes(node.storage.db),
      embeddedMemory(node.storage.db),
    ]);
  };
}

async function jetstream(bus: NatsBus): Promise<void> {
  jetstreamPending.reset();
  jetstreamAckPending.reset();
  for (const stream of Object.values(bus.streamNames)) {
    for await (const c of bus.jsm.consumers.list(stream)) {
      jetstreamPending.labels(stream, c.name).set(c.num_pending);
      jetstreamAckPending.labels(stream, c.name).set(c.num_ack_pending);
    }
  }
}

async function embeddedMemory(db: Partial<Pick<Database, 'memory'>>): Promise<void> {
  if (!db.memory) return;
  const m = await db.memory();
  embeddedDbMemory.labels('wasm').set(m.wasm);
  embeddedDbMemory.labels('thread_heap').set(m.threadHeap);
}

async function outboxes(db: Queryable): Promise<void> {
  for (const o of OUTBOXES) {
    const [exists] = await db.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [o.table]);
    if (!exists?.t) continue;
    // Another outbox's columns may differ: one failing count leaves the others reported.
    const rows = await db
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM ${o.table} WHERE ${o.waiting}`)
      .catch(() => null);
    if (rows) outboxBacklog.labels(o.name).set(rows[0]?.n ?? 0);
  }
}
