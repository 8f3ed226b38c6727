import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { call } from '../../test/harness';
import { registerReportRoutes } from '../reports/routes';
import { loadSalik } from '../pipeline/salik/load';
import { DEMO_EMAIL, SECOND_COMPANY, SECOND_EMAIL, seedDemo } from './demo';
import { seedHistory, type HistoryResult } from './history';

/**
 * The demo's month of history (issue 15) on a fresh database: seeded through the pipeline, it must
 * leave trips, rollups, Salik crossings at their tariff, geofence visits, fuel events, notifications
 * and scheduled-trip instances spread over the month, and the home dashboard's month and year charts
 * must answer with that data. Also the second demo company and its separate admin (issue 18).
 */
const TZ = 'Asia/Dubai';
// A Wednesday morning: the 30 days before hold four weekends and about 22 working days.
const NOW = Date.UTC(2026, 10, 18, 6, 0);
const PASSWORD = 'demo-pass-123';

let storage: Storage;
let app: FastifyInstance;
let history: HistoryResult;

beforeAll(async () => {
  storage = await openTestStorage('demo_history');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' });
  app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    now: () => new Date(NOW),
    logger: false,
  });
  registerReportRoutes(app, { rollupTimeZone: TZ });
  await app.ready();
  expect((await seedDemo(storage.db, PASSWORD, NOW)).seeded).toBe(true);
  history = await seedHistory(storage, { days: 30, now: NOW, timeZone: TZ });
}, 600_000);

afterAll(async () => {
  await app?.close();
  await storage?.close();
});

