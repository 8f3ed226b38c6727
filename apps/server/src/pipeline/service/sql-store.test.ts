import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus, subjects } from '../../realtime/bus';
import type { RealtimeEnvelope } from '../../realtime/hub';
import type { LocationInput, Storage } from '../../storage/storage';
import { openTestStorage } from '../../../test/db';
import { destination } from '../common/geo';
import { TrackBuilder } from '../common/track-builder';
import { loadSalik } from '../salik/load';
import { generateInstances } from '../scheduled/instances';
import type { LocationBatchMessage, NotificationInput } from './ports';
import { PipelineService } from './service';
import { nameUuid } from '../salik/api-gates';
import { gateUuid, SqlPipelineStore, toShape } from './sql-store';
import { emptyRollup } from '../rollups/rollups';

const T0 = Date.UTC(2026, 0, 5, 4, 0); // Monday 08:00 Dubai
const salik = loadSalik();
const gate = salik.gates.find((g) => g.code === 'barsha')!;
const start = destination(gate.lat, gate.lon, gate.roadBearingDeg + 180, 1500);

let storage: Storage;
let ids: {
  company: number;
  companyUuid: string;
  device: number;
  deviceUuid: string;
  vehicle: number;
  vehicleUuid: string;
};

beforeAll(async () => {
  storage = await openTestStorage('pipeline_sql');
  const db = storage.db;
  const [c] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Acme') RETURNING id, uuid`,
  );
  const [other] = await db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Other') RETURNING id`,
  );
  const [b] = await db.query<{ id: number }>(
    `INSERT INTO branches (company_id, name) VALUES ($1, 'North') RETURNING id`,
    [c!.id],
  );
  const users = await db.query<{ id: number }>(
    `INSERT INTO users (email, name, locale) VALUES ('en@x.test', 'En', 'en'), ('ar@x.test', 'Ar', 'ar'),
       ('branch@x.test', 'Branch', 'en'), ('other@x.test', 'Other', 'en') RETURNING id`,
  );
  await db.query(
    `INSERT INTO memberships (user_id, company_id, user_type, branch_id) VALUES ($1, $5, 'admin', NULL), ($2, $5, 'admin', NULL),
       ($3, $5, 'branch_admin', $6), ($4, $7, 'admin', NULL)`,
    [users[0]!.id, users[1]!.id, users[2]!.id, users[3]!.id, c!.id, b!.id, other!.id],
  );
  const [d] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042441013', 'teltonika') RETURNING id, uuid`,
    [c!.id],
  );
  const [v] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei, data)
     VALUES ($1, 'B 777', '356307042441013', '{"speed_limit": 80, "insurance_expiry": "2026-01-20"}') RETURNING id, uuid`,
    [c!.id],
  );
  const geometry = { shape: 'circle', center: { latitude: start.lat, longitude: start.lon }, radius: 300 };
  await db.query(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng, data)
     VALUES ($1, 'Yard', 'circle', $2::jsonb, 0, 0, 0, 0, '{"tracking_rules": ["exit"], "name_ar": "الساحة"}')`,
    [c!.id, JSON.stringify(geometry)],
  );
  for (const [type, params] of [
    ['overspeed', { speed_limit: null }],
    ['geofence_exit', {}],
    ['salik_crossing', {}],
    ['document_expiry', { days_ahead: 30, documents: [] }],
  ] as const) {
    await db.query(
      `INSERT INTO notification_rules (company_id, name, type, params) VALUES ($1, $2, $2, $3::jsonb)`,
      [c!.id, type, JSON.stringify(params)],
    );
  }
  ids = {
    company: c!.id,
    companyUuid: c!.uuid,
    device: d!.id,
    deviceUuid: d!.uuid,
    vehicle: v!.id,
    vehicleUuid: v!.uuid,
  };
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

