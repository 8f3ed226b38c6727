import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus, subjects } from '../../realtime/bus';
import type { LocationInput, Storage } from '../../storage/storage';
import { openTestStorage } from '../../../test/db';
import { sortAndDedupe } from '../common/types';
import {
  computeDayRollups,
  defaultRollupOptions,
  rollupAffectedDays,
  rollupWindow,
  withCounts,
} from '../rollups/rollups';
import { loadSalik } from '../salik/load';
import type { LocationBatchMessage } from '../service/ports';
import { PipelineService } from '../service/service';
import { SqlPipelineStore } from '../service/sql-store';
import { affectedDays, dayWindow, tripsForDay } from '../trips/trips';
import { deliveries, randomStream } from './streams';

/**
 * Property, end to end on the database (PGlite or PostgreSQL, FLEET_TEST_DB): a device's random stream
 * (several days, gaps, ignition flapping, GPS jumps, fuel) delivered with duplicates and late batches
 * through the pipeline service (stored, then published, flushed now and then) leaves exactly the
 * trips, stops, idling, rollups and fuel events that the batch computation (the oracle: what every
 * flush used to recompute) stores for the same records. Variants: state saved and restored by a new
 * service half-way (failover), and a short repair horizon (late records go to the background job).
 */

const TZ = 'Asia/Dubai';
const salik = loadSalik();
let storage: Storage;
let company: { id: number; uuid: string };
let n = 0;

beforeAll(async () => {
  storage = await openTestStorage('pipeline_incremental');
  [company] = (await storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Inc') RETURNING id, uuid`,
  )) as [{ id: number; uuid: string }];
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

async function newDevice() {
  const imei = String(356307042400000 + ++n);
  const [d] = await storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id, uuid`,
    [company.id, imei],
  );
  const [v] = await storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING id, uuid`,
    [company.id, `P ${n}`, imei],
  );
  await storage.db
    .query('UPDATE devices SET vehicle_id = $1 WHERE id = $2', [v!.id, d!.id])
    .catch(() => undefined);
  return { device: d!, vehicle: v! };
}

async function snapshot(deviceId: number, vehicleId: number) {
  const trips = await storage.db.query(
    `SELECT started_at, ended_at, distance_m, data FROM device_trips WHERE device_id = $1 ORDER BY started_at`,
    [deviceId],
  );
  const rollups = await storage.db.query(
    `SELECT * FROM vehicle_rollups WHERE vehicle_id = $1 ORDER BY day, hour NULLS FIRST`,
    [vehicleId],
  );
  const fuel = await storage.db.query(
    `SELECT day, kind, litres, at, ended_at, latitude, longitude, level_before_l, level_after_l
     FROM fuel_events WHERE vehicle_id = $1 ORDER BY at, kind`,
    [vehicleId],
  );
  const stops = await storage.db.query(
    `SELECT day::text, kind, started_at, ended_at, minutes, latitude, longitude, vehicle_id
     FROM device_stops WHERE device_id = $1 ORDER BY day, kind, started_at`,
    [deviceId],
  );
  const strip = (rows: Record<string, unknown>[]) =>
    rows.map(({ id: _id, updated_at: _u, created_at: _c, ...rest }) => rest);
  return { trips: strip(trips), rollups: strip(rollups), fuel, stops };
}