async function signIn(email: string) {
  const res = await call(app, { method: 'POST', url: '/v1/login', body: { email, password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

const q = <T>(sql: string, params: unknown[] = []) => storage.db.query<T>(sql, params);

describe('demo history', () => {
  it('feeds a month of positions of every vehicle of both companies', () => {
    expect(history.vehicles).toBe(58);
    expect(history.days).toBe(30);
    expect(history.records).toBeGreaterThan(58 * 30 * 20);
  });

  it('leaves trips and rollups on the working days of the month, fewer on weekends', async () => {
    const days = await q<{ day: string; dow: number; trips: number; km: number }>(
      `SELECT day::text, extract(dow FROM day)::int AS dow, sum(trips)::int AS trips, sum(distance_m) / 1000 AS km
       FROM vehicle_rollups WHERE hour = -1 GROUP BY day ORDER BY day`,
    );
    expect(days.length).toBeGreaterThanOrEqual(30);
    const work = days.filter((d) => d.dow !== 5 && d.dow !== 6 && d.trips > 0);
    expect(work.length).toBeGreaterThanOrEqual(20);
    // School runs and deliveries: 50+ vehicles on the road each working day, hundreds of km.
    for (const d of work.slice(0, -1)) expect(d.trips, d.day).toBeGreaterThan(100);
    for (const d of work.slice(0, -1)) expect(d.km, d.day).toBeGreaterThan(500);
    const weekend = days.filter((d) => d.dow === 5 || d.dow === 6);
    expect(weekend.length).toBeGreaterThanOrEqual(8);
    for (const d of weekend) expect(d.trips).toBeLessThan(work[0]!.trips / 2);
    const [trips] = await q<{ n: number; days: number; stops: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT data->>'day')::int AS days,
              (SELECT count(*)::int FROM device_stops WHERE kind = 'stop') AS stops
       FROM device_trips`,
    );
    expect(trips!.n).toBeGreaterThan(2_000);
    expect(trips!.days).toBeGreaterThanOrEqual(28);
    expect(trips!.stops).toBeGreaterThan(1_000);
    const [idle] = await q<{ s: number; fuel: number; engine: number }>(
      `SELECT sum(idle_s)::float8 AS s, sum(fuel_used_l)::float8 AS fuel, sum(engine_s)::float8 AS engine
       FROM vehicle_rollups WHERE hour = -1`,
    );
    expect(idle!.s).toBeGreaterThan(0);
    expect(idle!.fuel).toBeGreaterThan(0);
    expect(idle!.engine).toBeGreaterThan(idle!.s);
  });

  it('charges Salik crossings by the tariff of their date and hour', async () => {
    const rows = await q<{ at: Date; fee: number; gate: string; linked: string | null }>(
      `SELECT at, fee::float8 AS fee, gate, data->>'linked_to' AS linked FROM salik_events ORDER BY at`,
    );
    expect(rows.length).toBeGreaterThan(100);
    const days = new Set(rows.map((r) => new Date(r.at).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(18);
    const { tariff } = loadSalik();
    // A crossing of a linked gate within the link window of a paid one is free; the others pay the
    // tariff of their own date and hour.
    for (const r of rows) {
      const fee = r.linked ? 0 : tariff.feeAt(new Date(r.at).getTime()).fee;
      expect(r.fee, `${r.gate} ${String(r.at)}`).toBe(fee);
    }
    expect(rows.filter((r) => !r.linked).length).toBeGreaterThan(100);
    // Peak and off-peak hours both occur, so more than one fee was charged.
    expect(new Set(rows.map((r) => r.fee)).size).toBeGreaterThan(1);
  });

  it('has geofence visits, refuels, fuel drops, overspeed and document notifications', async () => {
    const [g] = await q<{ n: number; days: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (at AT TIME ZONE 'Asia/Dubai')::date)::int AS days FROM geofence_events`,
    );
    expect(g!.n).toBeGreaterThan(1_000);
    expect(g!.days).toBeGreaterThanOrEqual(30);
    const fuel = await q<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM fuel_events GROUP BY kind`,
    );
    const byKind = Object.fromEntries(fuel.map((f) => [f.kind, f.n]));
    expect(byKind.refuel).toBeGreaterThan(50);
    expect(byKind.drop).toBeGreaterThan(0);
    const notes = await q<{ type: string; n: number; oldest: Date }>(
      `SELECT type, count(*)::int AS n, min(created_at) AS oldest FROM notifications GROUP BY type`,
    );
    const byType = Object.fromEntries(notes.map((n) => [n.type, n]));
    expect(byType.overspeed?.n).toBeGreaterThan(20);
    expect(byType.document_expiry?.n).toBeGreaterThan(0);
    // Stored at the simulated time they were raised, not all "just now".
    expect(new Date(byType.overspeed!.oldest).getTime()).toBeLessThan(NOW - 20 * 86_400_000);
  });

  it('moves the scheduled school runs through their statuses', async () => {
    const rows = await q<{ status: string; n: number; days: number }>(
      `SELECT status, count(*)::int AS n, count(DISTINCT data->>'date')::int AS days FROM trips
       WHERE data ? 'instance_id' GROUP BY status`,
    );
    const by = Object.fromEntries(rows.map((r) => [r.status, r]));
    expect(by.completed?.n).toBeGreaterThan(100);
    expect(by.completed?.days).toBeGreaterThanOrEqual(18);
    expect((by.delayed?.n ?? 0) + (by.missed?.n ?? 0) + (by.started?.n ?? 0)).toBeGreaterThan(0);
    const [late] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM trips WHERE (data->>'late')::boolean`,
    );
    expect(late!.n).toBeGreaterThan(0);
  });

  it('tells nobody about the past: no guardian or alert message of the history is left to send', async () => {
    const [queued] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM message_outbox WHERE status = 'queued' AND kind LIKE 'guardian_%'`,
    );
    expect(queued!.n).toBe(0);
  });

  it("fills the home dashboard's month and year charts", async () => {
    const token = await signIn(DEMO_EMAIL);
    const me = (await call(app, { method: 'GET', url: '/v1/auth', token })).json();
    const names = me.data.transport_companies.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Demo Transport', SECOND_COMPANY]);
    const company = me.data.transport_companies[0].uuid as string;
    for (const period of ['month', 'year']) {
      const res = await call(app, {
        method: 'GET',
        url: `/v1/reports/dashboard?period=${period}`,
        token,
        company,
        headers: { timezone: TZ },
      });
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json().data;
      expect(d.current.distance_km, period).toBeGreaterThan(10_000);
      const withData = (d.series as { distance_km: number }[]).filter((p) => p.distance_km > 0);
      expect(withData.length, period).toBeGreaterThan(period === 'month' ? 18 : 0);
    }
  });

  it("charts the engine's RPM and temperature over a week, hour by hour", async () => {
    const token = await signIn(DEMO_EMAIL);
    const company = (await call(app, { method: 'GET', url: '/v1/auth', token })).json().data
      .transport_companies[0].uuid as string;
    const from = new Date(NOW - 7 * 86_400_000).toISOString();
    const res = await call(app, {
      method: 'GET',
      url: `/v1/reports/engine?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(NOW).toISOString())}`,
      token,
      company,
      headers: { timezone: TZ },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as {
      max_rpm: number | null;
      rpm: { at: string; value: number }[];
      temperature: { at: string; value: number }[];
    }[];
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      // Points on at least five of the seven days, each an hour of the week.
      const days = new Set(row.rpm.map((p) => p.at.slice(0, 10)));
      expect(days.size, JSON.stringify(row.rpm.slice(0, 3))).toBeGreaterThanOrEqual(5);
      expect(row.temperature.length).toBeGreaterThan(row.rpm.length / 2);
      expect(row.max_rpm).toBeGreaterThan(1_200);
      const temps = row.temperature.map((p) => p.value);
      expect(Math.min(...temps)).toBeGreaterThanOrEqual(27.9);
      expect(Math.max(...temps)).toBeLessThanOrEqual(40.1);
    }
  });

  it("keeps the second company's admin to its own company", async () => {
    const token = await signIn(SECOND_EMAIL);
    const me = (await call(app, { method: 'GET', url: '/v1/auth', token })).json();
    expect(me.data.transport_companies.map((c: { name: string }) => c.name)).toEqual([SECOND_COMPANY]);
    const own = me.data.transport_companies[0].uuid as string;
    const vehicles = await call(app, { method: 'GET', url: '/v1/vehicles?limit=100', token, company: own });
    expect(vehicles.json().total).toBe(8);
    const [demo] = await q<{ uuid: string }>(
      `SELECT uuid FROM transport_companies WHERE name = 'Demo Transport'`,
    );
    const other = await call(app, {
      method: 'GET',
      url: '/v1/vehicles?limit=100',
      token,
      company: demo!.uuid,
    });
    expect(other.statusCode).toBeGreaterThanOrEqual(400);
    const dash = await call(app, {
      method: 'GET',
      url: '/v1/reports/dashboard?period=month',
      token,
      company: own,
      headers: { timezone: TZ },
    });
    expect(dash.statusCode, dash.body).toBe(200);
    expect(dash.json().data.current.distance_km).toBeGreaterThan(0);
  });
});
