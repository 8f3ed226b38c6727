import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../realtime/bus';
import type { Storage } from '../../storage/storage';
import { openTestStorage } from '../../../test/db';
import { destination } from '../common/geo';
import { loadSalik } from '../salik/load';
import type { AlertRecord } from '../alerts/engine';
import type { LocationBatchMessage } from './ports';
import { PipelineService } from './service';
import { SqlPipelineStore } from './sql-store';

/**
 * Clock-work failover in the scale-out mode (issue 9), on the stored state: two pipeline nodes on
 * one database. Node A holds the clock lease (it generates the day's scheduled-trip instances and
 * runs the time-driven alerts); node B owns the school bus's partition (its positions start and
 * finish the trip). Half-way A dies and B takes the clock lease over (a new lease term).
 *
 * Before: the instances and the fired clock alerts lived in the leader's memory, so B (a) never saw
 * the trip A generated and did not start it (the trip then went delayed and missed although the bus
 * drove it), and (b) after taking over started from fresh pending instances and an empty fired set.
 * Counted here: every expected alert exactly once over both nodes and in the stored notifications,
 * none of the false ones.
 *
 * The same for the position rules when a device's partition moves to another worker (the owner
 * died or the partitions were rebalanced): the new owner starts from the state the old one saved
 * before its last ack (episode, cool-down, last ignition) and first goes through the records the old
 * one stored but never ran through its pipeline.
 */
const salik = loadSalik();
/** Local time in Dubai (UTC+4) on Monday 5 January 2026. */
const at = (hh: number, mm: number) => Date.UTC(2026, 0, 5, hh - 4, mm);
const HOME = { lat: 25.1, lon: 55.2 };
const SCHOOL = destination(HOME.lat, HOME.lon, 45, 6000);

let storage: Storage;
const ids: Record<'company' | 'bus' | 'idleBus' | 'car' | 'busDevice' | 'carDevice', number> = {
  company: 0,
  bus: 0,
  idleBus: 0,
  car: 0,
  busDevice: 0,
  carDevice: 0,
};
const uuids: Record<'company' | 'bus' | 'idleBus' | 'car' | 'busDevice', string> = {
  company: '',
  bus: '',
  idleBus: '',
  car: '',
  busDevice: '',
};

