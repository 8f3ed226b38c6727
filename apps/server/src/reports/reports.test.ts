import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  dashboardSchema,
  engineReportRowSchema,
  fuelReportRowSchema,
  geofenceVisitReportRowSchema,
  reportExportJobSchema,
  reportResponseSchema,
  wheelReportRowSchema,
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
import { ExportRunner, MAX_ATTEMPTS, TAKEOVER_MS } from './exports/jobs';
import { findFonts } from './exports/pdf';

/**
 * Reports end to end over HTTP: a scripted day of one vehicle goes through the pipeline's rollup and
 * trip code and its SQL writer, then the report endpoints and the export jobs read it back. Runs on
 * PGlite, and on PostgreSQL with FLEET_TEST_DB=pg and DATABASE_URL.
 */

// 2026-01-05 08:00 in Dubai (UTC+4) = 04:00Z
const T0 = Date.UTC(2026, 0, 5, 4, 0);
const DAY = '2026-01-05';
const TZ = 'Asia/Dubai';

let storage: Storage;
let app: FastifyInstance;
let runner: ExportRunner;
let w: World;
let vehicleUuid: string;
let token: string;
let company: string;
const clock = { now: new Date('2026-01-06T06:00:00Z') };

/**
 * The scripted day: an hour's drive at 60 km/h burning 0.2 L a minute (IO 84 in 0.1 L, IO 89 percent of a
 * 100 L tank) with two over-revving bursts (IO 85 above 3,500), engine temperature 85-95 °C (IO 25 in
 * 0.01 °C), tyre pressures; then parked: a 40 L refuel, a 10 L drop, parked again.
 */
function scriptedDay(): PositionRecord[] {
  const b = new TrackBuilder(T0, 25.2, 55.3, { stepS: 60 });
  let level = 50;
  const fuel = (l: number) => ({ 84: Math.round(l * 10), 89: Math.round(l) });
  const tyres = (k: number) => ({
    11001: 240 - k * 0.1,
    11101: 30 + k * 0.1,
    11002: 238,
    11003: 250,
    11004: 251,
  });
  for (let k = 0; k < 60; k++) {
    const rpm = (k >= 10 && k < 13) || (k >= 30 && k < 32) ? 4000 : 2000;
    b.drive(60, 60, 90, { ...fuel((level -= 0.2)), 85: rpm, 25: 8500 + k * 15, ...tyres(k) });
  }
  b.park(600, false, fuel(level));
  for (let k = 0; k < 5; k++) b.park(60, false, fuel((level += 8)));
  b.park(600, false, fuel(level));
  for (let k = 0; k < 5; k++) b.park(60, false, fuel((level -= 2)));
  b.park(1200, false, fuel(level));
  return b.records();
}

beforeAll(async () => {
  storage = await openTestStorage('reports');
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
  const db = storage.db;
  w = await buildWorld(db);
  token = w.users.adminA.token;
  company = w.a.uuid;
  const [v] = await db.query<{ uuid: string; id: number }>(
    `INSERT INTO vehicles (company_id, license_plate_number, data) VALUES ($1, 'A 12345', '{"fuel_tank_capacity": 100}')
     RETURNING uuid, id`,
    [w.a.id],
  );
  vehicleUuid = v!.uuid;
  // Another company's vehicle with a day of rollups: never visible to company A.
  const [other] = await db.query<{ uuid: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number) VALUES ($1, 'B 1') RETURNING uuid`,
    [w.b.id],
  );
  const store = new SqlPipelineStore(db);
  const records = scriptedDay();
  const trips = tripsForDay(records, DAY, TZ).trips;
  const opts = { ...defaultRollupOptions, timeZone: TZ };
  for (const [uuid, companyUuid] of [
    [vehicleUuid, w.a.uuid],
    [other!.uuid, w.b.uuid],
  ] as const) {
    await store.replaceRollups(
      { companyUuid, vehicleUuid: uuid },
      withCounts(computeDayRollups(uuid, records, DAY, opts), trips, [], opts),
    );
  }
  const [g] = await db.query<{ uuid: string }>(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng)
     VALUES ($1, 'Depot مستودع', 'circle', '{"shape":"circle","center":{"latitude":25.2,"longitude":55.3},"radius":300}',
             25.19, 55.29, 25.21, 55.31) RETURNING uuid`,
    [w.a.id],
  );
  const base = { geofenceId: g!.uuid, vehicleId: vehicleUuid, deviceId: 'd', lat: 25.2, lon: 55.3 };
  const enter = T0 + 61 * 60_000;
  await store.insertGeofenceEvents(w.a.uuid, [
    { ...base, kind: 'entry', time: enter },
    { ...base, kind: 'exit', time: enter + 1800_000, enteredAt: enter, dwellS: 1800 },
    { ...base, kind: 'entry', time: enter + 3000_000 },
  ]);
}, 120_000);

