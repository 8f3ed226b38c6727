// A back-dated sensor setting repairs the stored window (issues 19 + 13): a Ruptela with ignition wired
// to DIN3 (the default reads DIN4) reports a drive through the real gateway; no trips. A setting that
// makes DIN3 the ignition from before the drive queues a durable request; the pipeline's repair job
// re-applies the sensors to the stored rows and recomputes the window: the trip and the engine hours
// appear through the API. A back-dated fuel calibration turns the stored analog input into litres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { registerReportRoutes } from '../reports/routes';
import { PipelineService } from '../pipeline/service/service';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import { loadSalik } from '../pipeline/salik/load';
import { startGateway, type Gateway } from './gateway';
import { addDevices, RawClient, waitFor, GATEWAY_SERVER_TEST_ENV } from './test-helpers';
import { BATCH, SensorRepairJob, reapplySensors, runSensorRepairs } from './sensor-repair';
import { encodeTeltonikaAvl, encodeTeltonikaImei, IO, type DecodedRecord } from '@fleet/device-protocols';

const GATEWAY_ENV = GATEWAY_SERVER_TEST_ENV;

function kermit(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc & 0xffff;
}
const be = (n: number, size: number) =>
  Array.from({ length: size }, (_, i) => (n >>> ((size - 1 - i) * 8)) & 0xff);
/** A Ruptela command-1 frame (public layout, written by hand). */
function ruptela(imei: string, records: number[][]): Buffer {
  const id = BigInt(imei);
  const inner = [
    ...Array.from({ length: 8 }, (_, i) => Number((id >> BigInt((7 - i) * 8)) & 0xffn)),
    1,
    0,
    records.length,
    ...records.flat(),
  ];
  return Buffer.from([...be(inner.length, 2), ...inner, ...be(kermit(inner), 2)]);
}
/** Command-1 record: position, speed, DIN1..DIN4 (params 2-5) and AIN2 (param 23, mV). */
function record(t: number, lon: number, speed: number, din3: number, ain2: number): number[] {
  return [
    ...be(t, 4),
    0,
    0,
    ...be(Math.round(lon * 1e7), 4),
    ...be(Math.round(25.07836 * 1e7), 4),
    ...be(125, 2),
    ...be(27500, 2),
    11,
    ...be(speed, 2),
    9,
    0,
    4,
    ...[2, 0],
    ...[3, 0],
    ...[4, din3],
    ...[5, 0],
    1,
    ...[23, ...be(ain2, 2)],
    0,
    0,
  ];
}
const RUPTELA_ACK = '0002640113bc';

let storage: Storage;
let app: FastifyInstance;
let w: World;
let gw: Gateway;
let pipeline: PipelineService;
let stopPipeline: () => void;
const bus = new InProcessBus();
// A drive 3 hours ago (real clock: the pipeline's repair horizon compares device time with it).
const T0 = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) * 60_000;

beforeAll(async () => {
  storage = await openTestStorage('sensor_repair');
  const config = loadConfig(GATEWAY_ENV);
  app = await createServer({ config, storage, bus, messenger: new MemoryMessenger(), logger: false });
  registerReportRoutes(app, { rollupTimeZone: 'Asia/Dubai' });
  await app.ready();
  w = await buildWorld(storage.db);
  gw = await startGateway({ config, storage, bus, counterFlushMs: 0 });
  pipeline = new PipelineService({
    store: new SqlPipelineStore(storage.db),
    bus,
    salik: loadSalik(),
    timeZone: 'Asia/Dubai',
    flushDelayMs: 5,
    repairIntervalMs: 0,
  });
  stopPipeline = pipeline.start();
}, 60_000);

afterAll(async () => {
  stopPipeline?.();
  await pipeline?.flush();
  await gw?.close();
  await app?.close();
  await storage?.close();
});

