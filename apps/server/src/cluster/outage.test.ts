import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../storage/storage';
import { NatsBus } from '../realtime/nats-bus';
import type { Bus } from '../realtime/bus';
import { nodeEnv, seedFleet, SimDevice } from './harness';
import { startNode, type ClusterNode } from './node';
import { TcpProxy } from './tcp-proxy';

/**
 * NATS and PostgreSQL "restarts" in the middle of a load, as the cluster nodes see them: every node
 * (a gateway and two workers, in this process) reaches NATS and PostgreSQL through a TCP proxy of
 * this test (tcp-proxy.ts), which resets every connection and refuses new ones for a while, then lets
 * them through again. The shared system services themselves are not touched. Simulated Teltonika
 * devices report over real TCP throughout; what was ACKed is COUNTED against what is stored, and what
 * the workers announced to their pipeline is counted too (nothing announced twice).
 *
 * What faults.test.ts proves next to this: kill -9 of a worker, a gateway and an API node; and
 * restart.test.ts: the NATS and PostgreSQL server processes themselves killed and restarted mid-load
 * (private servers of that test, not the shared ones).
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const enabled = Boolean(dbUrl && natsUrl);
if (!enabled) console.log('cluster outages: DATABASE_URL and NATS_URL are not both set, tests skipped');

const run = randomBytes(3).toString('hex');
const schema = `t_outage_${run}`;
const prefix = `o${run}`;
const DEVICES = 16;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let storage: Storage;
let fleet: Awaited<ReturnType<typeof seedFleet>>;
let natsProxy: TcpProxy;
let pgProxy: TcpProxy;
const nodes: ClusterNode[] = [];
/** `<device uuid>:<fix ms>` -> times the workers announced the record to their pipeline. */
const announced = new Map<string, number>();
let gatewayPort = 0;
let clock = Date.parse('2026-11-20T08:00:00Z');

function through(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

async function load(devices: SimDevice[], frames: number, during: () => Promise<void>): Promise<void> {
  await Promise.all([
    ...devices.map(async (d) => {
      for (let i = 0; i < frames; i++) {
        await d.report(2, 4000);
        await sleep(40);
      }
    }),
    during(),
  ]);
}

async function expectAllAckedStored(devices: SimDevice[]): Promise<number> {
  const acked = devices.flatMap((d) => d.acked.map((a) => `${a.imei}:${a.fixTime}`));
  const imeis = devices.map((d) => d.imei);
  const stored = async () => {
    const rows = await storage.db.query<{ imei: string; ms: number }>(
      `SELECT d.imei, (extract(epoch FROM l.fix_time) * 1000)::float8 AS ms
       FROM locations l JOIN devices d ON d.id = l.device_id WHERE d.imei = ANY($1::text[])`,
      [imeis],
    );
    return new Set(rows.map((r) => `${r.imei}:${Math.round(r.ms)}`));
  };
  const end = Date.now() + 60_000;
  let keys = await stored();
  while (acked.some((k) => !keys.has(k)) && Date.now() < end) {
    await sleep(250);
    keys = await stored();
  }
  expect(
    acked.filter((k) => !keys.has(k)),
    'acknowledged but not stored',
  ).toEqual([]);
  const [c] = await storage.db.query<{ n: number; d: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT (device_id, fix_time))::int AS d FROM locations`,
  );
  expect(c!.n, 'stored twice').toBe(c!.d);
  expect(
    [...announced].filter(([, n]) => n > 1),
    'announced twice',
  ).toEqual([]);
  return acked.length;
}

describe.skipIf(!enabled)('cluster outages of NATS and PostgreSQL (TCP proxy cut and restored)', () => {
  beforeAll(async () => {
    storage = await openStorage({ url: dbUrl, schema });
    fleet = await seedFleet(storage.db, DEVICES, 356_307_060_000_000);
    natsProxy = new TcpProxy(Number(new URL(natsUrl!).port || 4222), new URL(natsUrl!).hostname);
    pgProxy = new TcpProxy(Number(new URL(dbUrl!).port || 5432), new URL(dbUrl!).hostname);
    const base = {
      DATABASE_URL: through(dbUrl!, await pgProxy.start()),
      DATABASE_SCHEMA: schema,
      NATS_URL: through(natsUrl!, await natsProxy.start()).replace(/\/$/, ''),
      NATS_PREFIX: prefix,
      NATS_PARTITIONS: '4',
      NATS_ACK_WAIT_MS: '2000',
      LEASE_CHECK_MS: '250',
      LOG_LEVEL: 'silent',
    };
    // The workers' pipeline: counts what is announced after each commit.
    const pipeline = async (bus: Bus) => {
      const off = bus.subscribe<{ deviceUuid: string; records: { fixTime: string }[] }>(
        'locations.>',
        (m) => {
          for (const r of m.records) {
            const k = `${m.deviceUuid}:${Date.parse(r.fixTime)}`;
            announced.set(k, (announced.get(k) ?? 0) + 1);
          }
        },
      );
      return async () => off();
    };
    const quiet = () => undefined;
    nodes.push(await startNode({ env: nodeEnv(base, 'gateway'), log: quiet }));
    nodes.push(await startNode({ env: nodeEnv(base, 'worker'), pipeline, log: quiet }));
    nodes.push(await startNode({ env: nodeEnv(base, 'worker'), pipeline, log: quiet }));
    gatewayPort = Number(nodes[0]!.listening.teltonika);
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    await natsProxy?.close();
    await pgProxy?.close();
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

  const devicesFrom = (from: number, to: number) =>
    fleet.devices.slice(from, to).map((d) => new SimDevice(d.imei, [gatewayPort], clock));

  it('NATS goes away for 1.5 s mid-load: every ACKed record stored once', async () => {
    const devices = devicesFrom(0, 8);
    const before = natsProxy.stats.forwarded;
    await load(devices, 30, async () => {
      await sleep(500);
      natsProxy.cut();
      await sleep(1500);
      natsProxy.restore();
    });
    devices.forEach((d) => d.close());
    const acked = await expectAllAckedStored(devices);
    expect(acked).toBe(8 * 30 * 2);
    // Every node lost NATS and came back through the proxy.
    expect(natsProxy.stats.forwarded - before).toBeGreaterThanOrEqual(nodes.length);
    console.log(
      `outage/nats: ${acked} records acked and stored, ${natsProxy.stats.refused} connects refused`,
    );
  }, 120_000);

  it('PostgreSQL goes away for 1.5 s mid-load: every ACKed record stored once', async () => {
    clock += 3_600_000;
    const devices = devicesFrom(8, 16);
    const before = pgProxy.stats.forwarded;
    await load(devices, 30, async () => {
      await sleep(500);
      pgProxy.cut();
      await sleep(1500);
      pgProxy.restore();
    });
    devices.forEach((d) => d.close());
    const acked = await expectAllAckedStored(devices);
    expect(acked).toBe(8 * 30 * 2);
    expect(pgProxy.stats.forwarded - before).toBeGreaterThan(0);
    // Both workers got their lease sessions back and own the partitions again.
    const workers = nodes.filter((n) => n.worker);
    const end = Date.now() + 20_000;
    while (workers.flatMap((w) => w.worker!.partitions).length !== 4 && Date.now() < end) await sleep(100);
    expect(workers.flatMap((w) => w.worker!.partitions).sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    console.log(
      `outage/postgres: ${acked} records acked and stored, ${pgProxy.stats.refused} connects refused`,
    );
  }, 120_000);
});