/** `remember`: the store of the embedded server, which sends only the rows that changed since its last write. */
async function run(seed: number, variant: 'plain' | 'failover' | 'horizon', remember = false): Promise<void> {
  const { device, vehicle } = await newDevice();
  const start = Date.UTC(2026, 2, 9, 16, 0) + (seed % 7) * 3_600_000;
  const stream = randomStream(seed, {
    start,
    hours: 26 + (seed % 8),
    intervalS: 40,
    deviceId: device.uuid,
    vehicleId: vehicle.uuid,
  });
  const batches = deliveries(stream, seed);
  const last = stream[stream.length - 1]!.time;
  const now = { t: start };
  const store = new SqlPipelineStore(storage.db, { rememberWrites: remember });
  const bus = new InProcessBus();
  const errors: unknown[] = [];
  const make = () =>
    new PipelineService({
      store,
      bus,
      salik,
      timeZone: TZ,
      now: () => now.t,
      onError: (e) => errors.push(e),
      persistState: variant === 'failover',
      repairHorizonMs: variant === 'horizon' ? 2 * 3_600_000 : 48 * 3_600_000,
      repairIntervalMs: 0,
    });
  let service = make();
  let stop = service.start();
  for (const [k, batch] of batches.entries()) {
    now.t = Math.max(now.t, ...batch.map((r) => r.time + 5_000));
    const inputs: LocationInput[] = batch.map((r) => ({
      deviceId: device.id,
      vehicleId: vehicle.id,
      companyId: company.id,
      fixTime: new Date(r.time),
      latitude: r.lat,
      longitude: r.lon,
      speed: r.speed,
      ioElements: Object.fromEntries(
        Object.entries(r.io ?? {}).map(([id, v]) => [id, { value: v as number }]),
      ),
      valid: r.ignored !== true,
    }));
    const fresh = await storage.insertLocations(inputs);
    if (fresh.length) {
      const msg: LocationBatchMessage = {
        companyUuid: company.uuid,
        deviceUuid: device.uuid,
        vehicleUuid: vehicle.uuid,
        records: fresh.map((f) => ({ ...f, ioElements: f.ioElements ?? {} })),
      };
      await bus.publish(subjects.locations(company.uuid, device.uuid), msg);
    }
    if (variant === 'failover') await service.saveStates();
    if (k % 7 === 3) await service.flush();
    if (variant === 'failover' && k === Math.floor(batches.length / 2)) {
      // The node dies after saving (before any further flush): a new one goes on from the saved state.
      stop();
      service = make();
      stop = service.start();
    }
  }
  await service.flush();
  now.t = last + 3 * 86_400_000;
  if (variant === 'horizon') await service.runRepairs();
  await service.flush();
  stop();
  expect(errors).toEqual([]);
  const incremental = await snapshot(device.id, vehicle.id);

  // The oracle: every touched day recomputed from the stored records by the batch functions (written
  // by a store that compares with the stored rows, whatever the pipeline's store remembered).
  const oracleStore = new SqlPipelineStore(storage.db);
  const records = await store.readLocations(device.uuid, start - 2 * 86_400_000, last + 2 * 86_400_000);
  const times = sortAndDedupe(records).map((r) => r.time);
  const opts = { ...defaultRollupOptions, timeZone: TZ };
  const ref = { companyUuid: company.uuid, deviceUuid: device.uuid, vehicleUuid: vehicle.uuid };
  const tripsOf = new Map<string, { startTime: number }[]>();
  for (const day of affectedDays(times, TZ)) {
    const w = dayWindow(day, TZ);
    const det = tripsForDay(await store.readLocations(device.uuid, w.from, w.to), day, TZ);
    tripsOf.set(day, det.trips);
    await oracleStore.replaceDeviceDay(ref, day, det);
  }
  for (const day of rollupAffectedDays(times, opts)) {
    const w = rollupWindow(day, opts);
    const rs = await store.readLocations(device.uuid, w.from, w.to);
    const dayTrips = tripsOf.get(day) ?? tripsForDay(rs, day, TZ).trips;
    await oracleStore.replaceRollups(
      ref,
      withCounts(computeDayRollups(vehicle.uuid, rs, day, opts), dayTrips, [], opts),
    );
  }
  const oracle = await snapshot(device.id, vehicle.id);
  expect(incremental.trips.length).toBe(oracle.trips.length);
  expect(incremental).toEqual(oracle);
  periodsCompared += oracle.stops.length;
}
/** Stops and idling periods the runs compared (device_stops): the streams must have some. */
let periodsCompared = 0;

describe('incremental pipeline on the database equals the batch computation', () => {
  afterAll(() => {
    expect(periodsCompared).toBeGreaterThan(10);
  });

  it('random streams with duplicates and late batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), async (seed) => run(seed, 'plain')),
      { seed: 1301, numRuns: 3 },
    );
  }, 600_000);

  it('the same with the embedded store that remembers what it wrote', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), async (seed) => run(seed, 'plain', true)),
      { seed: 1302, numRuns: 2 },
    );
  }, 600_000);

  it('a new node goes on from the saved state half-way (failover)', async () => {
    await run(424242, 'failover');
  }, 600_000);

  it('late records past the repair horizon are repaired by the background job', async () => {
    await run(777, 'horizon');
    await run(778, 'horizon', true);
  }, 600_000);
});
