import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicleStatus } from '@fleet/core';
import { liveVehiclesResponseSchema, vehicleLocationsResponseSchema } from '@fleet/api-client';
import { call, createHarness, type Harness } from '../../test/harness';
import { locationView, type LocationRow } from './locations';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
const now = new Date('2026-11-20T10:00:00Z');
const minutes = (m: number) => new Date(now.getTime() - m * 60_000);

/** Latest fixes covering every branch of the status rules (and their edges). */
const CASES: { plate: string; fix: Date | null; ignition?: boolean; idle?: boolean }[] = [
  { plate: 'NODATA', fix: null },
  { plate: 'INACTIVE', fix: minutes(31 * 24 * 60), ignition: true },
  { plate: 'IDLE', fix: minutes(5), ignition: false, idle: true },
  { plate: 'LIVE', fix: minutes(5), ignition: true },
  { plate: 'OFF-OLD', fix: minutes(61), ignition: true },
  { plate: 'OFF-IGN', fix: minutes(5), ignition: false },
  { plate: 'IDLE-IGN', fix: minutes(5), ignition: true, idle: true },
];

beforeAll(async () => {
  h = await createHarness('locations');
  h.clock.now = now;
  w = await buildWorld(h.storage.db);
  for (const [i, c] of CASES.entries()) {
    const imei = `86000000000${String(i).padStart(4, '0')}`;
    const [d] = await h.storage.db.query<{ id: number }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id`,
      [w.a.id, imei],
    );
    const [v] = await h.storage.db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING id`,
      [w.a.id, c.plate, imei],
    );
    if (c.fix) {
      await h.storage.insertLocations([
        {
          deviceId: d!.id,
          vehicleId: v!.id,
          companyId: w.a.id,
          fixTime: c.fix,
          latitude: 25,
          longitude: 55,
          ignition: c.ignition ?? null,
          isIdle: c.idle ?? null,
          speed: 10,
        },
      ]);
    }
  }
});
afterAll(() => h.close());

describe('live vehicles', () => {
  it('status in SQL (filters, counts) equals @fleet/core vehicleStatus', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: '/v1/vehicles/live',
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(r.statusCode).toBe(200);
    const body = liveVehiclesResponseSchema.parse(r.json());
    const byPlate = Object.fromEntries(body.data.map((v) => [v.license_plate_number, v]));
    for (const c of CASES) {
      const v = byPlate[c.plate]!;
      expect(v.live_status, c.plate).toBe(vehicleStatus(v.location, now));
    }
    expect(byPlate.NODATA!.live_status).toBe('no-data');
    expect(byPlate.INACTIVE!.live_status).toBe('inactive');
    expect(byPlate.IDLE!.live_status).toBe('idle');
    expect(byPlate.LIVE!.live_status).toBe('live');
    expect(byPlate['OFF-OLD']!.live_status).toBe('offline');
    expect(body.counts).toEqual({ all: 7, live: 2, idle: 1, offline: 2, inactive: 1, 'no-data': 1 });
    for (const tab of ['live', 'idle', 'offline', 'inactive', 'no-data'] as const) {
      const f = liveVehiclesResponseSchema.parse(
        (
          await call(h.app, {
            method: 'GET',
            url: `/v1/vehicles/live?live_status=${tab}`,
            token: w.users.adminA.token,
            company: w.a.uuid,
          })
        ).json(),
      );
      expect(f.data.every((v) => v.live_status === tab)).toBe(true);
      expect(f.total).toBe(body.counts[tab]);
    }
  });
});