describe('SqlPipelineStore with the pipeline service', () => {
  it('maps the company setup from notification rules, geofences and vehicles', async () => {
    const store = new SqlPipelineStore(storage.db);
    const setup = await store.companySetup(ids.companyUuid);
    expect(setup.rules.overspeed).toEqual({ enabled: true, limitKmh: Number.POSITIVE_INFINITY });
    expect(setup.rules.geofence).toEqual({ entry: false, exit: true });
    expect(setup.geofences[0]).toMatchObject({ nameEn: 'Yard', nameAr: 'الساحة', tracking: ['exit'] });
    expect(setup.vehicles).toEqual([{ vehicleId: ids.vehicleUuid, plate: 'B 777', speedLimitKmh: 80 }]);
    expect((await store.recipients(ids.companyUuid, ids.vehicleUuid)).map((r) => r.locale)).toEqual([
      'en',
      'ar',
    ]);
    expect(await store.recipients(ids.companyUuid, undefined)).toHaveLength(3);
    await expect(store.companySetup('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      /Unknown company/,
    );
  });

  it('stores what a simulated drive produces: events, notifications, trips and rollups', async () => {
    const store = new SqlPipelineStore(storage.db);
    const bus = new InProcessBus();
    const realtime: RealtimeEnvelope[] = [];
    bus.subscribe<RealtimeEnvelope>('realtime.>', (m) => {
      realtime.push(m);
    });
    const errors: unknown[] = [];
    const service = new PipelineService({
      store,
      bus,
      salik,
      now: () => T0 + 3_600_000,
      onError: (e) => errors.push(e),
    });
    const stop = service.start();
    const records = new TrackBuilder(T0, start.lat, start.lon, { deviceId: ids.deviceUuid, odometer: true })
      .park(120)
      .drive(180, 60, gate.roadBearingDeg)
      .drive(120, 95, gate.roadBearingDeg)
      .park(600)
      .records();
    for (let i = 0; i < records.length; i += 25) {
      const chunk = records.slice(i, i + 25);
      const inputs: LocationInput[] = chunk.map((r) => ({
        deviceId: ids.device,
        vehicleId: ids.vehicle,
        companyId: ids.company,
        fixTime: new Date(r.time),
        latitude: r.lat,
        longitude: r.lon,
        speed: r.speed,
        ignition: r.io?.[239] === 1,
        ioElements: Object.fromEntries(
          Object.entries(r.io ?? {}).map(([k, v]) => [k, { value: v as number }]),
        ),
        valid: true,
      }));
      const fresh = await storage.insertLocations(inputs);
      const msg: LocationBatchMessage = {
        companyUuid: ids.companyUuid,
        deviceUuid: ids.deviceUuid,
        vehicleUuid: ids.vehicleUuid,
        records: fresh.map((f) => ({ ...f, ioElements: f.ioElements ?? {} })),
      };
      await bus.publish(subjects.locations(ids.companyUuid, ids.deviceUuid), msg);
    }
    await service.flush();
    const tick = await service.tick(ids.companyUuid);
    stop();
    expect(errors).toEqual([]);

    const db = storage.db;
    const fences = await db.query<{ kind: string; data: Record<string, unknown> }>(
      'SELECT kind, data FROM geofence_events',
    );
    expect(fences).toMatchObject([{ kind: 'exit', data: { geofence_name: 'Yard' } }]);
    const tolls = await db.query<{
      gate: string;
      fee: number;
      direction: string;
      data: Record<string, unknown>;
    }>('SELECT gate, fee, direction, data FROM salik_events');
    expect(tolls).toMatchObject([
      {
        gate: 'barsha',
        fee: 6,
        direction: 'to_dubai',
        data: { gate_uuid: nameUuid('barsha:forward'), charged: true },
      },
    ]);
    const notes = await db.query<{
      type: string;
      message: string;
      violation_value: string | null;
      locale: string;
    }>(
      `SELECT n.type, n.message, n.violation_value, u.locale FROM notifications n JOIN users u ON u.id = n.user_id ORDER BY n.id`,
    );
    expect(notes.filter((n) => n.locale === 'en').map((n) => n.type)).toEqual([
      'geofence_exit',
      'salik_crossing',
      'overspeed',
      'document_expiry',
    ]);
    expect(notes.find((n) => n.type === 'overspeed' && n.locale === 'en')).toMatchObject({
      violation_value: '95',
      // the episode ended in the drive: its end rewrote the notification's text (start, end, peak)
      message: 'B 777 drove over the 80 km/h limit for 2 min, at up to 95 km/h.',
    });
    expect(notes.find((n) => n.type === 'geofence_exit' && n.locale === 'ar')!.message).toContain('الساحة');
    expect(notes.every((n) => n.locale !== 'other')).toBe(true);
    expect(tick.alerts.map((a) => a.type)).toEqual(['document_expiry']);
    expect(realtime.filter((m) => m.event === 'notification')).toHaveLength(notes.length);
    expect(realtime.filter((m) => m.event === 'device-location')).toHaveLength(0); // the gateway publishes those

    const trips = await db.query<{ distance_m: number; data: Record<string, unknown> }>(
      'SELECT distance_m, data FROM device_trips',
    );
    expect(trips).toHaveLength(1);
    expect(trips[0]!.data).toMatchObject({
      day: '2026-01-05',
      max_speed: 95,
      device_imei: '356307042441013',
      distance_source: 'odometer',
    });
    expect(trips[0]!.distance_m).toBeCloseTo(6167, -1);
    const rollups = await db.query<{ hour: number; trips: number; violations: number; distance_m: number }>(
      'SELECT hour, trips, violations, distance_m FROM vehicle_rollups WHERE hour = -1',
    );
    expect(rollups).toHaveLength(1);
    expect(rollups[0]).toMatchObject({ trips: 1, violations: 1 });
    expect(rollups[0]!.distance_m).toBeGreaterThan(6000);

    // replaying the recompute replaces, never duplicates
    await store.replaceDeviceDay(
      { companyUuid: ids.companyUuid, deviceUuid: ids.deviceUuid, vehicleUuid: ids.vehicleUuid },
      '2026-01-05',
      {
        mode: 'ignition',
        trips: [],
        stops: [],
        idles: [],
      },
    );
    expect(await db.query('SELECT 1 FROM device_trips')).toHaveLength(0);
    expect(await db.query('SELECT 1 FROM device_stops')).toHaveLength(0);
  });

  it('reads scheduled trips and keeps finished trip instances', async () => {
    const db = storage.db;
    const [t] = await db.query<{ id: number }>(
      `INSERT INTO scheduled_trips (company_id, name, type, vehicle_id, departure_time, return_time, data)
       VALUES ($1, 'Morning', 'round', $2, '06:30', '13:00', '{"days_of_week": [1, 2, 3, 4, 5], "start_date": "2026-01-01"}')
       RETURNING id`,
      [ids.company, ids.vehicle],
    );
    await db.query(
      `INSERT INTO scheduled_trip_stops (scheduled_trip_id, position, name, latitude, longitude, arrival_offset_minutes)
       VALUES ($1, 0, 'Home', 25.1, 55.2, 0), ($1, 1, 'School', 25.2, 55.3, 45)`,
      [t!.id],
    );
    const store = new SqlPipelineStore(db);
    const [def] = await store.scheduledTrips(ids.companyUuid);
    expect(def).toMatchObject({
      type: 'round',
      departure: { startTime: '06:30', endTime: '07:15' },
      return: { startTime: '13:00', endTime: '13:45' },
      days: [1, 2, 3, 4, 5],
      validFrom: '2026-01-01',
      vehicleId: ids.vehicleUuid,
    });
    expect(def!.stops.map((s) => s.name)).toEqual(['Home', 'School']);
    const [inst] = generateInstances([def!], '2026-01-05');
    await store.saveTripInstances([inst!]);
    await store.saveTripInstances([{ ...inst!, status: 'completed', endedAt: T0 }]);
    await store.saveTripInstances([inst!]); // a regenerated pending instance after a restart
    const rows = await db.query<{ status: string }>(
      `SELECT status FROM trips WHERE data->>'instance_id' = $1`,
      [inst!.id],
    );
    expect(rows).toEqual([{ status: 'completed' }]);
  });

  it('stores one notification per user and episode even when two nodes insert it at the same moment', async () => {
    const store = new SqlPipelineStore(storage.db);
    const [user] = await storage.db.query<{ uuid: string }>(
      `SELECT uuid FROM users WHERE email = 'en@x.test'`,
    );
    const row = {
      companyUuid: ids.companyUuid,
      userUuid: user!.uuid,
      title: 'Device offline',
      message: 'B 777 has been offline for 30 minutes',
      alert: {
        type: 'device_offline',
        companyId: ids.companyUuid,
        vehicleId: ids.vehicleUuid,
        violationValue: null,
        deviceCreatedAt: new Date(T0).toISOString(),
        titleKey: 'deviceOffline',
        messageKey: 'deviceOffline',
        params: {},
        dedupeKey: `${ids.companyUuid}:device_offline:race-test`,
      },
    } as unknown as NotificationInput;
    const results = await Promise.all([store.insertNotifications([row]), store.insertNotifications([row])]);
    expect(results.flat()).toHaveLength(1);
    const rows = await storage.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE data->>'dedupe_key' = $1`,
      [row.alert.dedupeKey],
    );
    expect(rows[0]!.n).toBe(1);
    // The guarantee does not rest on the pipeline's existence check (two sessions can both pass it):
    // the database itself refuses a second row for the same user and episode.
    await expect(
      storage.db.query(
        `INSERT INTO notifications (company_id, user_id, type, title, message, data)
         SELECT company_id, user_id, type, title, message, data FROM notifications WHERE data->>'dedupe_key' = $1`,
        [row.alert.dedupeKey],
      ),
    ).rejects.toThrow(/duplicate key|unique/i);
  });

  it("writes a flush's trips and rollups all or nothing, its writes sent together on PGlite", async () => {
    const store = new SqlPipelineStore(storage.db, { rememberWrites: true });
    const date = '2026-02-10';
    const at = Date.UTC(2026, 1, 10, 6, 0);
    const trip = {
      deviceId: ids.deviceUuid,
      startTime: at,
      endTime: at + 600_000,
      start: { lat: 25.1, lon: 55.2 },
      end: { lat: 25.2, lon: 55.3 },
      distanceM: 5000,
      distanceSource: 'gps' as const,
      durationS: 600,
      maxSpeedKmh: 60,
      avgSpeedKmh: 30,
      idleS: 0,
      recordCount: 60,
    };
    const tripWrite = {
      ref: { companyUuid: ids.companyUuid, deviceUuid: ids.deviceUuid, vehicleUuid: ids.vehicleUuid },
      date,
      detection: { mode: 'ignition' as const, trips: [trip], stops: [], idles: [] },
    };
    const daily = { ...emptyRollup(ids.vehicleUuid, date, null), records: 1 };
    // An hour no smallint holds: the rollup upsert, the flush's last write, fails.
    const broken = { ...emptyRollup(ids.vehicleUuid, date, 99_999), records: 1 };
    const rollupWrite = (hourly: (typeof broken)[]) => ({
      ref: { companyUuid: ids.companyUuid, vehicleUuid: ids.vehicleUuid },
      day: { daily, hourly, fuelEvents: [] },
    });
    const stored = async () => ({
      trips: (
        await storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM device_trips WHERE device_id = $1 AND data->>'day' = $2`,
          [ids.device, date],
        )
      )[0]!.n,
      rollups: (
        await storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM vehicle_rollups WHERE vehicle_id = $1 AND day = $2`,
          [ids.vehicle, date],
        )
      )[0]!.n,
    });
    await expect(store.writeResults([tripWrite], [rollupWrite([broken])])).rejects.toThrow();
    expect(await stored()).toEqual({ trips: 0, rollups: 0 });
    // The same flush without the broken row is written whole, and the memory of what was written did
    // not claim the failed one.
    await store.writeResults([tripWrite], [rollupWrite([])]);
    expect(await stored()).toEqual({ trips: 1, rollups: 1 });
  });

  it("writes a vehicle-day's fuel events only when they changed, with and without the memory", async () => {
    const date = '2026-02-11';
    const at = Date.UTC(2026, 1, 11, 6, 0);
    const event = (litres: number) => ({
      kind: 'refuel' as const,
      litres,
      startTime: at,
      endTime: at + 300_000,
      lat: 25.1,
      lon: 55.2,
      levelBeforeL: 10,
      levelAfterL: 10 + litres,
    });
    const daily = { ...emptyRollup(ids.vehicleUuid, date, null), records: 1 };
    const write = (store: SqlPipelineStore, fuelEvents: ReturnType<typeof event>[]) =>
      store.writeResults(
        [],
        [
          {
            ref: { companyUuid: ids.companyUuid, vehicleUuid: ids.vehicleUuid },
            day: { daily, hourly: [], fuelEvents },
          },
        ],
      );
    const stored = () =>
      storage.db.query<{ ctid: string; litres: number }>(
        `SELECT ctid::text, litres FROM fuel_events WHERE vehicle_id = $1 AND day = $2 ORDER BY at`,
        [ids.vehicle, date],
      );
    for (const remember of [true, false]) {
      const store = new SqlPipelineStore(storage.db, { rememberWrites: remember });
      await write(store, [event(40)]);
      const first = await stored();
      expect(first.map((r) => r.litres)).toEqual([40]);
      // The same events again (new objects, as a rebuilt fold gives): with the memory, not rewritten.
      await write(store, [event(40)]);
      const second = await stored();
      expect(second.map((r) => r.litres)).toEqual([40]);
      if (remember) expect(second[0]!.ctid).toBe(first[0]!.ctid);
      // A changed event is written.
      await write(store, [event(45)]);
      expect((await stored()).map((r) => r.litres)).toEqual([45]);
      // A flush that failed (a broken hourly row: its upsert fails) leaves the memory as it was, so the
      // next flush with the same events writes them.
      const broken = { ...emptyRollup(ids.vehicleUuid, date, 99_999), records: 1 };
      await expect(
        store.writeResults(
          [],
          [
            {
              ref: { companyUuid: ids.companyUuid, vehicleUuid: ids.vehicleUuid },
              day: { daily, hourly: [broken], fuelEvents: [event(50)] },
            },
          ],
        ),
      ).rejects.toThrow();
      expect((await stored()).map((r) => r.litres)).toEqual([45]);
      await write(store, [event(50)]);
      expect((await stored()).map((r) => r.litres)).toEqual([50]);
      await write(store, []);
      expect(await stored()).toEqual([]);
    }
  });

  it('toShape reads the API geometry', () => {
    expect(
      toShape({
        shape: 'polygon',
        points: [
          { latitude: 1, longitude: 2 },
          { latitude: 1, longitude: 3 },
          { latitude: 2, longitude: 2 },
        ],
      }),
    ).toEqual({
      kind: 'polygon',
      rings: [
        [
          [1, 2],
          [1, 3],
          [2, 2],
        ],
      ],
    });
    expect(toShape({ shape: 'circle' })).toBeNull();
    expect(gateUuid('safa', 'reverse')).toBe(nameUuid('safa:reverse'));
    expect(gateUuid(nameUuid('x'), 'forward')).toBe(nameUuid('x'));
    expect(nameUuid('safa')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
