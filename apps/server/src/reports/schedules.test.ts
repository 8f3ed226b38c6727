import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { reportScheduleSchema } from '@fleet/api-client';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { registerReportRoutes } from './routes';
import type { ExportRunner } from './exports/jobs';
import { MemoryReportOutbox, nextRun, periodOf, runDueSchedules } from './schedules';

/**
 * Scheduled reports: the timing rules (next run, period covered) in a zone, and end to end over HTTP:
 * a user schedules a weekly summary in Arabic from Dubai, the runner renders it when due and hands it
 * to the outbox once, in Arabic with the figures of the week; other users and companies can neither see
 * nor stop it. PGlite, and PostgreSQL with FLEET_TEST_DB=pg.
 */

const TZ = 'Asia/Dubai';
const iso = (ms: number) => new Date(ms).toISOString();

describe('schedule timing', () => {
  // Wednesday 2026-01-07 10:00 in Dubai = 06:00Z
  const now = Date.UTC(2026, 0, 7, 6, 0);
  it('daily: the next local hour; covers yesterday', () => {
    const s = { frequency: 'daily', hour: 7, weekday: null, dayOfMonth: null, timeZone: TZ } as const;
    expect(iso(nextRun(s, now))).toBe('2026-01-08T03:00:00.000Z');
    const p = periodOf(s, nextRun(s, now));
    expect([iso(p.from), iso(p.to)]).toEqual(['2026-01-06T20:00:00.000Z', '2026-01-07T20:00:00.000Z']);
    // Before the hour the same day counts.
    expect(iso(nextRun({ ...s, hour: 12 }, now))).toBe('2026-01-07T08:00:00.000Z');
  });
  it('weekly: the chosen weekday; covers the 7 days before', () => {
    const s = { frequency: 'weekly', hour: 7, weekday: 0, dayOfMonth: null, timeZone: TZ } as const;
    expect(iso(nextRun(s, now))).toBe('2026-01-11T03:00:00.000Z'); // Sunday
    const p = periodOf(s, nextRun(s, now));
    expect([iso(p.from), iso(p.to)]).toEqual(['2026-01-03T20:00:00.000Z', '2026-01-10T20:00:00.000Z']);
  });
  it('monthly: the chosen day; covers the previous calendar month', () => {
    const s = { frequency: 'monthly', hour: 6, weekday: null, dayOfMonth: 1, timeZone: TZ } as const;
    expect(iso(nextRun(s, now))).toBe('2026-02-01T02:00:00.000Z');
    const p = periodOf(s, nextRun(s, now));
    expect([iso(p.from), iso(p.to)]).toEqual(['2025-12-31T20:00:00.000Z', '2026-01-31T20:00:00.000Z']);
    const jan = periodOf(s, Date.UTC(2026, 0, 1, 2, 0));
    expect(iso(jan.from)).toBe('2025-11-30T20:00:00.000Z');
  });
});

let storage: Storage;
let app: FastifyInstance;
let runner: ExportRunner;
let w: World;
const outbox = new MemoryReportOutbox();
const clock = { now: new Date(Date.UTC(2026, 0, 7, 6, 0)) };

