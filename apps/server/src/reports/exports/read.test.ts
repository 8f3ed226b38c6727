import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportKind } from '@fleet/api-client';
import type { Storage } from '../../storage/storage';
import type { Tenant } from '../../tenancy/context';
import { openTestStorage } from '../../../test/db';
import { buildWorld, type World } from '../../../test/fixtures';
import { salikReport, stopsReport, tripsReport, violationsReport, type ReportRange } from '../queries';
import { engineReport, fuelReport, geofenceVisitsReport, wheelReport } from '../sensors';
import {
  driverActivityReport,
  eventsReport,
  salikMonthlyReport,
  summaryReport,
  tripListReport,
  utilisationReport,
} from '../daily-reports';
import { routeReport } from '../route-report';
import { countExportRows, exportPages } from './read';

/**
 * Keyset export reads (read.ts) give exactly the rows of the API's paged answers (LIMIT/OFFSET with a
 * count), in the same order, for every report kind: a fleet over 40 days with ties on purpose (every
 * vehicle's stops, trips and alerts at the same instants, stops on the range's edges), read with page
 * sizes that cut through those ties.
 */
const DAY = 86_400_000;
const D0 = Date.UTC(2026, 2, 1);
const DAYS = 40;
const TZ = 'UTC';
const FROM = new Date(D0 + DAY).toISOString();
const TO = new Date(D0 + (DAYS - 2) * DAY + 7 * 3_600_000).toISOString(); // cuts a day: hourly edge rows

let storage: Storage;
let w: World;
let tenant: Tenant;
let routeVehicle: string;