describe('vehicle locations', () => {
  it('pages of 500 over a range, oldest first, as spec location records', async () => {
    const [v] = await h.storage.db.query<{ uuid: string; id: number; device_id: number }>(
      `SELECT v.uuid, v.id, d.id AS device_id FROM vehicles v JOIN devices d ON d.imei = v.device_imei WHERE v.license_plate_number = 'LIVE'`,
    );
    const start = Date.UTC(2026, 10, 19);
    const batch = Array.from({ length: 1200 }, (_, i) => ({
      deviceId: v!.device_id,
      vehicleId: v!.id,
      companyId: w.a.id,
      fixTime: new Date(start + i * 10_000),
      latitude: 25 + i / 1e5,
      longitude: 55,
      speed: 30,
      ignition: true,
      digitalOutput1: i % 2,
      ioElements: { '239': { value: 1 }, '16': { value: 1000 + i } },
    }));
    await h.storage.insertLocations(batch);
    const from = new Date(start).toISOString();
    const to = new Date(start + 86_400_000 - 1).toISOString();
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const r = await call(h.app, {
        method: 'GET',
        url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${v!.uuid}&from=${from}&to=${to}&page=${page}&limit=500`,
        token: w.users.adminA.token,
        company: w.a.uuid,
      });
      pages.push(vehicleLocationsResponseSchema.parse(r.json()));
    }
    expect(pages.map((p) => p.data.length)).toEqual([500, 500, 200]);
    expect(pages[0]).toMatchObject({ total: 1200, last_page: 3, current_page: 1 });
    const first = pages[0]!.data[0]!;
    expect(first).toMatchObject({
      created_at: from,
      ignition: 1,
      digital_output1: 0,
      io_elements: { '16': { value: 1000 } },
    });
    expect(pages[1]!.data[0]!.created_at).toBe(new Date(start + 500 * 10_000).toISOString());
    const over = await call(h.app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${v!.uuid}&limit=501`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(over.statusCode).toBe(422);
  });
});

describe('vehicle location walks (keyset pages)', () => {
  const start = Date.UTC(2026, 9, 5);
  let uuid = '';
  let dev: { main: number; gps: number; vehicle: number };
  const get = (query: string) =>
    call(h.app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${uuid}&${query}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
  const walk = async (query: string) => {
    const pages = [];
    for (let page = 1; ; page++) {
      const r = await get(`${query}&page=${page}`);
      expect(r.statusCode).toBe(200);
      const body = vehicleLocationsResponseSchema.parse(r.json());
      pages.push(body);
      if (page >= body.last_page) break;
    }
    return pages;
  };
  const point = (deviceId: number, ms: number, speed: number) => ({
    deviceId,
    vehicleId: dev.vehicle,
    companyId: w.a.id,
    fixTime: new Date(ms),
    latitude: 24,
    longitude: 54,
    speed,
  });

  beforeAll(async () => {
    const imeis = ['860000000091001', '860000000091002'];
    const ids = [];
    for (const imei of imeis) {
      const [d] = await h.storage.db.query<{ id: number }>(
        `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id`,
        [w.a.id, imei],
      );
      ids.push(d!.id);
    }
    const [v] = await h.storage.db.query<{ id: number; uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei, gps_device_imei)
       VALUES ($1, 'WALK 1', $2, $3) RETURNING id, uuid`,
      [w.a.id, imeis[0], imeis[1]],
    );
    uuid = v!.uuid;
    dev = { main: ids[0]!, gps: ids[1]!, vehicle: v!.id };
    // Main device every 10 s, GPS device every 15 s: equal fix times every 30 s (both devices).
    await h.storage.insertLocations([
      ...Array.from({ length: 120 }, (_, i) => point(dev.main, start + i * 10_000, 1)),
      ...Array.from({ length: 80 }, (_, i) => point(dev.gps, start + i * 15_000, 2)),
    ]);
  });

  it('walks both devices of a vehicle in (time, device) order without gaps or repeats', async () => {
    const range = `from=${new Date(start).toISOString()}&to=${new Date(start + 3_600_000).toISOString()}&limit=30`;
    const pages = await walk(range);
    expect(pages[0]).toMatchObject({ total: 200, last_page: 7, per_page: 30 });
    const all = pages.flatMap((p) => p.data);
    expect(all).toHaveLength(200);
    const keys = all.map((r) => `${r.created_at}|${r.speed}`);
    expect(new Set(keys).size).toBe(200);
    const expected = [
      ...Array.from({ length: 120 }, (_, i) => ({ ms: start + i * 10_000, device: 1 })),
      ...Array.from({ length: 80 }, (_, i) => ({ ms: start + i * 15_000, device: 2 })),
    ]
      .sort((a, b) => a.ms - b.ms || a.device - b.device)
      .map((r) => `${new Date(r.ms).toISOString()}|${r.device}`);
    expect(keys).toEqual(expected);
    // A page asked out of order (no walk to continue) is the same rows, by offset.
    const third = vehicleLocationsResponseSchema.parse((await get(`${range}&page=3`)).json());
    expect(third.data).toEqual(pages[2]!.data);
    const beyond = vehicleLocationsResponseSchema.parse((await get(`${range}&page=9`)).json());
    expect(beyond).toMatchObject({ data: [], total: 200, current_page: 9 });
  });

  it('points stored during a walk neither repeat nor shift its rows; a new walk counts them', async () => {
    const range = `from=${new Date(start).toISOString()}&to=${new Date(start + 3_600_000).toISOString()}&limit=50`;
    const first = vehicleLocationsResponseSchema.parse((await get(`${range}&page=1`)).json());
    expect(first.total).toBe(200);
    // Late points: one before the walk's position, one after it.
    await h.storage.insertLocations([
      point(dev.main, start + 5_000, 3),
      point(dev.main, start + 3_000_000, 3),
    ]);
    const rest = [];
    for (let page = 2; page <= first.last_page; page++) {
      const body = vehicleLocationsResponseSchema.parse((await get(`${range}&page=${page}`)).json());
      expect(body.total).toBe(200);
      rest.push(...body.data);
    }
    const seen = [...first.data, ...rest].map((r) => `${r.created_at}|${r.speed}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(`${new Date(start + 5_000).toISOString()}|3`);
    const again = await walk(range);
    expect(again[0]!.total).toBe(202);
    expect(again.flatMap((p) => p.data)).toHaveLength(202);
  });

  it('another company cannot walk the vehicle', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${uuid}&page=2&limit=30`,
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(r.statusCode).toBe(404);
  });
});

describe('location records written as JSON text', () => {
  it('equal locationView of the stored rows, odd values included, and keyset pages are exact to the microsecond', async () => {
    const imei = '860000000092001';
    const [d] = await h.storage.db.query<{ id: number }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id`,
      [w.a.id, imei],
    );
    const [v] = await h.storage.db.query<{ id: number; uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, 'TEXT 1', $2) RETURNING id, uuid`,
      [w.a.id, imei],
    );
    await h.storage.db.query(`SELECT fleet_ensure_location_partition('2026-09-01'::date)`);
    // Fix times a microsecond apart (the keyset bound must not round), negative and huge course,
    // negative speed, NaN and NULL coordinates, NULL flags, string IO values with quotes.
    await h.storage.db.query(
      `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, course, altitude,
                              satellites, ignition, is_idle, digital_output1, digital_output2, io_elements)
       VALUES ($1, $2, $3, '2026-09-03 10:00:00.123456+00', 25.5, 55.25, -3, -90, 12.5, 7, true, false, 1, 0,
               '{"16": {"value": 1000}, "387": {"value": "a \\"quoted\\", text\\nline"}}'),
              ($1, $2, $3, '2026-09-03 10:00:00.123457+00', 'NaN', NULL, NULL, 450, NULL, NULL, NULL, NULL, NULL, 2, '{}'),
              ($1, $2, $3, '2026-09-03 10:00:00.124+00', -0.000001, 1e-7, 12.75, 359.5, -4, 0, false, true, 0, 1,
               '{"240": {"value": 0}}')`,
      [d!.id, v!.id, w.a.id],
    );
    const rows = await h.storage.db.query<LocationRow>(
      `SELECT * FROM locations WHERE device_id = $1 ORDER BY fix_time`,
      [d!.id],
    );
    const expected = rows.map((r) => JSON.parse(JSON.stringify(locationView(r, { vehicle_uuid: v!.uuid }))));
    const url = (page: number, limit: number) =>
      `/v1/device-locations/vehicle/locations?vehicle_uuid=${v!.uuid}&from=2026-09-03T00:00:00Z&to=2026-09-04T00:00:00Z&page=${page}&limit=${limit}`;
    const whole = await call(h.app, {
      method: 'GET',
      url: url(1, 500),
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^application\/json/);
    const body = whole.json() as { data: unknown[] };
    expect(body.data).toEqual(expected);
    expect(body.data[0]).toMatchObject({ created_at: '2026-09-03T10:00:00.123Z', speed: 0, heading: 270 });
    expect(body.data[1]).toMatchObject({ latitude: null, longitude: null, heading: 90, digital_output2: 0 });
    // One row per page: a walk that continues from each page's end sees every row once.
    const walked = [];
    for (let page = 1; page <= 3; page++) {
      const r = await call(h.app, {
        method: 'GET',
        url: url(page, 1),
        token: w.users.adminA.token,
        company: w.a.uuid,
      });
      walked.push(...(r.json() as { data: unknown[] }).data);
    }
    expect(walked).toEqual(expected);
  });
});

describe('share links', () => {
  it('a public link shows the vehicle until it expires; other companies cannot share it', async () => {
    const [v] = await h.storage.db.query<{ uuid: string }>(
      `SELECT uuid FROM vehicles WHERE license_plate_number = 'LIVE'`,
    );
    const foreign = await call(h.app, {
      method: 'POST',
      url: `/v1/vehicles/${v!.uuid}/share`,
      token: w.users.adminB.token,
      company: w.b.uuid,
      body: { expires_in_minutes: 30 },
    });
    expect(foreign.statusCode).toBe(404);
    const r = await call(h.app, {
      method: 'POST',
      url: `/v1/vehicles/${v!.uuid}/share`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { expires_in_minutes: 30 },
    });
    expect(r.statusCode).toBe(200);
    const { token } = r.json().data;
    const shown = await h.app.inject({ method: 'GET', url: `/v1/share/${token}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toMatchObject({
      vehicle: { license_plate_number: 'LIVE' },
      live_status: 'live',
    });
    h.clock.now = new Date(now.getTime() + 31 * 60_000);
    expect((await h.app.inject({ method: 'GET', url: `/v1/share/${token}` })).statusCode).toBe(404);
    h.clock.now = now;
  });
});
