import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../realtime/bus';
import type { RealtimeEnvelope } from '../../realtime/hub';
import { migrate } from '../../storage/migrate';
import type { Storage } from '../../storage/storage';
import { openTestStorage } from '../../../test/db';
import type { AlertRecord } from '../alerts/engine';
import { destination } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { TrackBuilder } from '../common/track-builder';
import { loadSalik } from '../salik/load';
import type { LocationBatchMessage } from './ports';
import { PipelineService } from './service';
import { SqlPipelineStore } from './sql-store';
import { storedLocation } from './test-messages';

/**
 * Records run through the engines twice must not store their events twice (scale-out, issue 9).
 *
 * A worker stores a batch's geofence and Salik events and its notifications, then dies before its
 * per-device state is saved (the commit before the ack). The next owner of the partition starts from
 * the older stored state and goes through the same stored records again: the geofence tracker and
 * the Salik detector fire the very same events. Likewise a batch whose pipeline failed half-way (the
 * database went away after the events were stored) is gone through again with the device's next one.
 * Counted here: one geofence event, one Salik event, one notification per alert, one push per
 * notification and no second realtime publish, on whichever driver the suite runs.
 */
const salik = loadSalik();
const gate = salik.gates.find((g) => g.code === 'barsha')!;
/** 1.5 km before the Al Barsha gate, on its road; the depot geofence (300 m) is around it. */
const start = destination(gate.lat, gate.lon, gate.roadBearingDeg + 180, 1500);
const T0 = Date.UTC(2026, 0, 5, 4, 0); // Monday 08:00 Dubai
const MIGRATION = '0014_event_dedupe.sql';

let storage: Storage;
const ids = { company: 0, companyUuid: '', geofence: 0, geofenceUuid: '' };

