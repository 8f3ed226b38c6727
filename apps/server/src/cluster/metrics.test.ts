import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../storage/storage';
import { NatsBus } from '../realtime/nats-bus';
import { nodeEnv, seedFleet, SimDevice, SimWsClient, spawnNode, type NodeProcess } from './harness';

/**
 * What an operator watches (issue 21), on real processes: a gateway, two workers and an API node,
 * each with its health port (HEALTH_PORT=0). Under a load of simulated Teltonika devices over real
 * TCP, the figures of /metrics move on every node: records received and acknowledged and the ACK
 * latency on the gateway, records processed and the pipeline lag on the workers, WebSocket clients
 * and messages and HTTP latency per route on the API node, JetStream pending, partitions owned and
 * the clock lease on the workers. Then a worker is killed (SIGKILL): its health port stops
 * answering, the survivor's metrics show one worker left owning every partition and holding the
 * clock lease, and its /readyz stays 200.
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
// Real PostgreSQL and NATS either way: run once, in the PostgreSQL pass of `npm test` (or by hand).
const secondCopy = process.env.FLEET_TEST_DB === 'pglite';
const enabled = Boolean(dbUrl && natsUrl) && !secondCopy;
if (!enabled && !secondCopy)
  console.log('cluster metrics: DATABASE_URL and NATS_URL are not both set, skipped');

const run = randomBytes(3).toString('hex');
const schema = `t_metrics_${run}`;
const prefix = `m${run}`;
const PARTITIONS = 4;
const DEVICES = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let storage: Storage;
let fleet: Awaited<ReturnType<typeof seedFleet>>;
const nodes: Record<string, NodeProcess> = {};

/** Sum of the samples of `name` whose labels include every pair of `labels`. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  let seen = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).some(([k, v]) => got[k] !== v)) continue;
    sum += Number(m[4]);
    seen = true;
  }
  return seen ? sum : NaN;
}

const healthOf = (n: string) => String(nodes[n]!.info.health);
async function metrics(n: string): Promise<string> {
  const r = await fetch(`${healthOf(n)}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
  return r.text();
}

async function until(what: string, fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe.skipIf(!enabled)('cluster metrics and readiness', () => {
  beforeAll(async () => {
    storage = await openStorage({ url: dbUrl, schema });
    fleet = await seedFleet(storage.db, DEVICES, 356_307_050_000_000);
    const base = {
      DATABASE_URL: dbUrl!,
      DATABASE_SCHEMA: schema,
      NATS_URL: natsUrl!,
      NATS_PREFIX: prefix,
      NATS_PARTITIONS: String(PARTITIONS),
      LEASE_CHECK_MS: '300',
      HEALTH_PORT: '0',
    };
    const start = async (name: string, role: 'gateway' | 'worker' | 'api') => {
      nodes[name] = await spawnNode(name, nodeEnv(base, role));
    };
    await Promise.all([
      start('w1', 'worker'),
      start('w2', 'worker'),
      start('gw', 'gateway'),
      start('api', 'api'),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(Object.values(nodes).map((n) => n.kill('SIGKILL')));
    if (natsUrl) {
      const bus = await NatsBus.connect({ servers: natsUrl, prefix });
      for (const s of Object.values(bus.streamNames)) await bus.jsm.streams.delete(s).catch(() => undefined);
      await bus.close();
    }
    if (storage) {
      await storage.db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
      await storage.close();
    }
  }, 60_000);

  it('every node answers /healthz and /readyz with its checks', async () => {
    const expected: Record<string, string[]> = {
      w1: ['database', 'nats', 'lease_session'],
      w2: ['database', 'nats', 'lease_session'],
      gw: ['database', 'nats', 'device_listeners'],
      api: ['database', 'nats', 'http'],
    };
    for (const [n, checks] of Object.entries(expected)) {
      expect((await fetch(`${healthOf(n)}/healthz`)).status).toBe(200);
      const r = await fetch(`${healthOf(n)}/readyz`);
      const body = (await r.json()) as { ready: boolean; checks: Record<string, { ok: boolean }> };
      expect({ n, status: r.status, ready: body.ready, checks: Object.keys(body.checks).sort() }).toEqual({
        n,
        status: 200,
        ready: true,
        checks: [...checks].sort(),
      });
      expect(value(await metrics(n), 'fleet_node_info', { node: n })).toBe(1);
    }
    // The API port answers them too (load balancers probe the serving port), /metrics it does not.
    const api = String(nodes.api!.info.http);
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
    expect((await fetch(`${api}/readyz`)).status).toBe(200);
    expect((await fetch(`${api}/metrics`)).headers.get('content-type')).not.toMatch(/^text\/plain; version/);
  });

  it('the figures move under load', async () => {
    const before = {
      gw: await metrics('gw'),
      w: [await metrics('w1'), await metrics('w2')],
      api: await metrics('api'),
    };
    const api = String(nodes.api!.info.http);
    const ws = new SimWsClient(() => [api], fleet.company.uuid, fleet.admin.uuid, fleet.admin.token);
    await ws.start();
    const devices = fleet.devices.map(
      (d) => new SimDevice(d.imei, [Number(nodes.gw!.info.teltonika)], Date.now() - 60_000),
    );
    const FRAMES = 8;
    await Promise.all(
      devices.map(async (d) => {
        for (let i = 0; i < FRAMES; i++) await d.report(2);
      }),
    );
    devices.forEach((d) => d.close());
    const acked = devices.reduce((n, d) => n + d.acked.length, 0);
    expect(acked).toBe(DEVICES * FRAMES * 2);
    await fetch(`${api}/v1/vehicles`, { headers: { authorization: `Bearer ${fleet.admin.token}` } });

    const gw = await metrics('gw');
    const delta = (a: string, b: string, name: string, l: Record<string, string> = {}) =>
      (value(b, name, l) || 0) - (value(a, name, l) || 0);
    const tel = { protocol: 'teltonika' };
    expect(delta(before.gw, gw, 'fleet_gateway_records_received_total', tel)).toBe(acked);
    expect(delta(before.gw, gw, 'fleet_gateway_records_acknowledged_total', tel)).toBe(acked);
    expect(delta(before.gw, gw, 'fleet_gateway_ack_latency_seconds_count', tel)).toBeGreaterThan(0);

    // The workers processed every record between them (the pipeline announces what they stored).
    await until('the pipeline to process every record', async () => {
      const now = [await metrics('w1'), await metrics('w2')];
      const processed = now.reduce(
        (n, t, i) => n + delta(before.w[i]!, t, 'fleet_pipeline_records_total'),
        0,
      );
      return processed >= acked;
    });
    const w = [await metrics('w1'), await metrics('w2')];
    expect(w.reduce((n, t, i) => n + delta(before.w[i]!, t, 'fleet_pipeline_lag_seconds_count'), 0)).toBe(
      w.reduce((n, t, i) => n + delta(before.w[i]!, t, 'fleet_pipeline_records_total'), 0),
    );
    // Partitions split between the two workers, one of them holds the clock lease. The two nodes are
    // scraped one after the other, so a rebalance step can fall between them: wait until a pair of
    // scrapes agrees (the split must come out complete: every partition owned once).
    await until('every partition owned once and one clock lease holder', async () => {
      const pair = [await metrics('w1'), await metrics('w2')];
      const owned = pair.map((t) => value(t, 'fleet_partitions_owned')).reduce((a, b) => a + b);
      const holders = pair
        .map((t) => value(t, 'fleet_lease_holder', { lease: 'clock' }))
        .reduce((a, b) => a + b);
      return owned === PARTITIONS && holders === 1;
    });
    expect(w.map((t) => value(t, 'fleet_cluster_workers'))).toEqual([2, 2]);
    // Every consumer of the locations stream is reported; nothing is left pending once processed.
    expect(value(w[0]!, 'fleet_jetstream_consumer_pending')).toBe(0);
    expect(w[0]).toMatch(
      /fleet_jetstream_consumer_pending\{stream="[A-Z0-9_]+LOCATIONS",consumer="[^"]+"\} 0/,
    );
    expect(value(w[0]!, 'fleet_outbox_backlog', { outbox: 'push' })).toBe(0);

    // The API node: one WebSocket client that received the live positions, HTTP latency per route.
    await until('live events on the WebSocket', async () => ws.events.length > 0);
    const apiText = await metrics('api');
    expect(value(apiText, 'fleet_websocket_clients')).toBe(1);
    expect(delta(before.api, apiText, 'fleet_websocket_messages_total')).toBeGreaterThanOrEqual(
      ws.events.length,
    );
    expect(
      value(apiText, 'fleet_http_request_duration_seconds_count', { route: '/v1/vehicles', method: 'GET' }),
    ).toBeGreaterThan(0);
    // Route templates, never raw URLs.
    expect(apiText).not.toMatch(/route="\/v1\/vehicles\/[0-9a-f-]{36}"/);
    ws.close();
    await until(
      'the WebSocket client to leave',
      async () => value(await metrics('api'), 'fleet_websocket_clients') === 0,
    );
  }, 120_000);

  it('a killed worker shows: its health port is gone, the survivor owns every partition and the clock', async () => {
    const dead = healthOf('w1');
    await nodes.w1!.kill('SIGKILL');
    await expect(fetch(`${dead}/readyz`)).rejects.toThrow();
    await until('the survivor to take every partition and the clock lease', async () => {
      const t = await metrics('w2');
      return (
        value(t, 'fleet_cluster_workers') === 1 &&
        value(t, 'fleet_partitions_owned') === PARTITIONS &&
        value(t, 'fleet_lease_holder', { lease: 'clock' }) === 1
      );
    });
    const r = await fetch(`${healthOf('w2')}/readyz`);
    expect(r.status).toBe(200);
    const t = await metrics('w2');
    expect(value(t, 'fleet_ready', { check: 'lease_session' })).toBe(1);
  }, 60_000);
});
