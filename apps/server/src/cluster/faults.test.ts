import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../storage/storage';
import { NatsBus } from '../realtime/nats-bus';
import { nodeEnv, seedFleet, SimDevice, SimWsClient, spawnNode, type NodeProcess } from './harness';

/**
 * Fault tests of the scale-out mode, with real processes: 2 gateways, 2 workers and 2 API nodes on the
 * PostgreSQL of DATABASE_URL and the NATS of NATS_URL (own schema, own subject prefix and streams,
 * removed afterwards). Processes are killed with SIGKILL in the middle of a load of simulated Teltonika
 * devices over real TCP, and what was ACKed is COUNTED against what is stored.
 *
 * The shared NATS and PostgreSQL of the machine are not restarted: restart.test.ts kills and restarts
 * private nats-server and PostgreSQL processes of its own mid-load, and outage.test.ts cuts and
 * restores every node's connections to the shared ones through a TCP proxy.
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const enabled = Boolean(dbUrl && natsUrl);
if (!enabled) console.log('cluster faults: DATABASE_URL and NATS_URL are not both set, fault tests skipped');

const run = randomBytes(3).toString('hex');
const schema = `t_faults_${run}`;
const prefix = `f${run}`;
const DEVICES = 24;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let storage: Storage;
let fleet: Awaited<ReturnType<typeof seedFleet>>;
const nodes: Record<string, NodeProcess> = {};
let base: Record<string, string>;
let clock = Date.parse('2026-11-20T08:00:00Z');

async function start(name: string, role: 'gateway' | 'worker' | 'api'): Promise<NodeProcess> {
  const p = await spawnNode(name, nodeEnv(base, role));
  nodes[name] = p;
  return p;
}

const gatewayPorts = () =>
  [nodes.gw1?.info.teltonika, nodes.gw2?.info.teltonika].filter((p) => p !== undefined);

/** Every device reports `frames` frames of 2 records, 40 ms apart; `during` runs alongside. */
async function load(devices: SimDevice[], frames: number, during: () => Promise<void>): Promise<void> {
  await Promise.all([
    ...devices.map(async (d) => {
      for (let i = 0; i < frames; i++) {
        await d.report(2);
        await sleep(40);
      }
    }),
    during(),
  ]);
}