afterAll(async () => {
  await runner?.idle();
  await app?.close();
  await storage?.close();
});

const dayRange = `from=${encodeURIComponent('2026-01-04T20:00:00.000Z')}&to=${encodeURIComponent('2026-01-05T20:00:00.000Z')}`;

async function get(url: string, timezone = TZ) {
  const res = await call(app, { method: 'GET', url, token, company, headers: { timezone } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A report of the scripted day, checked against the contract's page schema and parsed with its row schema. */
async function report<T>(kind: ReportKind, row: { array(): { parse(v: unknown): T[] } }) {
  const body = reportResponseSchema(kind).parse(await get(`/v1/reports/${kind}?${dayRange}`));
  return { total: body.total, data: row.array().parse(body.data) };
}

describe('reports from rollups', () => {
  it('fuel: used litres, consumption, refuel and drop with litres, time and place, level in litres', async () => {
    const body = await report('fuel', fuelReportRowSchema);
    expect(body.total).toBe(1);
    const row = body.data[0]!;
    expect(row.vehicle.license_plate_number).toBe('A 12345');
    expect(row.distance_km).toBeCloseTo(60, 0);
    expect(row.fuel_used_litres).toBeGreaterThan(11);
    expect(row.fuel_used_litres).toBeLessThan(12.5);
    expect(row.consumption_per_100km).toBeGreaterThan(18.5);
    expect(row.consumption_per_100km).toBeLessThan(20.5);
    expect(row.consumption_per_hour).toBeGreaterThan(11);
    expect(row.consumption_per_hour).toBeLessThan(12.5);
    expect(row.refuels.map((e) => e.litres)).toEqual([40]);
    expect(row.drops.map((e) => e.litres)).toEqual([10]);
    const refuel = row.refuels[0]!;
    // The refuel starts at the last level sample before the rise: after the drive and 9 parked minutes.
    expect(Date.parse(refuel.at)).toBeGreaterThanOrEqual(T0 + 69 * 60_000);
    expect(Date.parse(refuel.at)).toBeLessThan(T0 + 76 * 60_000);
    expect(refuel.longitude).toBeGreaterThan(55.8); // 60 km east of the start
    // Hourly level points in litres (the device reports IO 84, which wins over the percent of IO 89),
    // falling while driving and ending after refuel and drop.
    // 08:00 Dubai: 50 L - 12 L driven = 38 L; 09:00: +40 refuel, -10 drop = 68 L.
    expect(row.level_unit).toBe('litres');
    expect(row.level.map((p) => [p.at, Number(p.value)])).toEqual([
      ['2026-01-05T04:00:00.000Z', 38],
      ['2026-01-05T05:00:00.000Z', 68],
    ]);
  });

  it('engine: engine hours, over-revving episodes, max RPM and temperature, hourly series', async () => {
    const body = await report('engine', engineReportRowSchema);
    const row = body.data[0]!;
    expect(row.engine_hours).toBe(1);
    expect(row.over_rev_events).toBe(2);
    expect(row.max_rpm).toBe(4000);
    expect(row.max_temperature).toBe(93.9); // 93.85 °C (IO 25 = 9385 x 0.01), one decimal
    expect(row.rpm.length).toBeGreaterThanOrEqual(1);
    expect(row.rpm[0]!.value).toBeGreaterThan(2000);
    expect(row.temperature[0]!.value).toBeGreaterThan(85);
  });

  it('wheel: the last pressure and temperature of each tyre', async () => {
    const body = await report('wheel', wheelReportRowSchema);
    expect(body.data[0]!.tyres.map((t) => [t.position, t.pressure_kpa, t.temperature_c])).toEqual([
      ['FL', 234.1, 35.9],
      ['FR', 238, null],
      ['RL', 250, null],
      ['RR', 251, null],
    ]);
  });

  it('geofence visits: a closed visit with dwell and an open one', async () => {
    const body = await report('geofence-visits', geofenceVisitReportRowSchema);
    expect(body.data.map((v) => [v.geofence_name, v.dwell_seconds, v.exited_at === null])).toEqual([
      ['Depot مستودع', 1800, false],
      ['Depot مستودع', null, true],
    ]);
  });

  it('day bucketing follows the request time zone (hourly rollups at the edges)', async () => {
    // The same UTC day seen from UTC: 00:00Z-24:00Z covers 04:00-04:00 Dubai, i.e. the whole scripted day.
    const utc = `from=${encodeURIComponent('2026-01-05T00:00:00Z')}&to=${encodeURIComponent('2026-01-06T00:00:00Z')}`;
    const trips = await get(`/v1/reports/trips?${utc}`, 'UTC');
    expect(trips.data[0].distance_km).toBeCloseTo(60, 0);
    // Edges are cut by the hourly rows: to 05:00Z (09:00 Dubai) keeps the drive, to 04:00Z drops it.
    const half = `from=${encodeURIComponent('2026-01-05T00:00:00Z')}&to=${encodeURIComponent('2026-01-05T05:00:00Z')}`;
    expect((await get(`/v1/reports/trips?${half}`, 'UTC')).data[0].distance_km).toBeCloseTo(60, 0);
    const early = `from=${encodeURIComponent('2026-01-05T00:00:00Z')}&to=${encodeURIComponent('2026-01-05T04:00:00Z')}`;
    expect((await get(`/v1/reports/trips?${early}`, 'UTC')).total).toBe(0);
    // Dashboard series: the drive falls on 5 January in Dubai and in UTC, but on 4 January in Honolulu.
    const dubai = dashboardSchema.parse((await get('/v1/reports/dashboard?period=week')).data);
    // (Seven points each, one per local day; only the drive's day is not zero.)
    const driven = (series: { at: string; distance_km: number }[]) =>
      series.filter((s) => s.distance_km > 0).map((s) => [s.at, s.distance_km]);
    expect(dubai.series).toHaveLength(7);
    expect(driven(dubai.series)).toEqual([['2026-01-04T20:00:00.000Z', 60]]);
    const hnl = dashboardSchema.parse(
      (await get('/v1/reports/dashboard?period=week', 'Pacific/Honolulu')).data,
    );
    expect(hnl.series).toHaveLength(7);
    expect(driven(hnl.series)).toEqual([['2026-01-04T10:00:00.000Z', 60]]);
    expect(hnl.current.distance_km).toBe(60);
  });

  it('another company and a vehicle outside the user scope see nothing', async () => {
    const res = await call(app, {
      method: 'GET',
      url: `/v1/reports/fuel?${dayRange}`,
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(
      res
        .json()
        .data.map((r: { vehicle: { license_plate_number: string } }) => r.vehicle.license_plate_number),
    ).toEqual(['B 1']);
    const scoped = await call(app, {
      method: 'GET',
      url: `/v1/reports/engine?${dayRange}`,
      token: w.users.branchA1.token,
      company,
    });
    expect(scoped.json().total).toBe(0);
  });
});

async function exportFile(format: 'csv' | 'xlsx' | 'pdf', locale = 'en') {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/reports/exports',
    token,
    company,
    headers: { timezone: TZ, 'x-locale': locale },
    body: { report: 'fuel', format, from: '2026-01-04T20:00:00.000Z', to: '2026-01-05T20:00:00.000Z' },
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = reportExportJobSchema.parse(res.json().data);
  expect(['queued', 'running']).toContain(job.status);
  await runner.idle();
  const done = await call(app, { method: 'GET', url: `/v1/reports/exports/${job.uuid}`, token, company });
  const finished = reportExportJobSchema.parse(done.json().data);
  expect(finished).toMatchObject({ status: 'completed', progress: 100 });
  expect(finished.file).toMatch(new RegExp(`^fuel-[0-9a-f]{32}\\.${format}$`));
  // Someone else of the same company cannot poll the job.
  const other = await call(app, {
    method: 'GET',
    url: `/v1/reports/exports/${job.uuid}`,
    token: w.users.multi.token,
    company,
  });
  expect(other.statusCode).toBe(404);
  // Nor can an admin of another company, with their own company header.
  const foreign = await call(app, {
    method: 'GET',
    url: `/v1/reports/exports/${job.uuid}`,
    token: w.users.adminB.token,
    company: w.b.uuid,
  });
  expect(foreign.statusCode).toBe(404);
  expect(foreign.body).not.toContain(job.uuid);
  const file = await call(app, { method: 'GET', url: `/v1/file/exports/${finished.file}`, token });
  expect(file.statusCode).toBe(200);
  // Without a token the file is not served.
  expect((await call(app, { method: 'GET', url: `/v1/file/exports/${finished.file}` })).statusCode).toBe(401);
  return { body: file.rawPayload, type: String(file.headers['content-type']) };
}

/** Entries of a ZIP archive read from its central directory, inflated (checks our writer from outside). */
function unzip(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.set(name, inflateRawSync(buf.subarray(dataAt, dataAt + size)).toString('utf8'));
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

describe('exports', () => {
  it('CSV: UTF-8 with BOM, RFC 4180 quoting, Arabic headers', async () => {
    const { body, type } = await exportFile('csv', 'ar');
    expect(type).toContain('text/csv');
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]!.startsWith('المركبة,الوقود المستهلك (لتر)')).toBe(true);
    const cells = lines[1]!.split(',');
    expect(cells[0]).toBe('A 12345');
    expect(cells.slice(5, 9)).toEqual(['1', '40', '1', '10']);
    expect(lines.at(-1)).toBe('');
  });

  it('XLSX: a valid OOXML zip (python zipfile -t) whose sheet holds the figures', async () => {
    const { body, type } = await exportFile('xlsx');
    expect(type).toContain('spreadsheetml');
    const dir = mkdtempSync(join(tmpdir(), 'xlsx-'));
    const path = join(dir, 'r.xlsx');
    writeFileSync(path, body);
    try {
      execFileSync('python3', ['-m', 'zipfile', '-t', path], { stdio: 'pipe' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // no python: the parse below still checks
    }
    const parts = unzip(body);
    expect([...parts.keys()]).toEqual(
      expect.arrayContaining([
        '[Content_Types].xml',
        '_rels/.rels',
        'xl/workbook.xml',
        'xl/worksheets/sheet1.xml',
      ]),
    );
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<t xml:space="preserve">A 12345</t>');
    expect(sheet).toMatch(/<c r="G2"><v>40<\/v><\/c>/);
    expect(parts.get('xl/workbook.xml')).toContain('name="Fuel report"');
  });

  it('PDF: a PDF document with the Arabic font embedded', async () => {
    const { body, type } = await exportFile('pdf', 'ar');
    expect(type).toBe('application/pdf');
    const text = body.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // The bundled Arabic face (Noto Sans Arabic from npm) is embedded as a subset for the Arabic headers.
    expect(findFonts({}).arabic).toMatch(/noto-sans-arabic/);
    expect(text).toMatch(/\/FontName \/[A-Z]{6}\+NotoSansArabic/);
  });

  it('each export requested is in the activity log: who, report kind, format, range; not in B', async () => {
    const [v] = await storage.db.query<{ uuid: string }>(
      `SELECT uuid FROM vehicles WHERE license_plate_number = 'A 12345'`,
    );
    const body = {
      report: 'trips',
      format: 'csv',
      from: '2026-01-04T20:00:00.000Z',
      to: '2026-01-05T20:00:00.000Z',
      vehicle_uuid: v!.uuid,
    };
    const res = await call(app, { method: 'POST', url: '/v1/reports/exports', token, company, body });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json().data.uuid as string;
    await runner.idle();
    const log = await call(app, {
      method: 'GET',
      url: `/v1/activity-log?action=exported&subject_uuid=${job}`,
      token,
      company,
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data).toEqual([
      expect.objectContaining({
        action: 'exported',
        subject_type: 'report',
        subject_uuid: job,
        user: expect.objectContaining({ uuid: w.users.adminA.uuid }),
        after: { report: 'trips', format: 'csv', from: body.from, to: body.to, vehicle_uuid: v!.uuid },
      }),
    ]);
    // A refused request (range backwards) is not logged.
    const bad = await call(app, {
      method: 'POST',
      url: '/v1/reports/exports',
      token,
      company,
      body: { ...body, from: body.to, to: body.from },
    });
    expect(bad.statusCode).toBe(422);
    const all = await call(app, {
      method: 'GET',
      url: '/v1/activity-log?action=exported&limit=100',
      token,
      company,
    });
    expect(
      all.json().data.filter((e: { after: { report: string } }) => e.after.report === 'trips'),
    ).toHaveLength(1);
    // Company B's admin does not see it.
    const b = await call(app, {
      method: 'GET',
      url: '/v1/activity-log?action=exported',
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(b.json().data).toEqual([]);
  });

  it('every report kind exports, and progress only moves forward to 100', async () => {
    const seen: number[] = [];
    const db = storage.db;
    const query = db.query.bind(db);
    // Record the progress the runner writes (the job table is the only place progress lives).
    db.query = (async (sql: string, params?: unknown[]) => {
      // The claim starts a run at 0, each step writes its progress; completion (100, in the transaction
      // that stores the file) is read back from the job below.
      if (/UPDATE report_exports SET progress = \$3/.test(sql)) seen.push(Number(params![2]));
      const rows = await query(sql, params);
      if (/SET status = 'running', progress = 0/.test(sql) && rows.length > 0) seen.push(0);
      return rows;
    }) as typeof db.query;
    try {
      const kinds = [
        'fuel',
        'engine',
        'wheel',
        'trips',
        'stops',
        'idling',
        'geofence-visits',
        'salik',
        'violations',
      ];
      for (const report of kinds) {
        const res = await call(app, {
          method: 'POST',
          url: '/v1/reports/exports',
          token,
          company,
          body: { report, format: 'csv', from: '2026-01-04T20:00:00.000Z', to: '2026-01-05T20:00:00.000Z' },
        });
        expect(res.statusCode, res.body).toBe(202);
        await runner.idle();
        const job = (
          await call(app, {
            method: 'GET',
            url: `/v1/reports/exports/${res.json().data.uuid}`,
            token,
            company,
          })
        ).json().data;
        expect(job.status, `${report}: ${job.error}`).toBe('completed');
        seen.push(job.progress);
        const csv = (await call(app, { method: 'GET', url: `/v1/file/exports/${job.file}`, token })).body;
        expect(csv.split('\r\n').length, report).toBeGreaterThanOrEqual(2);
      }
    } finally {
      db.query = query;
    }
    expect(seen.length).toBeGreaterThanOrEqual(9 * 4);
    for (let i = 1; i < seen.length; i++)
      if (seen[i - 1] !== 100) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(9 * 2);
  });

  /** A job row as a runner of another process would have left it. */
  async function leftJob(status: 'queued' | 'running', attempts: number, silentMs: number, locale = 'en') {
    const [row] = await storage.db.query<{ uuid: string }>(
      `INSERT INTO report_exports (company_id, user_id, report, format, params, status, attempts, heartbeat_at, created_at)
       VALUES ($1, $2, 'fuel', 'csv', $3::jsonb, $4, $5, $6, $7) RETURNING uuid`,
      [
        w.a.id,
        w.users.adminA.id,
        JSON.stringify({
          from: '2026-01-04T20:00:00.000Z',
          to: '2026-01-05T20:00:00.000Z',
          vehicle_uuid: null,
          locale,
          timezone: TZ,
        }),
        status,
        attempts,
        new Date(clock.now.getTime() - silentMs),
        clock.now,
      ],
    );
    return row!.uuid;
  }
  const jobRow = async (uuid: string) =>
    (
      await storage.db.query<{
        status: string;
        attempts: number;
        error: string | null;
        file_name: string | null;
      }>('SELECT status, attempts, error, file_name FROM report_exports WHERE uuid = $1', [uuid])
    )[0]!;

  it('a job whose process died (heartbeat silent) is taken over and completed; a live one is left alone', async () => {
    const dead = await leftJob('running', 1, TAKEOVER_MS + 1000);
    const alive = await leftJob('running', 1, 5_000);
    runner.wake();
    await runner.idle();
    expect(await jobRow(dead)).toMatchObject({ status: 'completed', attempts: 2 });
    const file = (await jobRow(dead)).file_name!;
    const csv = await call(app, { method: 'GET', url: `/v1/file/exports/${file}`, token });
    expect(csv.statusCode).toBe(200);
    expect(await jobRow(alive)).toMatchObject({ status: 'running', attempts: 1, file_name: null });
    await storage.db.query(`DELETE FROM report_exports WHERE uuid = $1`, [alive]);
  });

  it('a job that went silent on every claim is failed as interrupted, in the requester language', async () => {
    const uuid = await leftJob('running', MAX_ATTEMPTS, TAKEOVER_MS + 1000, 'ar');
    runner.wake();
    await runner.idle();
    const row = await jobRow(uuid);
    expect(row.status).toBe('failed');
    expect(row.error).toBe('توقف التصدير قبل اكتماله. يرجى البدء من جديد.');
    const shown = await call(app, { method: 'GET', url: `/v1/reports/exports/${uuid}`, token, company });
    expect(shown.json().data).toMatchObject({ status: 'failed', error: row.error });
  });

  it('a slow runner that lost its claim stops and writes no file', async () => {
    const filesBefore = await storage.db.query('SELECT 1 FROM files');
    const uuid = await leftJob('queued', 0, 0);
    const db = storage.db;
    const query = db.query.bind(db);
    // Another runner takes the job over as soon as this one writes its first progress.
    let stolen = false;
    db.query = (async (sql: string, params?: unknown[]) => {
      if (!stolen && /UPDATE report_exports SET progress = \$3/.test(sql)) {
        stolen = true;
        await query(`UPDATE report_exports SET attempts = attempts + 1, heartbeat_at = $2 WHERE uuid = $1`, [
          uuid,
          clock.now,
        ]);
      }
      return query(sql, params);
    }) as typeof db.query;
    try {
      runner.wake();
      await runner.idle();
    } finally {
      db.query = query;
    }
    expect(stolen).toBe(true);
    expect(await jobRow(uuid)).toMatchObject({ status: 'running', attempts: 2, file_name: null });
    expect((await storage.db.query('SELECT 1 FROM files')).length).toBe(filesBefore.length);
    await storage.db.query(`DELETE FROM report_exports WHERE uuid = $1`, [uuid]);
  });

  it('two runners on one database share the queue: every job is claimed once and completed', async () => {
    const uuids = [];
    for (let i = 0; i < 4; i++) uuids.push(await leftJob('queued', 0, 0));
    const other = new ExportRunner(
      () => storage.db,
      TZ,
      () => clock.now,
      60_000,
    );
    runner.wake();
    other.wake();
    await Promise.all([runner.idle(), other.idle()]);
    await other.stop();
    for (const uuid of uuids) expect(await jobRow(uuid)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('bad input gets a clear error in the user language', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/reports/exports',
      token,
      company,
      headers: { 'x-locale': 'ar' },
      body: { report: 'fuel', format: 'docx', from: '2026-01-05T00:00:00Z', to: '2026-01-04T00:00:00Z' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain('format');
  });
});