beforeAll(async () => {
  storage = await openTestStorage('pipeline_replay');
  const db = storage.db;
  const [c] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Replay Co') RETURNING id, uuid`,
  );
  const [u] = await db.query<{ id: number }>(
    `INSERT INTO users (email, name, locale) VALUES ('ops@replay.test', 'Ops', 'en') RETURNING id`,
  );
  await db.query(`INSERT INTO memberships (user_id, company_id, user_type) VALUES ($1, $2, 'admin')`, [
    u!.id,
    c!.id,
  ]);
  // Every stored notification queues one push for this token (trigger of migration 0004).
  await db.query(
    `INSERT INTO fcm_tokens (user_id, company_id, token, platform) VALUES ($1, $2, 'tok-1', 'android')`,
    [u!.id, c!.id],
  );
  const geometry = { shape: 'circle', center: { latitude: start.lat, longitude: start.lon }, radius: 300 };
  const [g] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng, data)
     VALUES ($1, 'Depot', 'circle', $2::jsonb, 0, 0, 0, 0, '{"tracking_rules": ["entry", "exit"]}') RETURNING id, uuid`,
    [c!.id, JSON.stringify(geometry)],
  );
  for (const type of ['geofence_entry', 'geofence_exit', 'salik_crossing']) {
    await db.query(
      `INSERT INTO notification_rules (company_id, name, type, params) VALUES ($1, $2, $2, '{}'::jsonb)`,
      [c!.id, type],
    );
  }
  Object.assign(ids, { company: c!.id, companyUuid: c!.uuid, geofence: g!.id, geofenceUuid: g!.uuid });
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

/** A vehicle with its device. */
async function vehicle(plate: string, imei: string) {
  const db = storage.db;
  const [d] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id, uuid`,
    [ids.company, imei],
  );
  const [v] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING id, uuid`,
    [ids.company, plate, imei],
  );
  return { device: d!, vehicle: v! };
}

/**
 * Parked in the depot for 2 minutes, out of it and through the gate (3 minutes at 60 km/h: one
 * geofence exit and one Salik crossing), parked again. All records are stored first (the worker's
 * insert precedes its pipeline), then handed over in three batches: parked, drive, parked.
 */
async function drive(v: Awaited<ReturnType<typeof vehicle>>, t0: number) {
  const records = new TrackBuilder(t0, start.lat, start.lon, { deviceId: v.device.uuid })
    .park(120)
    .drive(180, 60, gate.roadBearingDeg)
    .park(120)
    .records();
  await storage.insertLocations(
    records.map((r) => ({
      deviceId: v.device.id,
      vehicleId: v.vehicle.id,
      companyId: ids.company,
      fixTime: new Date(r.time),
      latitude: r.lat,
      longitude: r.lon,
      speed: r.speed,
      ignition: r.io?.[239] === 1,
      ioElements: Object.fromEntries(Object.entries(r.io ?? {}).map(([k, x]) => [k, { value: x as number }])),
      valid: true,
    })),
  );
  const batch = (part: readonly PositionRecord[]): LocationBatchMessage => ({
    companyUuid: ids.companyUuid,
    deviceUuid: v.device.uuid,
    vehicleUuid: v.vehicle.uuid,
    records: part.map(storedLocation),
  });
  return [batch(records.slice(0, 12)), batch(records.slice(12, 30)), batch(records.slice(30))] as const;
}

/** What one vehicle has stored: events, notifications by type, queued pushes. */
async function stored(vehicleId: number) {
  const db = storage.db;
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [vehicleId]))[0]!.n;
  return {
    geofenceEvents: await db.query<{ kind: string }>(
      'SELECT kind FROM geofence_events WHERE vehicle_id = $1 ORDER BY at',
      [vehicleId],
    ),
    salikEvents: await count('SELECT count(*)::int AS n FROM salik_events WHERE vehicle_id = $1'),
    notifications: await db.query<{ type: string; n: number }>(
      'SELECT type, count(*)::int AS n FROM notifications WHERE vehicle_id = $1 GROUP BY type ORDER BY type',
      [vehicleId],
    ),
    pushes: await count(
      `SELECT count(*)::int AS n FROM push_outbox p JOIN notifications n ON n.id = p.notification_id
       WHERE n.vehicle_id = $1`,
    ),
  };
}

const once = {
  geofenceEvents: [{ kind: 'exit' }],
  salikEvents: 1,
  notifications: [
    { type: 'geofence_exit', n: 1 },
    { type: 'salik_crossing', n: 1 },
  ],
  pushes: 2,
};

const types = (alerts: readonly AlertRecord[]) => alerts.map((a) => a.type).sort();

function worker(store: SqlPipelineStore, bus: InProcessBus, onError?: (err: unknown) => void) {
  return new PipelineService({
    store,
    bus,
    salik,
    timeZone: 'Asia/Dubai',
    now: () => T0 + 86_400_000,
    persistState: true,
    ...(onError ? { onError } : {}),
  });
}

function realtimeOf(bus: InProcessBus): RealtimeEnvelope[] {
  const seen: RealtimeEnvelope[] = [];
  bus.subscribe<RealtimeEnvelope>('realtime.>', (m) => {
    seen.push(m);
  });
  return seen;
}

describe('events of records gone through twice', () => {
  it('the state save failed after the events were stored: the next owner replays, nothing is stored twice', async () => {
    const v = await vehicle('R 1', '356307042450001');
    const [parked, moving, parkedAgain] = await drive(v, T0);
    const store = new SqlPipelineStore(storage.db);
    let failSave = false;
    const flaky = Object.assign(Object.create(store) as SqlPipelineStore, {
      saveDeviceStates: async (rows: Parameters<SqlPipelineStore['saveDeviceStates']>[0]) => {
        if (failSave) throw new Error('connection terminated');
        return store.saveDeviceStates(rows);
      },
    });

    // Worker A: the parked batch and its state, then the drive (events, notifications), whose state
    // save fails; A dies before the ack.
    const busA = new InProcessBus();
    const seenA = realtimeOf(busA);
    const a = worker(flaky, busA);
    await a.prepareDevices([v.device.uuid]);
    expect((await a.handleBatch(parked)).alerts).toEqual([]);
    await a.saveStates();
    const first = await a.handleBatch(moving);
    expect(types(first.alerts)).toEqual(['geofence_exit', 'salik_crossing']);
    expect(first.notifications).toBe(2);
    failSave = true;
    await expect(a.saveStates()).rejects.toThrow('connection terminated');
    expect(await stored(v.vehicle.id)).toEqual(once);

    // Worker B takes the partition over: it starts from the parked state and goes through the
    // drive again (read back from the stored records) before its own batch.
    const busB = new InProcessBus();
    const seenB = realtimeOf(busB);
    const b = worker(store, busB);
    b.resetDeviceStates();
    await b.prepareDevices([v.device.uuid]);
    const replay = await b.handleBatch(parkedAgain);
    await b.saveStates();
    // The engines really fired again (the replay happened) ...
    expect(types(replay.alerts)).toEqual(['geofence_exit', 'salik_crossing']);
    // ... and nothing was stored, queued or published a second time.
    expect(replay.notifications).toBe(0);
    expect(await stored(v.vehicle.id)).toEqual(once);
    expect(seenA.filter((m) => m.event === 'notification')).toHaveLength(2);
    expect(seenB).toEqual([]);
  });

  it('a batch that failed after its events were stored notifies once when it is gone through again', async () => {
    const v = await vehicle('R 2', '356307042450002');
    const [parked, moving, parkedAgain] = await drive(v, T0 + 3_600_000);
    const store = new SqlPipelineStore(storage.db);
    let failNotify = false;
    const flaky = Object.assign(Object.create(store) as SqlPipelineStore, {
      insertNotifications: async (rows: Parameters<SqlPipelineStore['insertNotifications']>[0]) => {
        if (failNotify) {
          failNotify = false;
          throw new Error('connection terminated');
        }
        return store.insertNotifications(rows);
      },
    });
    const bus = new InProcessBus();
    const seen = realtimeOf(bus);
    const errors: unknown[] = [];
    const service = worker(flaky, bus, (err) => errors.push(err));
    const stop = service.start();
    const publish = (m: LocationBatchMessage) =>
      bus.publish(`locations.${ids.companyUuid}.${v.device.uuid}`, m);
    await publish(parked);
    await service.saveStates();
    failNotify = true;
    await publish(moving);
    await service.saveStates();
    expect(errors).toHaveLength(1);
    // The events are stored, the notifications are not (yet).
    expect(await stored(v.vehicle.id)).toMatchObject({
      geofenceEvents: [{ kind: 'exit' }],
      salikEvents: 1,
      notifications: [],
    });
    await publish(parkedAgain);
    await service.saveStates();
    stop();
    expect(errors).toHaveLength(1);
    expect(await stored(v.vehicle.id)).toEqual(once);
    expect(seen.filter((m) => m.event === 'notification')).toHaveLength(2);
  });

  it('inserting the same events again, or from two nodes at once, stores them once', async () => {
    const v = await vehicle('R 3', '356307042450003');
    const [one, two] = [new SqlPipelineStore(storage.db), new SqlPipelineStore(storage.db)];
    const t = T0 + 7_200_000;
    const event = {
      kind: 'entry' as const,
      geofenceId: ids.geofenceUuid,
      vehicleId: v.vehicle.uuid,
      deviceId: v.device.uuid,
      time: t,
      lat: start.lat,
      lon: start.lon,
    };
    const exit = { ...event, kind: 'exit' as const, time: t + 60_000, enteredAt: t, dwellS: 60 };
    // An entry and an exit at the same time are two events.
    const sameTime = { ...event, kind: 'exit' as const };
    expect(await one.insertGeofenceEvents(ids.companyUuid, [event, exit])).toBe(2);
    const again = await Promise.all([
      one.insertGeofenceEvents(ids.companyUuid, [event, exit, sameTime]),
      two.insertGeofenceEvents(ids.companyUuid, [event, exit, sameTime]),
    ]);
    expect(again[0] + again[1]).toBe(1);
    const crossing = {
      id: `${v.vehicle.uuid}:barsha:${t}`,
      vehicleId: v.vehicle.uuid,
      deviceId: v.device.uuid,
      gateCode: 'barsha',
      gateNameEn: 'Al Barsha',
      gateNameAr: 'البرشاء',
      time: t,
      direction: 'forward' as const,
      directionName: 'to_dubai',
      bearing: 0,
      lat: gate.lat,
      lon: gate.lon,
      fee: 4,
      currency: 'AED',
      tariff: {} as never,
    };
    const racing = await Promise.all([
      one.insertSalikEvents(ids.companyUuid, [crossing]),
      two.insertSalikEvents(ids.companyUuid, [crossing]),
    ]);
    expect(racing[0] + racing[1]).toBe(1);
    expect(
      await one.insertSalikEvents(ids.companyUuid, [{ ...crossing, id: `${crossing.id}+`, time: t + 1 }]),
    ).toBe(1);
    const s = await stored(v.vehicle.id);
    expect(s.geofenceEvents.map((e) => e.kind)).toEqual(['entry', 'exit', 'exit']);
    expect(s.salikEvents).toBe(2);
  });

  it('migration 0014 removes the duplicates already stored (the oldest row stays) before adding the unique indexes', async () => {
    const db = storage.db;
    const v = await vehicle('R 4', '356307042450004');
    // The database as it was before the migration: no unique indexes, duplicates from earlier replays.
    await db.exec('DROP INDEX geofence_events_unique_event; DROP INDEX salik_events_unique_crossing');
    await db.query('DELETE FROM schema_migrations WHERE name = $1', [MIGRATION]);
    const at = new Date(T0 + 10_800_000).toISOString();
    const later = new Date(T0 + 10_860_000).toISOString();
    const fence = (
      kind: string,
      time: string,
      vehicleId: number | null,
      geofenceId: number | null,
      n: number,
    ) =>
      db.query<{ id: number }>(
        `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
         SELECT $1, $2, $3, $4, $5::timestamptz, jsonb_build_object('copy', i) FROM generate_series(1, $6::int) i
         RETURNING id`,
        [ids.company, vehicleId, geofenceId, kind, time, n],
      );
    const toll = (
      gateCode: string,
      direction: string | null,
      time: string,
      vehicleId: number | null,
      n: number,
    ) =>
      db.query<{ id: number }>(
        `INSERT INTO salik_events (company_id, vehicle_id, gate, direction, fee, at, data)
         SELECT $1, $2, $3, $4, 4, $5::timestamptz, jsonb_build_object('copy', i) FROM generate_series(1, $6::int) i
         RETURNING id`,
        [ids.company, vehicleId, gateCode, direction, time, n],
      );
    const entries = await fence('entry', at, v.vehicle.id, ids.geofence, 3);
    const exit = await fence('exit', at, v.vehicle.id, ids.geofence, 1); // same time, other kind: kept
    const exits = await fence('exit', later, v.vehicle.id, ids.geofence, 2);
    const noVehicle = await fence('exit', later, null, ids.geofence, 2); // not the pipeline's: untouched
    const tolls = await toll('barsha', 'to_dubai', at, v.vehicle.id, 3);
    const nullDirection = await toll('safa', null, at, v.vehicle.id, 2);
    const otherGate = await toll('safa_south', 'to_dubai', at, v.vehicle.id, 1);
    const noVehicleToll = await toll('barsha', 'to_dubai', at, null, 2);

    expect(await migrate(db)).toEqual([MIGRATION]);

    const idsOf = (rows: { id: number }[]) => rows.map((r) => Number(r.id)).sort((x, y) => x - y);
    const fenceRows = await db.query<{ id: number }>(
      'SELECT id FROM geofence_events WHERE at IN ($1::timestamptz, $2::timestamptz) AND geofence_id = $3',
      [at, later, ids.geofence],
    );
    expect(idsOf(fenceRows)).toEqual(idsOf([entries[0]!, exit[0]!, exits[0]!, ...noVehicle]));
    const tollRows = await db.query<{ id: number }>(
      'SELECT id FROM salik_events WHERE at = $1::timestamptz',
      [at],
    );
    expect(idsOf(tollRows)).toEqual(idsOf([tolls[0]!, nullDirection[0]!, otherGate[0]!, ...noVehicleToll]));
    const indexes = await db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename IN ('geofence_events', 'salik_events')
         AND schemaname = current_schema() ORDER BY indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(
      expect.arrayContaining(['geofence_events_unique_event', 'salik_events_unique_crossing']),
    );
    expect(indexes.map((i) => i.indexname)).not.toContain('geofence_events_visit');
    // And the store's inserts now hit the index: the entry is there already.
    const store = new SqlPipelineStore(db);
    expect(
      await store.insertGeofenceEvents(ids.companyUuid, [
        {
          kind: 'entry',
          geofenceId: ids.geofenceUuid,
          vehicleId: v.vehicle.uuid,
          deviceId: v.device.uuid,
          time: Date.parse(at),
          lat: start.lat,
          lon: start.lon,
        },
      ]),
    ).toBe(0);
  });
});
