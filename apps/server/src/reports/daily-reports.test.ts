import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { inflateRawSync } from 'node:zlib';
import {
  driverActivityReportRowSchema,
  eventReportRowSchema,
  reportExportJobSchema,
  reportResponseSchema,
  routeReportRowSchema,
  salikMonthlyReportRowSchema,
  summaryReportRowSchema,
  tripListReportRowSchema,
  utilisationReportRowSchema,
  type ReportKind,
} from '@fleet/api-client';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { TrackBuilder } from '../pipeline/common/track-builder';
import type { PositionRecord } from '../pipeline/common/types';
import { computeDayRollups, defaultRollupOptions, withCounts } from '../pipeline/rollups/rollups';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import { tripsForDay } from '../pipeline/trips/trips';
import { registerReportRoutes } from './routes';
import type { ExportRunner } from './exports/jobs';

/**
 * The everyday reports (trip list, summary, events, route + GPX/KML, utilisation, driver activity,
 * Salik per month) end to end over HTTP. The same scripted day goes through the pipeline's trip and
 * rollup code and its SQL writer for a vehicle of company A (in station 1, driven by a driver) and for
 * one of company B; every report must show A's figures to A and none of B's, and B's only to B.
 * Runs on PGlite, and on PostgreSQL with FLEET_TEST_DB=pg and DATABASE_URL.
 */

// 2026-01-05 08:00 in Dubai (UTC+4) = 04:00Z
const T0 = Date.UTC(2026, 0, 5, 4, 0);
const DAY = '2026-01-05';
const TZ = 'Asia/Dubai';
const FROM = '2026-01-04T20:00:00.000Z';
const TO = '2026-01-05T20:00:00.000Z';
const range = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;

let storage: Storage;
let app: FastifyInstance;
let runner: ExportRunner;
let w: World;
let vehicleA: string;
let vehicleB: string;
const clock = { now: new Date('2026-01-06T06:00:00Z') };

/** An hour's drive at 60 km/h going east, then parked 30 minutes, then a 20 minute drive back. */
function scriptedDay(): PositionRecord[] {
  const b = new TrackBuilder(T0, 25.2, 55.3, { stepS: 60 });
  for (let k = 0; k < 60; k++) b.drive(60, 60, 90, {});
  b.park(1800, false, {});
  for (let k = 0; k < 20; k++) b.drive(60, 60, 270, {});
  b.park(600, false, {});
  return b.records();
}

async function seedVehicle(
  db: Storage['db'],
  companyId: number,
  companyUuid: string,
  plate: string,
  imei: string,
  station: number | null,
) {
  const [dev] = await db.query<{ uuid: string; id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING uuid, id`,
    [companyId, imei],
  );
  const [driver] = await db.query<{ id: number }>(
    `INSERT INTO drivers (company_id, first_name, last_name) VALUES ($1, 'Omar', $2) RETURNING id`,
    [companyId, plate],
  );
  const [v] = await db.query<{ uuid: string; id: number }>(
    `INSERT INTO vehicles (company_id, sub_company_id, license_plate_number, device_imei, driver_id)
     VALUES ($1, $2, $3, $4, $5) RETURNING uuid, id`,
    [companyId, station, plate, imei, driver!.id],
  );
  const store = new SqlPipelineStore(db);
  const records = scriptedDay();
  const det = tripsForDay(records, DAY, TZ);
  const opts = { ...defaultRollupOptions, timeZone: TZ };
  await store.replaceDeviceDay({ companyUuid, deviceUuid: dev!.uuid, vehicleUuid: v!.uuid }, DAY, det);
  await store.replaceRollups(
    { companyUuid, vehicleUuid: v!.uuid },
    withCounts(computeDayRollups(v!.uuid, records, DAY, opts), det.trips, [], opts),
  );
  for (const r of records) {
    await db.query(
      `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, course, ignition)
       VALUES ($1, $2, $3, to_timestamp($4 / 1000.0), $5, $6, $7, $8, $9)`,
      [dev!.id, v!.id, companyId, r.time, r.lat, r.lon, r.speed, r.heading ?? null, r.ignition ?? null],
    );
  }
  // Two Salik crossings (one charged), an overspeed alert delivered to two users (one episode).
  await db.query(
    `INSERT INTO salik_events (company_id, vehicle_id, gate, fee, at, data)
     VALUES ($1, $2, 'AL_BARSHA', 4, $3, '{"currency":"AED"}'), ($1, $2, 'AL_BARSHA', 0, $4, '{"currency":"AED"}')`,
    [companyId, v!.id, new Date(T0 + 10 * 60_000), new Date(T0 + 70 * 60_000)],
  );
  // Every member of the company receives the alert, each copy in its own words.
  const users = await db.query<{ user_id: number }>(
    'SELECT DISTINCT user_id FROM memberships WHERE company_id = $1 ORDER BY user_id',
    [companyId],
  );
  for (const u of users) {
    await db.query(
      `INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, violation_value, data, device_created_at)
       VALUES ($1, $2, $3, 'overspeed', 'Overspeed', 'Speed 131 km/h for ' || $2::bigint::text, '131', $4::jsonb, $5)`,
      [
        companyId,
        u.user_id,
        v!.id,
        JSON.stringify({ dedupe_key: `os:${plate}` }),
        new Date(T0 + 30 * 60_000),
      ],
    );
  }
  const [g] = await db.query<{ uuid: string }>(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng)
     VALUES ($1, $2, 'circle', '{"shape":"circle","center":{"latitude":25.2,"longitude":55.3},"radius":300}',
             25.19, 55.29, 25.21, 55.31) RETURNING uuid`,
    [companyId, `Depot ${plate}`],
  );
  const base = { geofenceId: g!.uuid, vehicleId: v!.uuid, deviceId: 'd', lat: 25.2, lon: 55.3 };
  await store.insertGeofenceEvents(companyUuid, [
    { ...base, kind: 'exit', time: T0 + 60_000, enteredAt: T0 - 3600_000, dwellS: 3660 },
    { ...base, kind: 'entry', time: T0 + 100 * 60_000 },
  ]);
  return v!.uuid;
}

