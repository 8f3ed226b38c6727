import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardSchema, reportResponseSchema, salikReportRowSchema } from '@fleet/api-client';
import { openStorage, type Storage } from '../storage/storage';
import type { Tenant } from '../tenancy/context';
import { addDays } from '../pipeline/common/zoned-time';
import { dashboardReport, salikReport, stopsReport, tripsReport, violationsReport } from './queries';

let storage: Storage;
let tenant: Tenant;
let branchTenant: Tenant;
const TZ = 'Asia/Dubai';
const now = new Date(Date.UTC(2026, 0, 14, 8, 0)); // 2026-01-14 12:00 Dubai

beforeAll(async () => {
  storage = await openStorage({});
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
  const vs = await db.query<{ id: number; company_id: number }>(
    `INSERT INTO vehicles (company_id, branch_id, license_plate_number) VALUES ($1, $2, 'A 1'), ($1, NULL, 'B 2'), ($3, NULL, 'X 9')
     RETURNING id, company_id`,
    [c!.id, b!.id, other!.id],
  );
  const [d] = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '1', 'teltonika') RETURNING id`,
    [c!.id],
  );
  // 14 days of rollups for every vehicle: 100 km and 2 trips a day, one violation every other day
  for (let k = 0; k < 14; k++) {
    const day = addDays('2026-01-14', -k);
    for (const v of vs) {
      await db.query(
        `INSERT INTO vehicle_rollups (company_id, vehicle_id, day, hour, distance_m, driving_s, idle_s, trips, violations, fuel_used_l, max_speed_kmh)
         VALUES ($1, $2, $3, -1, 100000, 7200, 600, 2, $4, 10, 110), ($1, $2, $3, 8, 999999, 0, 0, 0, 0, 0, 0)`,
        [v.company_id, v.id, day, k % 2],
      );
    }
  }
  await db.query(
    `INSERT INTO salik_events (company_id, vehicle_id, gate, direction, fee, at, data) VALUES
       ($1, $2, 'safa', 'to_dubai', 6, '2026-01-13T04:00:00Z', '{"currency":"AED"}'),
       ($1, $2, 'safa_south', 'to_dubai', 0, '2026-01-13T04:10:00Z', '{"currency":"AED"}'),
       ($1, $3, 'barsha', 'to_dubai', 4, '2026-01-13T09:00:00Z', '{"currency":"AED"}')`,
    [c!.id, vs[0]!.id, vs[1]!.id],
  );
  const [u1] = await db.query<{ id: number }>(
    `INSERT INTO users (email, name) VALUES ('a@x.test', 'A') RETURNING id`,
  );
  const [u2] = await db.query<{ id: number }>(
    `INSERT INTO users (email, name) VALUES ('b@x.test', 'B') RETURNING id`,
  );
  for (const u of [u1!, u2!]) {
    await db.query(
      `INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, violation_value, data, device_created_at)
       VALUES ($1, $2, $3, 'overspeed', 'Overspeed', 'm', '130', '{"dedupe_key":"k1"}', '2026-01-13T05:00:00Z'),
              ($1, $2, $3, 'geofence_entry', 'Geofence entry', 'm', NULL, '{"dedupe_key":"k2"}', '2026-01-13T05:00:00Z')`,
      [c!.id, u.id, vs[0]!.id],
    );
  }
  await db.query(
    `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
     VALUES ($1, $2, $3, '2026-01-13T04:00:00Z', '2026-01-13T05:00:00Z', 1000, '{"day":"2026-01-13"}')`,
    [c!.id, vs[0]!.id, d!.id],
  );
  await db.query(
    `INSERT INTO device_stops (company_id, vehicle_id, device_id, kind, day, started_at, ended_at, minutes, latitude, longitude)
     VALUES ($1, $2, $3, 'stop', '2026-01-13', '2026-01-13T05:00:00Z', '2026-01-13T05:30:00Z', 30, 25.1, 55.2)`,
    [c!.id, vs[0]!.id, d!.id],
  );
  const base = {
    companyUuid: c!.uuid,
    countryCode: 'AE',
    features: {},
    subCompanyId: null,
    schoolId: null,
    permissions: ['reports.view'],
  };
  tenant = { ...base, companyId: c!.id, userType: 'admin', scope: null, branchId: null } as Tenant;
  branchTenant = {
    ...base,
    companyId: c!.id,
    userType: 'branch_admin',
    scope: { column: 'branch_id', id: b!.id },
    branchId: b!.id,
  } as Tenant;
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

const range = { from: '2026-01-12T20:00:00.000Z', to: '2026-01-13T20:00:00.000Z', page: 1, limit: 50 };

describe('report queries (PGlite)', () => {
  it('dashboard week vs previous week from daily rollups of the tenant only', async () => {
    const d = await dashboardReport(storage.db, tenant, 'week', now, TZ);
    expect(dashboardSchema.parse(d)).toBeTruthy();
    expect(d.current).toEqual({
      distance_km: 1400,
      driving_hours: 28,
      idle_hours: 2.3,
      trips: 28,
      violations: 6,
      fuel_used_litres: 140,
      active_vehicles: 2,
    });
    expect(d.previous.distance_km).toBe(1400);
    expect(d.previous.violations).toBe(8);
    expect(d.series).toHaveLength(7);
    expect(d.series[0]).toEqual({ at: '2026-01-07T20:00:00.000Z', distance_km: 200, trips: 4 });
    expect(d.from).toBe('2026-01-07T20:00:00.000Z');
    const scoped = await dashboardReport(storage.db, branchTenant, 'week', now, TZ);
    expect(scoped.current.active_vehicles).toBe(1);
    const year = await dashboardReport(storage.db, tenant, 'year', now, TZ);
    // One point per month the year touches (Jan 2025 ... Jan 2026), zero where nothing was driven.
    expect(year.series).toHaveLength(13);
    expect(year.series[0]).toEqual({ at: '2024-12-31T20:00:00.000Z', distance_km: 0, trips: 0 });
    expect(year.series[12]).toEqual({ at: '2025-12-31T20:00:00.000Z', distance_km: 2800, trips: 56 });
    expect(year.series.slice(0, 12).every((p) => p.distance_km === 0 && p.trips === 0)).toBe(true);
    // A month: thirty days, one point each; the days before the data are zeros, the sum is the total.
    const month = await dashboardReport(storage.db, tenant, 'month', now, TZ);
    expect(month.series).toHaveLength(30);
    expect(month.series[0]!.at).toBe(month.from);
    expect(month.series.reduce((sum, p) => sum + p.distance_km, 0)).toBeCloseTo(month.current.distance_km, 5);
    expect(month.series.filter((p) => p.distance_km === 0).length).toBeGreaterThan(0);
    expect(year.current.distance_km).toBe(2800);
  });

  it('trips, salik, violations and stops reports match their contract', async () => {
    const trips = await tripsReport(storage.db, tenant, range, TZ);
    expect(reportResponseSchema('trips').parse(trips).total).toBe(2);
    expect(trips.data[0]).toMatchObject({
      trips: 2,
      distance_km: 100,
      driving_seconds: 7200,
      max_speed: 110,
      average_speed: 50,
    });
    const salik = await salikReport(storage.db, tenant, range);
    expect(
      salikReportRowSchema
        .array()
        .parse(salik.data)
        .map((r) => [r.vehicle.license_plate_number, r.crossings, r.charged_crossings, r.total_fee]),
    ).toEqual([
      ['A 1', 2, 1, 6],
      ['B 2', 1, 1, 4],
    ]);
    const violations = await violationsReport(storage.db, tenant, range);
    expect(reportResponseSchema('violations').parse(violations).data).toMatchObject([
      { kind: 'overspeed', value: 130 },
    ]);
    const stops = await stopsReport(storage.db, tenant, range, 'stops');
    expect(reportResponseSchema('stops').parse(stops).data).toMatchObject([
      { duration_minutes: 30, latitude: 25.1 },
    ]);
    expect((await stopsReport(storage.db, tenant, range, 'idles')).total).toBe(0);
    expect((await salikReport(storage.db, branchTenant, range)).total).toBe(1);
  });
});