beforeAll(async () => {
  storage = await openTestStorage('report-schedules');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' });
  app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    now: () => clock.now,
    logger: false,
  });
  runner = registerReportRoutes(app, { rollupTimeZone: TZ, outbox });
  await app.ready();
  w = await buildWorld(storage.db);
  // A vehicle of A that drove 42.5 km on Monday 2026-01-05, and one of B on the same day.
  for (const [company, plate, km] of [
    [w.a.id, 'A 1', 42.5],
    [w.b.id, 'B 1', 99],
  ] as const) {
    const [v] = await storage.db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, license_plate_number) VALUES ($1, $2) RETURNING id`,
      [company, plate],
    );
    await storage.db.query(
      `INSERT INTO vehicle_rollups (company_id, vehicle_id, day, hour, distance_m, driving_s, trips, starts_at)
       VALUES ($1, $2, '2026-01-05', -1, $3, 3600, 2, '2026-01-04T20:00:00Z')`,
      [company, v!.id, km * 1000],
    );
  }
}, 120_000);

afterAll(async () => {
  await runner?.idle();
  await app?.close();
  await storage?.close();
});

const asA = () => ({ token: w.users.adminA.token, company: w.a.uuid });

describe('scheduled reports over HTTP', () => {
  let uuid = '';
  it('a user schedules a weekly summary; it keeps their language and zone', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/reports/schedules',
      ...asA(),
      headers: { timezone: TZ, 'x-locale': 'ar' },
      body: { report: 'summary', format: 'csv', frequency: 'weekly', weekday: 0, hour: 7 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = reportScheduleSchema.parse(res.json().data);
    expect(s).toMatchObject({ locale: 'ar', time_zone: TZ, next_run_at: '2026-01-11T03:00:00.000Z' });
    uuid = s.uuid;
    const list = await call(app, { method: 'GET', url: '/v1/reports/schedules', ...asA() });
    expect(list.json().data.map((x: { uuid: string }) => x.uuid)).toEqual([uuid]);
  });

  it('bad input gets a clear error in the user language', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/reports/schedules',
      ...asA(),
      headers: { 'x-locale': 'ar' },
      body: { report: 'summary', format: 'csv', frequency: 'weekly' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.weekday[0]).toMatch(/مطلوب/);
  });

  it('others cannot see or stop it', async () => {
    for (const who of [
      { token: w.users.multi.token, company: w.a.uuid },
      { token: w.users.adminB.token, company: w.b.uuid },
    ]) {
      const list = await call(app, { method: 'GET', url: '/v1/reports/schedules', ...who });
      expect(list.json().data).toEqual([]);
      const del = await call(app, { method: 'DELETE', url: `/v1/reports/schedules/${uuid}`, ...who });
      expect(del.statusCode).toBe(404);
    }
  });

  it('nothing is sent before it is due; when due it is rendered in Arabic and sent once', async () => {
    expect(await runDueSchedules(storage.db, outbox, TZ, clock.now)).toBe(0);
    const due = new Date('2026-01-11T03:00:00.000Z');
    expect(await runDueSchedules(storage.db, outbox, TZ, due)).toBe(1);
    expect(await runDueSchedules(storage.db, outbox, TZ, due)).toBe(0);
    expect(outbox.mails).toHaveLength(1);
    const mail = outbox.mails[0]!;
    expect(mail.to).toBe('admin.a@fleet.test');
    expect(mail.locale).toBe('ar');
    expect(mail.subject).toBe('أسبوعي: الملخص اليومي (2026-01-04 – 2026-01-10)');
    expect(mail.attachment.name).toBe('summary-2026-01-04.csv');
    const lines = mail.attachment.content.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]!.startsWith('المركبة,اليوم,المسافة (كم)')).toBe(true);
    expect(lines[1]).toMatch(/^A 1,2026-01-05,42\.5,/);
    expect(mail.attachment.content.toString('utf8')).not.toContain('B 1');
    const [row] = await storage.db.query<{ next_run_at: Date; last_error: string | null }>(
      'SELECT next_run_at, last_error FROM report_schedules WHERE uuid = $1',
      [uuid],
    );
    expect(new Date(row!.next_run_at).toISOString()).toBe('2026-01-18T03:00:00.000Z');
    expect(row!.last_error).toBeNull();
  });

  it('the owner stops it', async () => {
    const del = await call(app, { method: 'DELETE', url: `/v1/reports/schedules/${uuid}`, ...asA() });
    expect(del.statusCode).toBe(200);
    expect((await call(app, { method: 'GET', url: '/v1/reports/schedules', ...asA() })).json().data).toEqual(
      [],
    );
  });
});