beforeAll(async () => {
  storage = await openTestStorage('daily-reports');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' });
  app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    now: () => clock.now,
    logger: false,
  });
  runner = registerReportRoutes(app, { rollupTimeZone: TZ });
  await app.ready();
  w = await buildWorld(storage.db);
  vehicleA = await seedVehicle(storage.db, w.a.id, w.a.uuid, 'A 100', '350000000000101', w.a.stations[0]!.id);
  vehicleB = await seedVehicle(storage.db, w.b.id, w.b.uuid, 'B 200', '350000000000202', null);
}, 180_000);

afterAll(async () => {
  await runner?.idle();
  await app?.close();
  await storage?.close();
});

type Who = 'a' | 'b' | 'branchA2';
function who(x: Who) {
  if (x === 'b') return { token: w.users.adminB.token, company: w.b.uuid };
  if (x === 'branchA2') return { token: w.users.branchA2.token, company: w.a.uuid };
  return { token: w.users.adminA.token, company: w.a.uuid };
}

async function report<T>(
  kind: ReportKind,
  row: { array(): { parse(v: unknown): T[] } },
  extra = '',
  as: Who = 'a',
) {
  const res = await call(app, {
    method: 'GET',
    url: `/v1/reports/${kind}?${range}${extra}`,
    ...who(as),
    headers: { timezone: TZ },
  });
  expect(res.statusCode, `${kind}${extra} as ${as}: ${res.body}`).toBe(200);
  const body = reportResponseSchema(kind).parse(res.json());
  return { total: body.total, data: row.array().parse(body.data), raw: res.body };
}