async function storedKeys(
  imeis: readonly string[],
): Promise<{ keys: Set<string>; rows: number; distinct: number }> {
  const rows = await storage.db.query<{ imei: string; ms: number }>(
    `SELECT d.imei, (extract(epoch FROM l.fix_time) * 1000)::float8 AS ms
     FROM locations l JOIN devices d ON d.id = l.device_id WHERE d.imei = ANY($1::text[])`,
    [imeis],
  );
  const [c] = await storage.db.query<{ n: number; d: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT (device_id, fix_time))::int AS d FROM locations`,
  );
  return { keys: new Set(rows.map((r) => `${r.imei}:${Math.round(r.ms)}`)), rows: c!.n, distinct: c!.d };
}

/** Waits until every ACKed record is stored; returns the stored key set. */
async function expectAllAckedStored(devices: SimDevice[]) {
  const acked = devices.flatMap((d) => d.acked.map((a) => `${a.imei}:${a.fixTime}`));
  const imeis = devices.map((d) => d.imei);
  const end = Date.now() + 60_000;
  let s = await storedKeys(imeis);
  while (acked.some((k) => !s.keys.has(k)) && Date.now() < end) {
    await sleep(250);
    s = await storedKeys(imeis);
  }
  const missing = acked.filter((k) => !s.keys.has(k));
  expect(missing, 'acknowledged but not stored').toEqual([]);
  // Nothing stored twice: the table holds each (device, fix time) once.
  expect(s.rows).toBe(s.distinct);
  return { acked: acked.length, stored: s.keys.size };
}

describe.skipIf(!enabled)('cluster faults (real processes, PostgreSQL, NATS JetStream)', () => {
  beforeAll(async () => {
    storage = await openStorage({ url: dbUrl, schema });
    fleet = await seedFleet(storage.db, DEVICES);
    base = {
      DATABASE_URL: dbUrl!,
      DATABASE_SCHEMA: schema,
      NATS_URL: natsUrl!,
      NATS_PREFIX: prefix,
      NATS_PARTITIONS: '8',
      NATS_ACK_WAIT_MS: '2000',
    };
    await Promise.all([
      start('gw1', 'gateway'),
      start('gw2', 'gateway'),
      start('w1', 'worker'),
      start('w2', 'worker'),
      start('api1', 'api'),
      start('api2', 'api'),
    ]);
  }, 240_000);

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

  it('kill -9 a worker mid-load and restart it: every ACKed record stored, none twice', async () => {
    const devices = fleet.devices.slice(0, 12).map((d) => new SimDevice(d.imei, gatewayPorts(), clock));
    await load(devices, 40, async () => {
      await sleep(800);
      await nodes.w1!.kill('SIGKILL');
      await sleep(800);
      await start('w1', 'worker');
    });
    devices.forEach((d) => d.close());
    const r = await expectAllAckedStored(devices);
    expect(r.acked).toBe(12 * 40 * 2);
    console.log(`faults/worker: ${r.acked} records acked, ${r.stored} stored, worker killed and restarted`);
  }, 180_000);

  it('kill -9 a gateway mid-load: its devices reconnect to the other one, nothing ACKed is lost', async () => {
    clock += 3_600_000;
    const devices = fleet.devices.slice(12).map((d) => new SimDevice(d.imei, gatewayPorts(), clock));
    let killedAt = 0;
    await load(devices, 30, async () => {
      await sleep(600);
      killedAt = Date.now();
      await nodes.gw1!.kill('SIGKILL');
    });
    devices.forEach((d) => d.close());
    expect(killedAt).toBeGreaterThan(0);
    expect(devices.reduce((n, d) => n + d.reconnects, 0)).toBeGreaterThan(0);
    const r = await expectAllAckedStored(devices);
    expect(r.acked).toBe(devices.length * 30 * 2);
    console.log(
      `faults/gateway: ${r.acked} records acked after ${devices.reduce((n, d) => n + d.reconnects, 0)} reconnects`,
    );
  }, 180_000);

  it('kill -9 an API node: the WebSocket client reconnects to the other one and catches up', async () => {
    clock += 3_600_000;
    const urls = () => [nodes.api1!.info.http!, nodes.api2!.info.http!];
    const ws = new SimWsClient(urls, fleet.company.uuid, fleet.admin.uuid, fleet.admin.token);
    await ws.start();
    const dev = fleet.devices[0]!;
    const device = new SimDevice(dev.imei, gatewayPorts(), clock);
    for (let i = 0; i < 3; i++) await device.report(1);
    await sleep(500);
    const before = ws.events.filter((e) => e.path === dev.vehicleUuid).length;
    expect(before).toBeGreaterThan(0);
    await nodes.api1!.kill('SIGKILL');
    // Records sent while the client is reconnecting may be missed live...
    for (let i = 0; i < 3; i++) await device.report(1);
    const end = Date.now() + 20_000;
    while (ws.opened < 2 && Date.now() < end) await sleep(100);
    expect(ws.reconnects).toBeGreaterThan(0);
    expect(ws.opened).toBe(2);
    const afterReconnect = ws.events.length;
    for (let i = 0; i < 3; i++) await device.report(1);
    const end2 = Date.now() + 10_000;
    while (ws.events.length < afterReconnect + 3 && Date.now() < end2) await sleep(100);
    expect(ws.events.length).toBeGreaterThanOrEqual(afterReconnect + 3);
    // ...and are caught up from the API of the surviving node.
    await expectAllAckedStored([device]);
    const res = await fetch(
      `${nodes.api2!.info.http}/v1/device-locations/vehicle/locations?vehicle_uuid=${dev.vehicleUuid}&from=${encodeURIComponent(new Date(clock).toISOString())}`,
      { headers: { authorization: `Bearer ${fleet.admin.token}`, 'x-transport-uuid': fleet.company.uuid } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number };
    expect(body.total).toBe(9);
    device.close();
    ws.close();
  }, 120_000);
});