beforeAll(async () => {
  storage = await openTestStorage('pipeline_failover');
  const db = storage.db;
  const [c] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('School Co') RETURNING id, uuid`,
  );
  ids.company = c!.id;
  uuids.company = c!.uuid;
  const [u] = await db.query<{ id: number }>(
    `INSERT INTO users (email, name, locale) VALUES ('dispatch@school.test', 'Dispatch', 'en') RETURNING id`,
  );
  await db.query(`INSERT INTO memberships (user_id, company_id, user_type) VALUES ($1, $2, 'admin')`, [
    u!.id,
    c!.id,
  ]);
  const vehicle = async (plate: string, imei: string) => {
    const [d] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id, uuid`,
      [c!.id, imei],
    );
    const [v] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING id, uuid`,
      [c!.id, plate, imei],
    );
    return { device: d!, vehicle: v! };
  };
  const bus = await vehicle('BUS 1', '356307042449001');
  const idle = await vehicle('BUS 2', '356307042449002');
  const car = await vehicle('CAR 3', '356307042449003');
  Object.assign(ids, { bus: bus.vehicle.id, idleBus: idle.vehicle.id, car: car.vehicle.id });
  Object.assign(ids, { busDevice: bus.device.id, carDevice: car.device.id });
  Object.assign(uuids, {
    bus: bus.vehicle.uuid,
    idleBus: idle.vehicle.uuid,
    car: car.vehicle.uuid,
    busDevice: bus.device.uuid,
  });
  for (const [type, params] of [
    ['device_offline', { duration_minutes: 30 }],
    ['trip_delayed', {}],
    ['trip_missed', {}],
  ] as const) {
    await db.query(
      `INSERT INTO notification_rules (company_id, name, type, params) VALUES ($1, $2, $2, $3::jsonb)`,
      [c!.id, type, JSON.stringify(params)],
    );
  }
  // Two morning runs 07:00-07:20: BUS 1 drives its run, BUS 2 never leaves.
  for (const [name, vehicleId] of [
    ['Run 1', ids.bus],
    ['Run 2', ids.idleBus],
  ] as const) {
    const [t] = await db.query<{ id: number }>(
      `INSERT INTO scheduled_trips (company_id, name, type, vehicle_id, departure_time)
       VALUES ($1, $2, 'one_way', $3, '07:00') RETURNING id`,
      [c!.id, name, vehicleId],
    );
    await db.query(
      `INSERT INTO scheduled_trip_stops (scheduled_trip_id, position, name, latitude, longitude, arrival_offset_minutes)
       VALUES ($1, 0, 'Home', $2, $3, 0), ($1, 1, 'School', $4, $5, 20)`,
      [t!.id, HOME.lat, HOME.lon, SCHOOL.lat, SCHOOL.lon],
    );
  }
  // CAR 3 was last seen at 06:00: offline (30 min rule) from 06:30 on.
  await storage.insertLocations([
    {
      deviceId: car.device.id,
      vehicleId: car.vehicle.id,
      companyId: c!.id,
      fixTime: new Date(at(6, 0)),
      latitude: 25.3,
      longitude: 55.4,
      speed: 0,
      valid: true,
    },
  ]);
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

function node(now: { t: number }): PipelineService {
  return new PipelineService({
    store: new SqlPipelineStore(storage.db),
    bus: new InProcessBus(),
    salik,
    timeZone: 'Asia/Dubai',
    now: () => now.t,
  });
}

/** One stored batch of the school bus: `n` fixes a minute apart from `from`, moving `from` → `to`. */
function busBatch(
  start: number,
  n: number,
  from: { lat: number; lon: number },
  to: { lat: number; lon: number },
): LocationBatchMessage {
  return {
    companyUuid: uuids.company,
    deviceUuid: uuids.busDevice,
    vehicleUuid: uuids.bus,
    records: Array.from({ length: n }, (_, i) => {
      const f = n === 1 ? 1 : i / (n - 1);
      return {
        fixTime: new Date(start + i * 60_000).toISOString(),
        latitude: from.lat + (to.lat - from.lat) * f,
        longitude: from.lon + (to.lon - from.lon) * f,
        speed: 30,
        ignition: true,
        valid: true,
      };
    }),
  };
}

describe('pipeline clock-work failover (stored trip instances and fired alerts)', () => {
  it('the node taking the clock lease over fires no alert twice and misses none', async () => {
    const now = { t: at(6, 30) };
    const a = node(now);
    const b = node(now);
    const fired: { node: 'A' | 'B'; alert: AlertRecord }[] = [];
    const count = (n: 'A' | 'B', r: { alerts: AlertRecord[] }) =>
      fired.push(...r.alerts.map((alert) => ({ node: n, alert })));

    // 06:30 B stores a first (standing) fix of the bus: its company runtime is loaded before any
    // instance exists, as on a worker that has been running since the night.
    count('B', await b.handleBatch(busBatch(at(6, 30), 1, HOME, HOME)));
    // 06:40 A (clock lease, term 1) generates the day's instances; CAR 3 is offline.
    now.t = at(6, 40);
    count('A', await a.tick(uuids.company, 1));
    expect(a.tripInstances().map((i) => i.status)).toEqual(['pending', 'pending']);
    // Every node reloads its company caches once a minute (pipeline/plugin.ts).
    b.reloadCompany(uuids.company);
    a.reloadCompany(uuids.company);
    // 06:58-07:05 the bus leaves Home: B (its partition's owner) starts the trip.
    now.t = at(7, 5);
    count('B', await b.handleBatch(busBatch(at(6, 58), 8, HOME, SCHOOL)));
    // 07:11 A's clock: Run 2 has not started: delayed. Run 1 is started (B wrote it).
    now.t = at(7, 11);
    count('A', await a.tick(uuids.company, 1));
    // A dies. 07:12 B takes the clock lease (its term 1: its first clock work).
    now.t = at(7, 12);
    count('B', await b.tick(uuids.company, 1));
    // The bus reaches School (B, positions) and B's clock runs on past Run 2's planned end.
    now.t = at(7, 16);
    count('B', await b.handleBatch(busBatch(at(7, 6), 10, SCHOOL, SCHOOL)));
    for (const [hh, mm] of [
      [7, 15],
      [7, 25],
      [7, 40],
    ] as const) {
      now.t = at(hh, mm);
      b.reloadCompany(uuids.company);
      count('B', await b.tick(uuids.company, 1));
    }

    const key = (x: AlertRecord) => `${x.type}:${x.vehicleId ?? ''}`;
    // Exactly these alerts, each once over both nodes: offline CAR 3 (A), Run 2 delayed (A) and
    // missed (B, after the takeover). Nothing for Run 1, which the bus drove.
    expect(fired.map((f) => `${f.node} ${key(f.alert)}`).sort()).toEqual(
      [
        `A device_offline:${uuids.car}`,
        `A trip_delayed:${uuids.idleBus}`,
        `B trip_missed:${uuids.idleBus}`,
      ].sort(),
    );
    const stored = await storage.db.query<{ type: string; key: string; n: number }>(
      `SELECT type, data->>'dedupe_key' AS key, count(*)::int AS n FROM notifications
       WHERE company_id = $1 GROUP BY 1, 2 ORDER BY 1`,
      [ids.company],
    );
    expect(stored.map((r) => [r.type, r.n])).toEqual([
      ['device_offline', 1],
      ['trip_delayed', 1],
      ['trip_missed', 1],
    ]);
    const trips = await storage.db.query<{ name: string; status: string }>(
      `SELECT name, status FROM trips WHERE company_id = $1 ORDER BY name`,
      [ids.company],
    );
    expect(trips).toEqual([
      { name: 'Run 1', status: 'completed' },
      { name: 'Run 2', status: 'missed' },
    ]);
  });

  it('two nodes racing on one instance: one write wins, its alert fires once', async () => {
    const store = new SqlPipelineStore(storage.db);
    const [open] = await store.tripInstancesSince(uuids.company, at(0, 0));
    expect(open).toBeDefined();
    const next = { ...open!.instance, status: 'cancelled' as const };
    const wins = await Promise.all([
      store.updateTripInstance(next, open!.rev),
      store.updateTripInstance(next, open!.rev),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    const [after] = await store.tripInstancesSince(uuids.company, at(0, 0));
    expect(after!.rev).toBe(open!.rev + 1);
  });

  it('a worker taking a device over starts from its stored state and goes through what the dead one left', async () => {
    const db = storage.db;
    const [d] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042449004', 'teltonika') RETURNING id, uuid`,
      [ids.company],
    );
    const [v] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, 'TRUCK 4', '356307042449004')
       RETURNING id, uuid`,
      [ids.company],
    );
    for (const type of ['overspeed', 'ignition_on', 'ignition_off']) {
      await db.query(
        `INSERT INTO notification_rules (company_id, name, type, params) VALUES ($1, $2, $2, $3::jsonb)`,
        [ids.company, type, JSON.stringify({ speed_limit: 100 })],
      );
    }
    // One fix every 10 s: speeding from the 3rd, ignition off at the 8th, on again at the 9th, over
    // the limit again at the 10th (inside the overspeed cool-down: no second alert).
    const t0 = at(9, 0);
    const fixes = [60, 60, 120, 120, 120, 120, 120, 0, 0, 130].map((speed, i) => ({
      time: t0 + i * 10_000,
      speed,
      ignition: i !== 7,
    }));
    // The worker stores every fix (one insert per read batch) before the pipeline sees them.
    await storage.insertLocations(
      fixes.map((f, i) => ({
        deviceId: d!.id,
        vehicleId: v!.id,
        companyId: ids.company,
        fixTime: new Date(f.time),
        latitude: 25.2 + i * 1e-4,
        longitude: 55.3,
        speed: f.speed,
        ignition: f.ignition,
        ioElements: { 239: { value: f.ignition ? 1 : 0 } },
        valid: true,
      })),
    );
    const batch = (from: number, to: number): LocationBatchMessage => ({
      companyUuid: uuids.company,
      deviceUuid: d!.uuid,
      vehicleUuid: v!.uuid,
      records: fixes.slice(from, to).map((f) => ({
        fixTime: new Date(f.time).toISOString(),
        latitude: 25.2 + fixes.indexOf(f) * 1e-4,
        longitude: 55.3,
        speed: f.speed,
        ignition: f.ignition,
        ioElements: { 239: f.ignition ? 1 : 0 },
        valid: true,
      })),
    });
    const now = { t: t0 + 60_000 };
    const worker = () =>
      new PipelineService({
        store: new SqlPipelineStore(storage.db),
        bus: new InProcessBus(),
        salik,
        timeZone: 'Asia/Dubai',
        now: () => now.t,
        persistState: true,
      });
    const fired: string[] = [];
    const count = (n: string, r: { alerts: AlertRecord[] }) =>
      fired.push(...r.alerts.map((a) => `${n} ${a.type} ${(a.deviceCreatedAt ?? '').slice(11, 19)}`));

    // Worker A owns the partition: fixes 1-5, then (the worker's commit, before the ack) the state.
    const a = worker();
    await a.prepareDevices([d!.uuid]);
    count('A', await a.handleBatch(batch(0, 5)));
    await a.saveStates();
    // Fixes 6-8 were stored by A's next insert, then A died before its pipeline ran them.
    // Worker B takes the partition over and gets fixes 9-10.
    const b = worker();
    b.resetDeviceStates();
    await b.prepareDevices([d!.uuid]);
    count('B', await b.handleBatch(batch(8, 10)));
    await b.saveStates();

    const hms = (i: number) => new Date(fixes[i]!.time).toISOString().slice(11, 19);
    expect(fired).toEqual([`A overspeed ${hms(2)}`, `B ignition_off ${hms(7)}`, `B ignition_on ${hms(8)}`]);
    const stored = await db.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM notifications WHERE vehicle_id = $1 GROUP BY 1 ORDER BY 1`,
      [v!.id],
    );
    expect(stored).toEqual([
      { type: 'ignition_off', n: 1 },
      { type: 'ignition_on', n: 1 },
      { type: 'overspeed', n: 1 },
    ]);
    const [row] = await db.query<{ last_time: number }>(
      `SELECT last_time FROM pipeline_device_state WHERE device_uuid = $1`,
      [d!.uuid],
    );
    expect(row!.last_time).toBe(fixes[9]!.time);
  });

  it('a batch whose pipeline failed (database away) is gone through again with the next one', async () => {
    const db = storage.db;
    const [d] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042449005', 'teltonika') RETURNING id, uuid`,
      [ids.company],
    );
    const [v] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, 'TRUCK 5', '356307042449005')
       RETURNING id, uuid`,
      [ids.company],
    );
    const t0 = at(10, 0);
    // Ignition on, on, off (batch 2, whose notifications cannot be stored), on (batch 3).
    const fixes = [true, true, false, true].map((ignition, i) => ({ time: t0 + i * 10_000, ignition }));
    await storage.insertLocations(
      fixes.map((f) => ({
        deviceId: d!.id,
        vehicleId: v!.id,
        companyId: ids.company,
        fixTime: new Date(f.time),
        latitude: 25.3,
        longitude: 55.3,
        speed: 0,
        ignition: f.ignition,
        ioElements: { 239: { value: f.ignition ? 1 : 0 } },
        valid: true,
      })),
    );
    const store = new SqlPipelineStore(storage.db);
    let failNext = false;
    const flaky = Object.assign(Object.create(store) as SqlPipelineStore, {
      insertNotifications: async (rows: Parameters<SqlPipelineStore['insertNotifications']>[0]) => {
        if (failNext) {
          failNext = false;
          throw new Error('connection terminated');
        }
        return store.insertNotifications(rows);
      },
    });
    const bus = new InProcessBus();
    const errors: unknown[] = [];
    const service = new PipelineService({
      store: flaky,
      bus,
      salik,
      timeZone: 'Asia/Dubai',
      now: () => t0 + 60_000,
      persistState: true,
      onError: (err) => errors.push(err),
    });
    const stop = service.start();
    const publish = (from: number, to: number) =>
      bus.publish(`locations.${uuids.company}.${d!.uuid}`, {
        companyUuid: uuids.company,
        deviceUuid: d!.uuid,
        vehicleUuid: v!.uuid,
        records: fixes.slice(from, to).map((f) => ({
          fixTime: new Date(f.time).toISOString(),
          latitude: 25.3,
          longitude: 55.3,
          speed: 0,
          ignition: f.ignition,
          ioElements: { 239: f.ignition ? 1 : 0 },
          valid: true,
        })),
      } satisfies LocationBatchMessage);
    await publish(0, 2);
    await service.saveStates();
    failNext = true;
    await publish(2, 3);
    await service.saveStates();
    expect(errors).toHaveLength(1);
    await publish(3, 4);
    await service.saveStates();
    stop();
    const stored = await db.query<{ type: string; t: string }>(
      `SELECT type, to_char(device_created_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS t FROM notifications
       WHERE vehicle_id = $1 ORDER BY device_created_at`,
      [v!.id],
    );
    const hms = (i: number) => new Date(fixes[i]!.time).toISOString().slice(11, 19);
    expect(stored).toEqual([
      { type: 'ignition_off', t: hms(2) },
      { type: 'ignition_on', t: hms(3) },
    ]);
  });
});