describe('everyday reports', () => {
  it('trip list: each trip with start/end time and place, km, duration, km/h and the driver', async () => {
    const { total, data } = await report('trip-list', tripListReportRowSchema);
    expect(total).toBe(2);
    const [first, second] = data;
    expect(first!.vehicle.license_plate_number).toBe('A 100');
    expect(first!.driver?.name).toBe('Omar A 100');
    expect(first!.distance_km).toBeGreaterThan(55);
    expect(first!.distance_km).toBeLessThan(65);
    expect(first!.duration_seconds).toBeGreaterThan(3300);
    expect(first!.max_speed).toBeGreaterThanOrEqual(59);
    expect(first!.average_speed).toBeGreaterThan(50);
    expect(first!.start!.latitude).toBeCloseTo(25.2, 2);
    expect(first!.end!.longitude).toBeGreaterThan(55.8);
    expect(Date.parse(first!.started_at)).toBeLessThan(Date.parse(second!.started_at));
    expect(second!.distance_km).toBeGreaterThan(15);
    expect(second!.distance_km).toBeLessThan(25);
  });

  it('summary: one row per vehicle and day with km, hours, km/h and violations', async () => {
    const { total, data } = await report('summary', summaryReportRowSchema);
    expect(total).toBe(1);
    const row = data[0]!;
    expect(row.day).toBe(DAY);
    expect(row.distance_km).toBeGreaterThan(75);
    expect(row.distance_km).toBeLessThan(85);
    expect(row.driving_hours).toBeGreaterThan(1.2);
    expect(row.driving_hours).toBeLessThan(1.5);
    expect(row.trips).toBe(2);
    expect(row.max_speed).toBeGreaterThanOrEqual(59);
  });

  it('events: the alert once (not once per recipient) and each geofence entry and exit, newest first', async () => {
    const { total, data } = await report('events', eventReportRowSchema);
    expect(total).toBe(3);
    expect(data.map((e) => e.kind)).toEqual(['geofence_enter', 'overspeed', 'geofence_exit']);
    expect(data[1]!.value).toBe(131);
    // The reader's own copy of the alert (their language), not another recipient's.
    expect(data[1]!.message).toBe(`Speed 131 km/h for ${w.users.adminA.id}`);
    expect(data[0]!.geofence_name).toBe('Depot A 100');
  });

  it('route: positions of the chosen vehicle in time order; a vehicle is required', async () => {
    const { total, data } = await report(
      'route',
      routeReportRowSchema,
      `&vehicle_uuid=${vehicleA}&limit=500`,
    );
    expect(total).toBe(scriptedDay().length);
    expect(data[0]!.latitude).toBeCloseTo(25.2, 3);
    expect(data.every((p, i) => i === 0 || p.at >= data[i - 1]!.at)).toBe(true);
    const missing = await call(app, {
      method: 'GET',
      url: `/v1/reports/route?${range}`,
      ...who('a'),
      headers: { 'x-locale': 'ar' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.vehicle_uuid[0]).toMatch(/مطلوب/);
  });

  it('route files: GPX 1.1 and KML 2.2 with every position', async () => {
    const n = scriptedDay().length;
    const gpx = await call(app, {
      method: 'GET',
      url: `/v1/reports/route/file?${range}&vehicle_uuid=${vehicleA}&format=gpx`,
      ...who('a'),
    });
    expect(gpx.statusCode, gpx.body).toBe(200);
    expect(gpx.headers['content-type']).toContain('application/gpx+xml');
    expect(gpx.headers['content-disposition']).toContain('route-A_100.gpx');
    expect(gpx.body).toContain('<gpx version="1.1"');
    const pts = [...gpx.body.matchAll(/<trkpt lat="([\d.]+)" lon="([\d.]+)"><time>([^<]+)<\/time>/g)];
    expect(pts).toHaveLength(n);
    expect(Number(pts[0]![1])).toBeCloseTo(25.2, 3);
    expect(pts[0]![3]).toBe(new Date(T0).toISOString());
    expect(gpx.body.trim().endsWith('</gpx>')).toBe(true);
    const kml = await call(app, {
      method: 'GET',
      url: `/v1/reports/route/file?${range}&vehicle_uuid=${vehicleA}&format=kml`,
      ...who('a'),
    });
    expect(kml.statusCode).toBe(200);
    expect(kml.body.match(/<when>/g)).toHaveLength(n);
    expect(kml.body.match(/<gx:coord>/g)).toHaveLength(n);
    // Every <when> comes before the first <gx:coord> (gx:Track's order).
    expect(kml.body.lastIndexOf('<when>')).toBeLessThan(kml.body.indexOf('<gx:coord>'));
  });

  it('utilisation: the share of selected vehicles that moved each day', async () => {
    const { total, data } = await report('utilisation', utilisationReportRowSchema);
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({ day: DAY, vehicles: 1, used_vehicles: 1, share_percent: 100 });
    // A vehicle that did not move halves the share.
    const [idle] = await storage.db.query<{ uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number) VALUES ($1, 'A 999') RETURNING uuid`,
      [w.a.id],
    );
    const again = await report('utilisation', utilisationReportRowSchema);
    expect(again.data[0]).toMatchObject({ vehicles: 2, used_vehicles: 1, share_percent: 50 });
    await storage.db.query('DELETE FROM vehicles WHERE uuid = $1', [idle!.uuid]);
  });

  it('driver activity: the assigned driver with days, trips, km and hours', async () => {
    const { total, data } = await report('driver-activity', driverActivityReportRowSchema);
    expect(total).toBe(1);
    expect(data[0]!.driver.name).toBe('Omar A 100');
    expect(data[0]!.active_days).toBe(1);
    expect(data[0]!.trips).toBe(2);
  });

  it('Salik per vehicle and month in AED', async () => {
    const { data } = await report('salik-monthly', salikMonthlyReportRowSchema);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      month: '2026-01',
      crossings: 2,
      charged_crossings: 1,
      total_fee: 4,
      currency: 'AED',
    });
  });
});

describe('tenancy and selection', () => {
  const kinds: ReportKind[] = [
    'trip-list',
    'summary',
    'events',
    'utilisation',
    'driver-activity',
    'salik-monthly',
  ];

  it("another company's vehicles never show, and each company sees its own", async () => {
    for (const kind of kinds) {
      const a = await report(kind, { array: () => ({ parse: (v: unknown) => v as unknown[] }) });
      expect(a.raw, kind).not.toContain('B 200');
      const b = await report(kind, { array: () => ({ parse: (v: unknown) => v as unknown[] }) }, '', 'b');
      expect(b.raw, kind).not.toContain('A 100');
      if (kind !== 'utilisation') expect(b.raw, kind).toContain('B 200');
    }
    // B's vehicle asked for by uuid from company A: an empty route, and no track file.
    const route = await report('route', routeReportRowSchema, `&vehicle_uuid=${vehicleB}`);
    expect(route.total).toBe(0);
    const file = await call(app, {
      method: 'GET',
      url: `/v1/reports/route/file?${range}&vehicle_uuid=${vehicleB}&format=gpx`,
      ...who('a'),
    });
    expect(file.statusCode).toBe(404);
    expect(file.body).not.toContain('trkpt');
  });

  it('a branch admin of another branch sees none of the vehicles of station 1', async () => {
    for (const kind of kinds) {
      const r = await report(
        kind,
        { array: () => ({ parse: (v: unknown) => v as unknown[] }) },
        '',
        'branchA2',
      );
      expect(r.raw, kind).not.toContain('A 100');
    }
  });

  it('a station narrows the selection; a foreign station selects nothing', async () => {
    const mine = await report('summary', summaryReportRowSchema, `&station_uuid=${w.a.stations[0]!.uuid}`);
    expect(mine.total).toBe(1);
    const other = await report('summary', summaryReportRowSchema, `&station_uuid=${w.a.stations[1]!.uuid}`);
    expect(other.total).toBe(0);
    const foreign = await report(
      'trip-list',
      tripListReportRowSchema,
      `&station_uuid=${w.b.stations[0]!.uuid}`,
    );
    expect(foreign.total).toBe(0);
  });
});

async function exportFile(report: ReportKind, format: 'csv' | 'xlsx' | 'pdf', locale = 'en', extra = {}) {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/reports/exports',
    ...who('a'),
    headers: { timezone: TZ, 'x-locale': locale },
    body: { report, format, from: FROM, to: TO, ...extra },
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = reportExportJobSchema.parse(res.json().data);
  await runner.idle();
  const done = await call(app, { method: 'GET', url: `/v1/reports/exports/${job.uuid}`, ...who('a') });
  const finished = reportExportJobSchema.parse(done.json().data);
  expect(finished, JSON.stringify(finished)).toMatchObject({ status: 'completed', progress: 100 });
  const file = await call(app, {
    method: 'GET',
    url: `/v1/file/exports/${finished.file}`,
    token: who('a').token,
  });
  expect(file.statusCode).toBe(200);
  return file.rawPayload;
}

function unzip(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.set(name, inflateRawSync(buf.subarray(dataAt, dataAt + size)).toString('utf8'));
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return out;
}

describe('exports of the everyday reports', () => {
  it('trip list CSV: a row per trip with the driver and units in the headers', async () => {
    const csv = (await exportFile('trip-list', 'csv')).toString('utf8').slice(1).split('\r\n');
    expect(csv[0]).toBe(
      'Vehicle,Driver,Start,Start latitude,Start longitude,Start address,End,End latitude,End longitude,End address,Distance (km),Duration (h),Max speed (km/h),Average speed (km/h),Idle (h)',
    );
    expect(csv).toHaveLength(4); // header, two trips, the final CRLF
    const cells = csv[1]!.split(',');
    expect(cells.slice(0, 3)).toEqual(['A 100', 'Omar A 100', '2026-01-05 08:00']);
    // No geocoder here and nothing cached: the address cells are empty, the coordinates are there.
    expect(cells[5]).toBe('');
    expect(cells[9]).toBe('');
    expect(Number(cells[10])).toBeGreaterThan(55);
  });

  it('summary XLSX (Arabic): the sheet holds the day and the figures, right-to-left', async () => {
    const parts = unzip(await exportFile('summary', 'xlsx', 'ar'));
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('rightToLeft="1"');
    expect(sheet).toContain('المسافة (كم)');
    expect(sheet).toContain(DAY);
    expect(sheet).toContain('A 100');
    expect(sheet).not.toContain('B 200');
  });

  it('events PDF: the text holds the title and the events', async () => {
    const pdf = await exportFile('events', 'pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Events');
    expect(text).toContain('overspeed');
    expect(text).toContain('Depot A 100');
  });

  it('route export needs a vehicle, then writes its positions', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/reports/exports',
      ...who('a'),
      body: { report: 'route', format: 'csv', from: FROM, to: TO },
    });
    expect(res.statusCode).toBe(422);
    const csv = (await exportFile('route', 'csv', 'en', { vehicle_uuid: vehicleA }))
      .toString('utf8')
      .split('\r\n');
    expect(csv.length).toBe(scriptedDay().length + 2);
  });
});

/** Text of a PDF through pdfjs (the same extraction a reader's copy-paste gets). */
async function pdfText(pdf: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  let out = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    out += content.items.map((it) => ('str' in it ? it.str : '')).join(' ') + '\n';
  }
  return out;
}
