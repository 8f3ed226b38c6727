import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The one place of the server's Prometheus metrics: the registry, every metric definition, and the
 * tiny named functions the gateway, the pipeline, the real-time hub and the HTTP server call at
 * their call sites (one line each). Figures that are a state rather than an event (JetStream pending,
 * partitions owned, lease holder, outbox backlog) are read when scraped through {@link onScrape}.
 *
 * Names follow Prometheus conventions: `fleet_` prefix, `_total` counters, `_seconds` durations.
 * Served at `/metrics` of the health port (metrics/health.ts); see docs/grafana-dashboard.json.
 *
 * One registry per process: a process is one node (one role, or `all` when embedded). Tests that
 * run several nodes in one process read shared counters, which is why the cluster tests read
 * metrics from spawned processes.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'fleet_' });

/** Role of this process, set once at start (`all`, `gateway`, `worker`, `api`). */
const nodeInfo = new Gauge({
  name: 'fleet_node_info',
  help: 'Always 1; labels name this node and its role.',
  labelNames: ['node', 'role'] as const,
  registers: [registry],
});
export function setNode(node: string, role: string): void {
  nodeInfo.reset();
  nodeInfo.labels(node, role).set(1);
}

// --- Gateway ------------------------------------------------------------------------------------

const received = new Counter({
  name: 'fleet_gateway_records_received_total',
  help: 'Location records decoded from known devices, per protocol.',
  labelNames: ['protocol'] as const,
  registers: [registry],
});
const acknowledged = new Counter({
  name: 'fleet_gateway_records_acknowledged_total',
  help: 'Location records durably stored (or queued on JetStream) so the device gets its ACK, per protocol.',
  labelNames: ['protocol'] as const,
  registers: [registry],
});
const refused = new Counter({
  name: 'fleet_gateway_refused_total',
  help:
    'Frames or connections refused, per protocol and reason: unknown_device (IMEI not registered), ' +
    'bad_frame (undecodable or oversized, connection closed), storage_failure (not acknowledged).',
  labelNames: ['protocol', 'reason'] as const,
  registers: [registry],
});
const ackLatency = new Histogram({
  name: 'fleet_gateway_ack_latency_seconds',
  help: 'From decoded frame to records stored and ACK due (the time a device waits for its ACK), per protocol.',
  labelNames: ['protocol'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/**
 * A decoded frame of `records` records arrives for storage. Counts them as received and starts the
 * ACK clock; call `acked()` once stored (the ACK follows) or `refused()` when storage failed.
 */
export function gatewayFrame(
  protocol: string,
  records: number,
): { acked(): void; refused(reason?: string): void } {
  received.labels(protocol).inc(records);
  const t0 = process.hrtime.bigint();
  return {
    acked() {
      acknowledged.labels(protocol).inc(records);
      ackLatency.labels(protocol).observe(Number(process.hrtime.bigint() - t0) / 1e9);
    },
    refused(reason = 'storage_failure') {
      refused.labels(protocol, reason).inc();
    },
  };
}

/** A device or frame refused before storage (`unknown_device`, `bad_frame`). */
export function gatewayRefused(protocol: string, reason: string): void {
  refused.labels(protocol, reason).inc();
}

// --- Pipeline -----------------------------------------------------------------------------------

const pipelineLag = new Histogram({
  name: 'fleet_pipeline_lag_seconds',
  help: "From a record's fix time to the pipeline having processed it (trips, alerts, geofences).",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600],
  registers: [registry],
});
const pipelineRecords = new Counter({
  name: 'fleet_pipeline_records_total',
  help: 'Location records processed by the pipeline.',
  registers: [registry],
});

/** The pipeline finished a batch of stored records (each with its fix time). */
export function pipelineProcessed(records: readonly { fixTime: string | number | Date }[]): void {
  const now = Date.now();
  pipelineRecords.inc(records.length);
  for (const r of records) {
    const t = r.fixTime instanceof Date ? r.fixTime.getTime() : new Date(r.fixTime).getTime();
    // Records from far in the past (a device replaying a week of buffer) are real lag: kept.
    if (Number.isFinite(t)) pipelineLag.observe(Math.max(0, now - t) / 1000);
  }
}

// --- Real time ----------------------------------------------------------------------------------

const wsClients = new Gauge({
  name: 'fleet_websocket_clients',
  help: 'WebSocket clients connected to this node.',
  registers: [registry],
});
const wsMessages = new Counter({
  name: 'fleet_websocket_messages_total',
  help: 'Real-time messages sent to WebSocket clients by this node.',
  registers: [registry],
});

/** A WebSocket client joined; returns the function to call when it leaves. */
export function websocketJoined(): () => void {
  wsClients.inc();
  let left = false;
  return () => {
    if (left) return;
    left = true;
    wsClients.dec();
  };
}

export function websocketSent(n: number): void {
  if (n > 0) wsMessages.inc(n);
}

// --- HTTP ---------------------------------------------------------------------------------------

const httpDuration = new Histogram({
  name: 'fleet_http_request_duration_seconds',
  help: 'HTTP request latency per route template (never the raw URL: ids would explode the series).',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export function httpRequest(method: string, route: string, status: number, seconds: number): void {
  httpDuration.labels(method, route, String(status)).observe(seconds);
}

// --- State read when scraped --------------------------------------------------------------------

export const jetstreamPending = new Gauge({
  name: 'fleet_jetstream_consumer_pending',
  help: 'Messages of a JetStream consumer not yet delivered (num_pending), per stream and consumer.',
  labelNames: ['stream', 'consumer'] as const,
  registers: [registry],
});
export const jetstreamAckPending = new Gauge({
  name: 'fleet_jetstream_consumer_ack_pending',
  help: 'Messages delivered to a JetStream consumer and not yet acknowledged, per stream and consumer.',
  labelNames: ['stream', 'consumer'] as const,
  registers: [registry],
});
export const partitionsOwned = new Gauge({
  name: 'fleet_partitions_owned',
  help: 'Locations partitions this worker owns and reads.',
  registers: [registry],
});
export const clusterWorkers = new Gauge({
  name: 'fleet_cluster_workers',
  help: 'Worker nodes alive in the cluster (holding their PostgreSQL membership lock), as this worker sees them.',
  registers: [registry],
});
export const leaseHolder = new Gauge({
  name: 'fleet_lease_holder',
  help: '1 when this node holds the named lease (clock = scheduled pipeline work), else 0.',
  labelNames: ['lease'] as const,
  registers: [registry],
});
export const outboxBacklog = new Gauge({
  name: 'fleet_outbox_backlog',
  help: 'Outbox rows waiting to be sent (pending or failed and due for a retry), per outbox.',
  labelNames: ['outbox'] as const,
  registers: [registry],
});
export const embeddedDbMemory = new Gauge({
  name: 'fleet_embedded_db_memory_bytes',
  help:
    'Memory of the embedded PGlite database, per part: wasm (its WebAssembly memory as grown so far; ' +
    'untouched pages are not resident) and thread_heap (V8 heap of its thread, committed). Absent on PostgreSQL.',
  labelNames: ['part'] as const,
  registers: [registry],
});
export const readiness = new Gauge({
  name: 'fleet_ready',
  help: '1 when the named readiness check of this node passes, else 0 (see /readyz).',
  labelNames: ['check'] as const,
  registers: [registry],
});

/** Longest wait for one scrape-time collector. */
export const COLLECT_TIMEOUT_MS = 2000;

type Collector = () => Promise<void> | void;
const collectors = new Set<Collector>();

/** Run `fn` before each scrape (it sets gauges); returns the function removing it. */
export function onScrape(fn: Collector): () => void {
  collectors.add(fn);
  return () => collectors.delete(fn);
}

/** The exposition text, after every scrape collector ran (a failing one leaves its gauges as they were). */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  // A collector that cannot read its source (database or NATS down) keeps its last figures; one that
  // hangs is not waited for longer than COLLECT_TIMEOUT_MS, so the scrape itself always answers.
  await Promise.all(
    [...collectors].map(async (c) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(c),
          new Promise((resolve) => (timer = setTimeout(resolve, COLLECT_TIMEOUT_MS))),
        ]);
      } catch {
        /* keeps the last figures */
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { contentType: registry.contentType, body: await registry.metrics() };
}