beforeAll(async () => {
  storage = await openTestStorage('export_read');
  const db = storage.db;
  w = await buildWorld(db);
  const a = w.a.id;
  const from = new Date(D0).toISOString();
  const to = new Date(D0 + DAYS * DAY).toISOString();
  await db.query(
    `INSERT INTO vehicles (company_id, license_plate_number, data)
     SELECT $1, 'K ' || (i % 3), '{"fuel_tank_capacity": 80}' FROM generate_series(1, 5) i`,
    [a],
  );
  await db.query(
    `INSERT INTO devices (company_id, imei, type)
     SELECT $1, (357000000000000 + v.id)::text, 'teltonika' FROM vehicles v WHERE v.company_id = $1`,
    [a],
  );
  await db.query(
    `WITH d AS (INSERT INTO drivers (company_id, first_name, last_name)
                SELECT $1, 'Sam', CASE WHEN i = 2 THEN '' ELSE 'Lee' END FROM generate_series(1, 3) i RETURNING id),
          pairs AS (SELECT d.id AS did, row_number() OVER (ORDER BY d.id) AS k FROM d),
          vs AS (SELECT v.id AS vid, row_number() OVER (ORDER BY v.id) AS k FROM vehicles v WHERE v.company_id = $1)
     UPDATE vehicles SET driver_id = pairs.did FROM pairs JOIN vs ON vs.k = pairs.k WHERE vehicles.id = vs.vid`,
    [a],
  );
  await db.query(
    `INSERT INTO vehicle_rollups (company_id, vehicle_id, day, hour, starts_at, distance_m, driving_s, idle_s, engine_s,
       records, max_speed_kmh, trips, violations, fuel_used_l, refuels, refuel_l, rpm_max, rpm_seconds_sum, rpm_seconds,
       temp_min, temp_max, temp_sum, temp_count, fuel_level_pct, tyres)
     SELECT $1, v.id, d::date, h, d + make_interval(hours => greatest(h, 0)), 1000 * (v.id % 4), 900, 120, 1020, 80,
            100, 3, 1, 2, 0, 0, 4000, 2000 * 900, 900, 80, 95, 880, 10, 50,
            jsonb_build_object('FL', jsonb_build_object('p', 240, 't', 31, 'at', extract(epoch FROM d) * 1000))
     FROM vehicles v, generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d,
          (VALUES (-1), (3), (9)) hh(h)
     WHERE v.company_id = $1 AND (v.id % 5 <> 0 OR d < $2::timestamptz + interval '20 days')`,
    [a, from, to],
  );
  // Three trips a vehicle-day at the same instants for every vehicle.
  await db.query(
    `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
     SELECT $1, v.id, dv.id, d + make_interval(hours => 6 + k * 3), d + make_interval(hours => 7 + k * 3), 5000,
       jsonb_build_object('duration_seconds', 3600, 'max_speed', 80)
     FROM vehicles v JOIN devices dv ON dv.imei = (357000000000000 + v.id)::text,
          generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d, generate_series(0, 2) k
     WHERE v.company_id = $1`,
    [a, from, to],
  );
  // Each vehicle-day's stops (two at the same instant for every vehicle, one a few ms later per
  // vehicle) and an idle period, also at the same instant for every vehicle.
  await db.query(
    `INSERT INTO device_stops (company_id, vehicle_id, device_id, kind, day, started_at, ended_at, minutes, latitude, longitude)
     SELECT $1, v.id, dv.id, p.kind, d::date, d + make_interval(secs => p.s + CASE WHEN p.tie THEN v.id / 1000.0 ELSE 0 END),
            d + make_interval(secs => p.e), p.m, p.la, p.lo
     FROM vehicles v JOIN devices dv ON dv.imei = (357000000000000 + v.id)::text,
          generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d,
          (VALUES ('stop', 1800, 3600, 30, 25.2, 55.3, false), ('stop', 25200, 28800, 60, 25.21, 55.31, false),
                  ('stop', 25200, 32400, 90, 25.22, 55.32, true), ('idle', 600, 900, 5, 25.2, 55.3, false))
            AS p(kind, s, e, m, la, lo, tie)
     WHERE v.company_id = $1`,
    [a, from, to],
  );
  await db.query(
    `INSERT INTO salik_events (company_id, vehicle_id, gate, at, fee, data)
     SELECT $1, v.id, g.gate, d + interval '8 hours', 4, '{"currency": "AED"}'::jsonb
     FROM vehicles v, generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d,
          (VALUES ('Al Garhoud'), ('Al Maktoum')) g(gate)
     WHERE v.company_id = $1`,
    [a, from, to],
  );
  await db.query(
    `INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, device_created_at, violation_value, data)
     SELECT $1, $4, v.id, t.type, 'Alert', 'Alert', d + interval '9 hours', '130',
            jsonb_build_object('dedupe_key', v.id || ':' || t.type || ':' || extract(epoch FROM d))
     FROM vehicles v, generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d,
          (VALUES ('overspeed'), ('emergency_button')) t(type)
     WHERE v.company_id = $1`,
    [a, from, to, w.users.adminA.id],
  );
  const [g] = await db.query<{ id: number }>(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng)
     VALUES ($1, 'Depot', 'circle', '{"shape":"circle","center":{"latitude":25.2,"longitude":55.3},"radius":300}',
             25.19, 55.29, 25.21, 55.31) RETURNING id`,
    [a],
  );
  await db.query(
    `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
     SELECT $1, v.id, $4, k.kind, d + (CASE k.kind WHEN 'entry' THEN interval '7 hours' ELSE interval '8 hours' END),
            CASE k.kind WHEN 'exit' THEN jsonb_build_object('dwell_seconds', 3600) ELSE '{}'::jsonb END
     FROM vehicles v, generate_series($2::timestamptz, $3::timestamptz, interval '1 day') d,
          (VALUES ('entry'), ('exit')) k(kind)
     WHERE v.company_id = $1`,
    [a, from, to, g!.id],
  );
  const [rv] = await db.query<{ id: number; uuid: string; device: number }>(
    `SELECT v.id, v.uuid, dv.id AS device FROM vehicles v JOIN devices dv ON dv.imei = (357000000000000 + v.id)::text
     WHERE v.company_id = $1 ORDER BY v.id LIMIT 1`,
    [a],
  );
  routeVehicle = rv!.uuid;
  await db.query(
    `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, valid)
     SELECT $1, $2, $3, t, 25.2 + n * 0.0001, 55.3, 40, true
     FROM generate_series($4::timestamptz, $4::timestamptz + interval '3 days', interval '10 minutes') WITH ORDINALITY g(t, n)`,
    [rv!.device, rv!.id, a, FROM],
  );
  tenant = {
    companyId: a,
    companyUuid: w.a.uuid,
    countryCode: 'AE',
    features: {},
    userType: 'admin',
    scope: null,
    subCompanyId: null,
    branchId: null,
    schoolId: null,
    permissions: ['reports.view'],
  } as unknown as Tenant;
}, 120_000);

afterAll(async () => {
  await storage?.close();
});

type Paged = (q: ReportRange) => Promise<{ data: unknown[]; last_page: number }>;
const paged: Record<ReportKind, Paged> = {
  fuel: (q) => fuelReport(storage.db, tenant, q, TZ),
  engine: (q) => engineReport(storage.db, tenant, q, TZ),
  wheel: (q) => wheelReport(storage.db, tenant, q, TZ),
  trips: (q) => tripsReport(storage.db, tenant, q, TZ),
  stops: (q) => stopsReport(storage.db, tenant, q, 'stops'),
  idling: (q) => stopsReport(storage.db, tenant, q, 'idles'),
  'geofence-visits': (q) => geofenceVisitsReport(storage.db, tenant, q),
  salik: (q) => salikReport(storage.db, tenant, q),
  violations: (q) => violationsReport(storage.db, tenant, q),
  'trip-list': (q) => tripListReport(storage.db, tenant, q),
  summary: (q) => summaryReport(storage.db, tenant, q, TZ),
  events: (q) => eventsReport(storage.db, tenant, q),
  route: (q) => routeReport(storage.db, tenant, q),
  utilisation: (q) => utilisationReport(storage.db, tenant, q, TZ),
  'driver-activity': (q) => driverActivityReport(storage.db, tenant, q, TZ),
  'salik-monthly': (q) => salikMonthlyReport(storage.db, tenant, q, TZ),
};

describe('export reads (keyset pages)', () => {
  for (const kind of Object.keys(paged) as ReportKind[]) {
    it(`${kind}: the same rows as the paged report`, async () => {
      const base = {
        from: FROM,
        to: TO,
        lang: 'en' as const,
        ...(kind === 'route' ? { vehicle_uuid: routeVehicle } : {}),
      };
      const want: unknown[] = [];
      for (let page = 1; ; page++) {
        const r = await paged[kind]({ ...base, page, limit: 37 });
        want.push(...r.data);
        if (page >= r.last_page) break;
      }
      const got: Record<string, unknown>[] = [];
      let pages = 0;
      for await (const p of exportPages(storage.db, tenant, kind, base, TZ, 23)) {
        expect(p.rows.length).toBeGreaterThan(0);
        if (p.done !== null) expect(p.done).toBeLessThanOrEqual(1);
        got.push(...p.rows);
        pages++;
      }
      expect(want.length, kind).toBeGreaterThan(0);
      expect(got).toEqual(want);
      if (want.length > 23) expect(pages).toBeGreaterThan(1);
      expect(await countExportRows(storage.db, tenant, kind, base, TZ)).toBe(want.length);
    });
  }
});
