import type { Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import {
  driverActivityReport,
  eventsReport,
  salikMonthlyReport,
  summaryReport,
  tripListReport,
  utilisationReport,
} from './daily-reports';
import { routeFile, routeReport } from './route-report';

/**
 * The everyday reports' part of `npm run bench:reports`: loads, for the bench company's vehicles over
 * the month, 4 trips per vehicle-day (device_trips), an alert episode delivered to 2 users per
 * vehicle-day (notifications), a geofence exit and entry and 2 Salik crossings per vehicle-day, a driver
 * per vehicle, and for one vehicle a fix every 30 s around the clock for the whole month (86,400
 * positions), then times each report the API answers (first page of 50) and the GPX file of that
 * month's route (streamed, every position).
 */
export async function loadEveryday(
  db: Queryable,
  companyId: number,
  monthFrom: string,
  days: number,
): Promise<{ rows: Record<string, number>; routeVehicle: string }> {
  const c = companyId;
  const start = `timestamptz '${monthFrom}T00:00:00+04:00'`;
  await db.query(
    `INSERT INTO devices (company_id, imei, type)
     SELECT $1, 'bench' || v.id, 'teltonika' FROM vehicles v WHERE v.company_id = $1`,
    [c],
  );
  await db.query(`UPDATE vehicles v SET device_imei = 'bench' || v.id WHERE v.company_id = $1`, [c]);
  await db.query(
    `WITH d AS (INSERT INTO drivers (company_id, first_name, last_name)
                SELECT $1, 'Driver', v.id::text FROM vehicles v WHERE v.company_id = $1 RETURNING id, last_name)
     UPDATE vehicles v SET driver_id = d.id FROM d WHERE v.id = d.last_name::bigint`,
    [c],
  );
  await db.query(
    `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
     SELECT $1, v.id, dv.id, ${start} + make_interval(days => day, hours => 6 + k * 3),
            ${start} + make_interval(days => day, hours => 6 + k * 3, mins => 40), 18000,
            jsonb_build_object('day', (${start} + make_interval(days => day))::date::text,
              'start_location', jsonb_build_object('latitude', 25.2, 'longitude', 55.3),
              'end_location', jsonb_build_object('latitude', 25.25, 'longitude', 55.4),
              'duration_seconds', 2400, 'max_speed', 92, 'average_speed', 27, 'idle_seconds', 120)
     FROM vehicles v JOIN devices dv ON dv.imei = v.device_imei, generate_series(0, $2::int - 1) day,
          generate_series(0, 3) k
     WHERE v.company_id = $1`,
    [c, days],
  );
  const users = await db.query<{ id: number }>(
    `INSERT INTO users (email, name) SELECT 'bench' || g || '.' || $1 || '@bench.test', 'Bench'
     FROM generate_series(1, 2) g RETURNING id`,
    [c],
  );
  await db.query(
    `INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, violation_value, data,
       device_created_at)
     SELECT $1, u, v.id, 'overspeed', 'Overspeed', 'Speed 131 km/h', '131',
            jsonb_build_object('dedupe_key', 'os:' || v.id || ':' || day),
            ${start} + make_interval(days => day, hours => 9)
     FROM vehicles v, generate_series(0, $2::int - 1) day, unnest($3::bigint[]) u WHERE v.company_id = $1`,
    [c, days, users.map((u) => u.id)],
  );
  const [g] = await db.query<{ id: number }>(
    `INSERT INTO geofences (company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng)
     VALUES ($1, 'Depot', 'circle', '{"shape":"circle","center":{"latitude":25.2,"longitude":55.3},"radius":300}',
             25.19, 55.29, 25.21, 55.31) RETURNING id`,
    [c],
  );
  await db.query(
    `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
     SELECT $1, v.id, $3, kind, ${start} + make_interval(days => day, hours => h),
            CASE WHEN kind = 'exit' THEN jsonb_build_object('dwell_seconds', 36000) ELSE '{}'::jsonb END
     FROM vehicles v, generate_series(0, $2::int - 1) day,
          (VALUES ('exit', 6), ('entry', 18)) x(kind, h)
     WHERE v.company_id = $1`,
    [c, days, g!.id],
  );
  await db.query(
    `INSERT INTO salik_events (company_id, vehicle_id, gate, fee, at, data)
     SELECT $1, v.id, 'AL_BARSHA', CASE WHEN k = 0 THEN 4 ELSE 0 END,
            ${start} + make_interval(days => day, hours => 7 + k * 10), '{"currency":"AED"}'
     FROM vehicles v, generate_series(0, $2::int - 1) day, generate_series(0, 1) k WHERE v.company_id = $1`,
    [c, days],
  );
  const [rv] = await db.query<{ id: number; uuid: string; device_id: number }>(
    `SELECT v.id, v.uuid, dv.id AS device_id FROM vehicles v JOIN devices dv ON dv.imei = v.device_imei
     WHERE v.company_id = $1 ORDER BY v.id LIMIT 1`,
    [c],
  );
  await db.query(
    `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, course, ignition)
     SELECT $1, $2, $3, ${start} + make_interval(secs => s * 30), 25.2 + (s % 1000) * 0.0001, 55.3 + (s % 700) * 0.0001,
            (s % 90)::real, (s % 360)::real, s % 5 <> 0
     FROM generate_series(0, $4::int * 2880 - 1) s`,
    [rv!.device_id, rv!.id, c, days],
  );
  for (const t of ['device_trips', 'notifications', 'geofence_events', 'salik_events', 'locations']) {
    await db.query(`ANALYZE ${t}`);
  }
  const count = async (table: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1`, [c]))[0]!
      .n;
  const rows: Record<string, number> = {};
  for (const t of ['device_trips', 'notifications', 'geofence_events', 'salik_events', 'locations']) {
    rows[t] = await count(t);
  }
  return { rows, routeVehicle: rv!.uuid };
}

type Timer = (name: string, f: () => Promise<string>) => Promise<void>;

/** Times every everyday report over the month (first page of 50, as the portal asks). */
export async function timeEveryday(
  db: Queryable,
  tenant: Tenant,
  range: { from: string; to: string },
  rollupTimeZone: string,
  routeVehicle: string,
  time: Timer,
): Promise<void> {
  const q = { ...range, page: 1, limit: 50 };
  const tz = rollupTimeZone;
  await time('trip list month, page 1 of 50', async () => {
    const r = await tripListReport(db, tenant, q);
    return `${r.total} trips`;
  });
  await time('summary month, page 1 of 50', async () => {
    const r = await summaryReport(db, tenant, q, tz);
    return `${r.total} vehicle-days`;
  });
  await time('events month, page 1 of 50', async () => {
    const r = await eventsReport(db, tenant, q);
    return `${r.total} events`;
  });
  await time('utilisation month', async () => {
    const r = await utilisationReport(db, tenant, q, tz);
    return `${r.total} days, ${r.data[0]?.share_percent ?? 0}% on day 1`;
  });
  await time('driver activity month, page 1 of 50', async () => {
    const r = await driverActivityReport(db, tenant, q, tz);
    return `${r.total} drivers`;
  });
  await time('salik per month, page 1 of 50', async () => {
    const r = await salikMonthlyReport(db, tenant, q, tz);
    return `${r.total} vehicle-months`;
  });
  await time('route month of 1 vehicle, page 1 of 50', async () => {
    const r = await routeReport(db, tenant, { ...q, vehicle_uuid: routeVehicle });
    return `${r.total} positions`;
  });
  await time('file: route month GPX (streamed, every position)', async () => {
    const file = await routeFile(db, tenant, { ...range, vehicle_uuid: routeVehicle, format: 'gpx' });
    let bytes = 0;
    let points = 0;
    for await (const chunk of file!.chunks) {
      bytes += chunk.length;
      points += chunk.split('<trkpt').length - 1;
    }
    return `${points} points, ${bytes} bytes`;
  });
}