const range = () =>
  `from=${encodeURIComponent(new Date(T0 - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;

async function get(url: string) {
  const r = await call(app, { method: 'GET', url, token: w.users.adminA.token, company: w.a.uuid });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { total: number; data: Record<string, unknown>[] };
}

describe('back-dated sensor settings repair the stored window', () => {
  it('ignition moved to DIN3 from before the drive: trips and engine hours appear; a fuel calibration gives litres', async () => {
    const imei = '868204005549901';
    const [dev] = (await addDevices(storage.db, w.a.id, [{ imei, type: 'ruptela' }])).devices;
    const rowOf = (r: { data: Record<string, unknown>[] }) =>
      r.data.find((x) => (x.vehicle as { uuid: string }).uuid === dev!.vehicleUuid);
    const c = new RawClient(gw.ports.ruptela!);
    // 30 min driving east at 42 km/h with DIN3 on, then 10 min parked with DIN3 off. AIN2 3300 mV.
    const recs: number[][] = [];
    for (let i = 0; i <= 40; i++) {
      const driving = i < 30;
      recs.push(
        record(T0 / 1000 + i * 60, 55.15 + Math.min(i, 30) * 0.0072, driving ? 42 : 0, driving ? 1 : 0, 3300),
      );
    }
    for (let i = 0; i < recs.length; i += 10) {
      await c.send(ruptela(imei, recs.slice(i, i + 10)));
      expect((await c.take(6)).toString('hex')).toBe(RUPTELA_ACK);
    }
    c.close();
    const stored = await waitFor(async () => {
      await pipeline.flush();
      const rows = await storage.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM locations WHERE device_id = $1',
        [dev!.id],
      );
      return rows[0]!.n === 41 ? true : null;
    });
    expect(stored).toBe(true);
    await pipeline.flush();
    const tripsBefore = await get(`/v1/reports/trips?${range()}`);
    expect(rowOf(tripsBefore)?.trips ?? 0).toBe(0);
    const engineBefore = await get(`/v1/reports/engine?${range()}`);
    expect(Number(rowOf(engineBefore)?.engine_hours ?? 0)).toBe(0);

    // The installer wired ignition to DIN3 (io 3): back-dated to before the drive.
    const put = await call(app, {
      method: 'PUT',
      url: `/v1/devices/${dev!.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { ignition_io: 3, effective_from: new Date(T0 - 3_600_000).toISOString() },
    });
    expect(put.statusCode, put.body).toBe(200);
    // The API only queued it; nothing changed yet.
    const queued = await storage.db.query<{ status: string }>('SELECT status FROM sensor_repair_requests');
    expect(queued.map((r) => r.status)).toEqual(['queued']);

    // Taken only once the gateway nodes' settings caches have expired.
    const waiting = new SensorRepairJob(storage.db, (uuid, from, to) => pipeline.repair(uuid, from, to));
    expect(await waiting.runOnce()).toBeUndefined();
    const job = new SensorRepairJob(storage.db, (uuid, from, to) => pipeline.repair(uuid, from, to), {
      settleMs: 0,
    });
    const outcomes = await job.runAll();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.error).toBeUndefined();
    expect(outcomes[0]!.rowsUpdated).toBe(30);
    const [req] = await storage.db.query<{ status: string; rows_updated: number; attempts: number }>(
      'SELECT status, rows_updated, attempts FROM sensor_repair_requests',
    );
    expect(req).toMatchObject({ status: 'done', rows_updated: 30, attempts: 1 });
    // Nothing left to take (one node per request).
    expect(await job.runOnce()).toBeUndefined();

    const trips = await get(`/v1/reports/trips?${range()}`);
    expect(rowOf(trips)?.trips).toBe(1);
    expect(Number(rowOf(trips)?.distance_km)).toBeGreaterThan(20);
    const engine = await get(`/v1/reports/engine?${range()}`);
    expect(Number(rowOf(engine)?.engine_hours)).toBeGreaterThan(0.4);

    // Fuel: AIN2 (io 10) through a calibration 0..5000 mV -> 0..100 L, back-dated: 3300 mV = 66 L.
    const fuelPut = await call(app, {
      method: 'PUT',
      url: `/v1/devices/${dev!.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: {
        ignition_io: 3,
        fuel_io: 10,
        fuel_calibration: [
          [0, 0],
          [5000, 100],
        ],
        effective_from: new Date(T0 - 3_600_000).toISOString(),
      },
    });
    expect(fuelPut.statusCode, fuelPut.body).toBe(200);
    const fuelOutcomes = await job.runAll();
    expect(fuelOutcomes.map((o) => [o.error, o.rowsUpdated])).toEqual([[undefined, 41]]);
    const locs = await call(app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${dev!.vehicleUuid}&${range()}&limit=500`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    const data = (
      locs.json() as { data: { ignition: number; io_elements: Record<string, { value: number }> }[] }
    ).data;
    expect(data).toHaveLength(41);
    expect(data.every((l) => l.io_elements['84']?.value === 660)).toBe(true);
    expect(data.filter((l) => l.ignition === 1)).toHaveLength(30);
    // The trip stays one trip after the second repair.
    const again = await get(`/v1/reports/trips?${range()}`);
    expect(rowOf(again)?.trips).toBe(1);
    expect(BATCH).toBeGreaterThan(0);
  }, 60_000);

  it('in batches across many rows, and two nodes polling at once: each request is run by exactly one', async () => {
    const imei = '352093081429901';
    const [dev] = (await addDevices(storage.db, w.a.id, [{ imei, type: 'teltonika' }])).devices;
    const n = BATCH * 2 + 37;
    const base = T0 - 86_400_000;
    // Stored rows as the gateway wrote them with the default mapping: DIN1 (io 1) on, no io 239.
    await storage.db.query(
      `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, ignition,
         is_idle, io_elements, valid, source)
       SELECT $1, NULL, $2, to_timestamp(($3::float8 + g * 10000) / 1000.0), 25.2, 55.3, 0, false, false,
              '{"1":{"value":1},"66":{"value":12400}}'::json, true, 'teltonika'
       FROM generate_series(0, $4::int - 1) g`,
      [dev!.id, w.a.id, base, n],
    );
    const put = await call(app, {
      method: 'PUT',
      url: `/v1/devices/${dev!.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { ignition_io: 1, effective_from: new Date(base).toISOString() },
    });
    expect(put.statusCode, put.body).toBe(200);
    const repaired: string[] = [];
    const node = () =>
      new SensorRepairJob(
        storage.db,
        async (uuid) => {
          repaired.push(uuid);
        },
        { settleMs: 0 },
      );
    const [a, b] = await Promise.all([node().runAll(), node().runAll()]);
    expect([...a, ...b].map((o) => [o.deviceId, o.rowsUpdated, o.error])).toEqual([[dev!.id, n, undefined]]);
    expect(repaired).toEqual([dev!.uuid]);
    const rows = await storage.db.query<{
      ignition: boolean;
      is_idle: boolean;
      io_elements: Record<string, { value: number }>;
    }>('SELECT ignition, is_idle, io_elements FROM locations WHERE device_id = $1', [dev!.id]);
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.ignition && r.is_idle && r.io_elements['239']?.value === 1)).toBe(true);
    expect(rows.every((r) => r.io_elements['1']?.value === 1 && r.io_elements['66']?.value === 12400)).toBe(
      true,
    );
    // Running again changes nothing (idempotent); a process without a job runs nothing.
    expect(
      await reapplySensors(storage.db, { id: dev!.id, type: 'teltonika' }, new Date(base), new Date()),
    ).toBe(0);
    expect(await runSensorRepairs()).toEqual([]);
  }, 60_000);

  it("scale-out: a repair run by a node that does not own the device reaches the owner's live folds", async () => {
    // `pipeline` owns the device (it reads its records from the bus and holds its live folds); `other`
    // is another pipeline node of the cluster that only claims the repair request (it reads no records).
    const other = new PipelineService({
      store: new SqlPipelineStore(storage.db),
      bus,
      salik: loadSalik(),
      timeZone: 'Asia/Dubai',
      flushDelayMs: 5,
      repairIntervalMs: 0,
    });
    const owner = new SensorRepairJob(storage.db, (u, f, t) => pipeline.repair(u, f, t), {
      settleMs: 0,
      cluster: { bus, holds: (u) => pipeline.holdsDevice(u) },
    });
    const elsewhere = new SensorRepairJob(storage.db, (u, f, t) => other.repair(u, f, t), {
      settleMs: 0,
      cluster: { bus, holds: (u) => other.holdsDevice(u) },
    });
    try {
      const imei = '352093081429902';
      const [dev] = (await addDevices(storage.db, w.a.id, [{ imei, type: 'teltonika' }])).devices;
      // Ignition wired to DIN1 (io 1); the tracker's own io 239 reads 0. Driving from 40 minutes ago.
      let start = Math.floor((Date.now() - 40 * 60_000) / 60_000) * 60_000;
      // One Dubai day (the pipeline's zone here): a drive across midnight would be two days' trips.
      const midnight = Math.floor((Date.now() + 4 * 3_600_000) / 86_400_000) * 86_400_000 - 4 * 3_600_000;
      if (start < midnight && midnight <= start + 40 * 60_000) start = midnight - 45 * 60_000;
      const rec = (i: number, din1: 0 | 1, speed: number, own: 0 | 1 = 0): DecodedRecord => ({
        imei,
        protocol: 'teltonika',
        fixTime: start + i * 60_000,
        valid: true,
        latitude: 25.2,
        longitude: 55.15 + i * 0.0067,
        altitude: 10,
        speed,
        course: 90,
        satellites: 9,
        eventId: 0,
        io: { [IO.ignition]: own, [IO.digitalInput1]: din1 },
      });
      const c = new RawClient(gw.ports.teltonika!);
      await c.send(encodeTeltonikaImei(imei));
      expect([...(await c.take(1))]).toEqual([1]);
      const send = async (recs: DecodedRecord[]) => {
        await c.send(encodeTeltonikaAvl(recs));
        expect((await c.take(4)).readUInt32BE(0)).toBe(recs.length);
      };
      await send(Array.from({ length: 20 }, (_, i) => rec(i, 1, 40)));
      const trips = () =>
        storage.db.query<{ started: number }>(
          `SELECT (extract(epoch FROM started_at) * 1000)::float8 AS started FROM device_trips
           WHERE device_id = $1 ORDER BY started_at`,
          [dev!.id],
        );
      await waitFor(async () => {
        await pipeline.flush();
        return pipeline.holdsDevice(dev!.uuid);
      });
      expect(other.holdsDevice(dev!.uuid)).toBe(false);
      expect(await trips()).toEqual([]);

      const put = await call(app, {
        method: 'PUT',
        url: `/v1/devices/${dev!.uuid}/sensors`,
        token: w.users.adminA.token,
        company: w.a.uuid,
        body: { ignition_io: 1, effective_from: new Date(start - 3_600_000).toISOString() },
      });
      expect(put.statusCode, put.body).toBe(200);
      // The node that does not own the device takes the request.
      const done = await elsewhere.runAll();
      expect(done.map((o) => [o.deviceId, o.rowsUpdated, o.error])).toEqual([[dev!.id, 20, undefined]]);
      await pipeline.flush();

      // The drive goes on and ends parked. The gateway node may still apply the old mapping for up to
      // its cache lifetime (SETTLE_MS covers that in production), so these records carry the ignition in
      // io 239 as well: under either mapping they read the same.
      await send([
        ...Array.from({ length: 10 }, (_, i) => rec(20 + i, 1, 40, 1)),
        ...Array.from({ length: 8 }, (_, i) => rec(30 + i, 0, 0, 0)),
      ]);
      await waitFor(async () => {
        await pipeline.flush();
        const [n] = await storage.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM locations WHERE device_id = $1',
          [dev!.id],
        );
        return n!.n === 38;
      });
      c.close();
      await pipeline.flush();
      // The owner's folds were rebuilt from the repaired rows: 30 minutes of engine time, one trip from
      // the start of the drive. With stale folds (ignition off for the first 20 minutes) the owner would
      // write its own view of the day back over the repair: 10 minutes of engine time.
      const engine = await get(`/v1/reports/engine?${range()}`);
      const row = engine.data.find((x) => (x.vehicle as { uuid: string }).uuid === dev!.vehicleUuid);
      expect(Number(row?.engine_hours)).toBeCloseTo(0.5, 1);
      expect((await trips()).map((t) => Math.round(t.started))).toEqual([start]);
    } finally {
      owner.close();
      elsewhere.close();
      await other.flush();
    }
  }, 60_000);
});
