import type { Queryable } from '../storage/db';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import { addDays } from '../pipeline/common/zoned-time';
import {
  answer,
  BY_PLATE,
  countOf,
  limitSql,
  page,
  round,
  seekColumns,
  seekOrder,
  seekSql,
  VEHICLE_SUMMARY,
  type ReportRange,
  type SeekKey,
} from './queries';
import { planRange, rangeSql } from './range';
import { selectionAnd } from './filters';
import { placeAddresses } from './addresses';

/**
 * The everyday reports fleet staff expect first (Traccar's set): trip list, summary per vehicle and
 * day, events, utilisation, driver activity and Salik per month. Like every report they read what the
 * pipeline stored (vehicle_rollups, device_trips, notifications, geofence_events, salik_events), never
 * raw positions, and only the vehicles of the tenant's scope narrowed by the report's selection.
 *
 * Days are the rollup days (the company's zone, FLEET_TIME_ZONE). A range that cuts a rollup day
 * counts only the hours of that day inside the range (range.ts), so a day's figures at the edges
 * are partial, as in the trips report.
 */

const DRIVER_REF = `CASE WHEN d.id IS NULL THEN NULL
  ELSE jsonb_build_object('uuid', d.uuid, 'name', trim(d.first_name || ' ' || coalesce(d.last_name, ''))) END`;

const isoOf = (d: Date | string) => new Date(d).toISOString();
const dayText = (d: Date | string) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/**
 * Trip list: one row per trip the pipeline detected (device_trips), started inside [from, to), oldest
 * first. Places are the trip's first and last fix, with their addresses in the reader's language
 * (reports/addresses.ts); the driver is the one assigned to the vehicle (the
 * pipeline records no driver identification per trip yet).
 */
export async function tripListReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const after = q.seek?.after;
  // A seek starts at the cursor's time (the index's column), then skips the rows of that instant already read.
  const from = `$${params.push(after ? after[0] : q.from)}::timestamptz`;
  const to = `$${params.push(q.to)}::timestamptz`;
  const list = `FROM device_trips t JOIN vehicles v ON v.id = t.vehicle_id LEFT JOIN drivers d ON d.id = v.driver_id
    WHERE ${scope} AND t.company_id = $1 AND t.started_at >= ${from} AND t.started_at < ${to}${selectionAnd('v', q, params)}
      AND ${seekSql(TRIP_ORDER, after, params)}`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n ${list}`, params);
  const rows = await db.query<{
    uuid: string;
    vehicle: unknown;
    driver: { uuid: string; name: string } | null;
    started_at: Date | string;
    ended_at: Date | string | null;
    distance_m: number | null;
    data: Record<string, unknown>;
  }>(
    `SELECT t.uuid, ${VEHICLE_SUMMARY} AS vehicle, ${DRIVER_REF} AS driver, t.started_at, t.ended_at,
            t.distance_m, t.data - 'stops' - 'idles' AS data${seekColumns(TRIP_ORDER)}
     ${list} ORDER BY ${seekOrder(TRIP_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  const place = (p: unknown) => {
    const x = p as { latitude?: number; longitude?: number } | null | undefined;
    return x && Number.isFinite(x.latitude) && Number.isFinite(x.longitude)
      ? { latitude: Number(x.latitude), longitude: Number(x.longitude) }
      : null;
  };
  const starts = rows.map((r) => place(r.data.start_location));
  const ends = rows.map((r) => place(r.data.end_location));
  const asPoint = (p: { latitude: number; longitude: number } | null) =>
    p ? { lat: p.latitude, lng: p.longitude } : null;
  // Starts and ends of the page in one lookup (one cache query, one time budget).
  const addresses = await placeAddresses(db, q, [...starts.map(asPoint), ...ends.map(asPoint)]);
  return answer(
    rows.map((r, i) => ({
      uuid: r.uuid,
      vehicle: r.vehicle,
      driver: r.driver,
      started_at: isoOf(r.started_at),
      ended_at: r.ended_at === null ? null : isoOf(r.ended_at),
      start: starts[i] ?? null,
      end: ends[i] ?? null,
      start_address: addresses[i] ?? null,
      end_address: addresses[rows.length + i] ?? null,
      distance_km: round(Number(r.distance_m ?? 0) / 1000, 2),
      duration_seconds: Math.max(0, Math.round(Number(r.data.duration_seconds ?? 0))),
      max_speed: round(Math.max(0, Number(r.data.max_speed ?? 0))),
      average_speed: round(Math.max(0, Number(r.data.average_speed ?? 0))),
      idle_seconds: Math.max(0, Math.round(Number(r.data.idle_seconds ?? 0))),
    })),
    q,
    () => n,
    rows as unknown as Record<string, unknown>[],
    TRIP_ORDER,
  );
}

/** Trips oldest first, by start time then id. */
const TRIP_ORDER: readonly SeekKey[] = [{ sql: 't.started_at', cast: 'timestamptz' }, { sql: 't.id' }];

/** Summary per vehicle per rollup day: km, driving/idle/engine hours, litres, max km/h, trips, violations. */
export async function summaryReport(db: Queryable, tenant: Tenant, q: ReportRange, rollupTimeZone: string) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const cond = rangeSql('r', planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone), params);
  const grouped = `FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
    WHERE ${scope} AND r.company_id = $1 AND ${cond}${selectionAnd('v', q, params)}
      AND ${seekSql(SUMMARY_ORDER, q.seek?.after, params)} GROUP BY v.id, r.day`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (SELECT v.id ${grouped}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, r.day::text AS day, sum(r.distance_m) AS distance_m,
            sum(r.driving_s) AS driving_s, sum(r.idle_s) AS idle_s, sum(r.engine_s) AS engine_s,
            sum(r.fuel_used_l) AS fuel_l, max(r.max_speed_kmh) AS max_speed, sum(r.trips)::int AS trips,
            sum(r.violations)::int AS violations${seekColumns(SUMMARY_ORDER)}
     ${grouped} ORDER BY ${seekOrder(SUMMARY_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => ({
      vehicle: r.vehicle,
      day: dayText(r.day as string),
      distance_km: round(Number(r.distance_m) / 1000, 2),
      driving_hours: round(Number(r.driving_s) / 3600, 2),
      idle_hours: round(Number(r.idle_s) / 3600, 2),
      engine_hours: round(Number(r.engine_s) / 3600, 2),
      fuel_used_litres: round(Number(r.fuel_l), 1),
      max_speed: round(Number(r.max_speed)),
      trips: Number(r.trips),
      violations: Number(r.violations),
    })),
    q,
    () => n,
    rows,
    SUMMARY_ORDER,
  );
}

const SUMMARY_ORDER: readonly SeekKey[] = [{ sql: 'r.day', cast: 'date' }, ...BY_PLATE];

/**
 * Fleet utilisation: for every rollup day the range touches, how many of the selected vehicles moved
 * (distance or driving time recorded) out of the vehicles selected, as a share in percent. The fleet
 * is the vehicles that exist now (a vehicle added mid-range counts on the earlier days as unused).
 */
export async function utilisationReport(
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  rollupTimeZone: string,
) {
  const plan = planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone);
  const fleetParams: unknown[] = [];
  const fleetScope = scopeSql('vehicles', 'v', tenant, fleetParams);
  const [fleet] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM vehicles v WHERE ${fleetScope}${selectionAnd('v', q, fleetParams)}`,
    fleetParams,
  );
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const cond = rangeSql('r', plan, params);
  const used = await db.query<{ day: string; used: number; distance_m: number; driving_s: number }>(
    `SELECT day::text AS day, count(*) FILTER (WHERE distance_m > 0 OR driving_s > 0)::int AS used,
            sum(distance_m) AS distance_m, sum(driving_s) AS driving_s
     FROM (SELECT r.day, r.vehicle_id, sum(r.distance_m) AS distance_m, sum(r.driving_s) AS driving_s
           FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
           WHERE ${scope} AND r.company_id = $1 AND ${cond}${selectionAnd('v', q, params)}
           GROUP BY r.day, r.vehicle_id) x
     GROUP BY day`,
    params,
  );
  const byDay = new Map(used.map((u) => [dayText(u.day), u]));
  const vehicles = fleet?.n ?? 0;
  const days: string[] = [];
  for (let d = plan.firstDay; d <= plan.lastDay; d = addDays(d, 1)) days.push(d);
  const all = days.map((day) => {
    const u = byDay.get(day);
    const n = Math.min(vehicles, u?.used ?? 0);
    return {
      day,
      vehicles,
      used_vehicles: n,
      share_percent: vehicles > 0 ? round((n / vehicles) * 100, 1) : 0,
      distance_km: round(Number(u?.distance_m ?? 0) / 1000, 1),
      driving_hours: round(Number(u?.driving_s ?? 0) / 3600, 1),
    };
  });
  // One row per day of the range (at most 367): computed whole; a seek's cursor is the day last read.
  if (q.seek) {
    const after = q.seek.after?.[0];
    const rest = after === undefined ? all : all.filter((d) => d.day > String(after));
    const data = rest.slice(0, q.limit);
    const last = data[data.length - 1];
    return {
      ...page(data, data.length, { page: 1, limit: q.limit }),
      next: rest.length > q.limit && last ? [last.day] : null,
    };
  }
  const start = (q.page - 1) * q.limit;
  return page(all.slice(start, start + q.limit), all.length, q);
}

/**
 * Driver activity: per driver (and the vehicle assigned to them), the days they drove, trips, km,
 * hours and violations over the range, from the rollups of that vehicle. Attribution is by the
 * current assignment; drivers without a vehicle have no activity to show.
 */
export async function driverActivityReport(
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  rollupTimeZone: string,
) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const cond = rangeSql('r', planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone), params);
  const grouped = `FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id JOIN drivers d ON d.id = v.driver_id
    WHERE ${scope} AND r.company_id = $1 AND ${cond}${selectionAnd('v', q, params)}
      AND ${seekSql(DRIVER_ORDER, q.seek?.after, params)} GROUP BY d.id, v.id`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (SELECT d.id ${grouped}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${DRIVER_REF} AS driver, ${VEHICLE_SUMMARY} AS vehicle,
            count(DISTINCT r.day) FILTER (WHERE r.distance_m > 0 OR r.driving_s > 0)::int AS active_days,
            sum(r.trips)::int AS trips, sum(r.distance_m) AS distance_m, sum(r.driving_s) AS driving_s,
            sum(r.idle_s) AS idle_s, max(r.max_speed_kmh) AS max_speed, sum(r.violations)::int AS violations${seekColumns(DRIVER_ORDER)}
     ${grouped} ORDER BY ${seekOrder(DRIVER_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => ({
      driver: r.driver as { uuid: string; name: string },
      vehicle: r.vehicle,
      active_days: Number(r.active_days),
      trips: Number(r.trips),
      distance_km: round(Number(r.distance_m) / 1000, 2),
      driving_hours: round(Number(r.driving_s) / 3600, 2),
      idle_hours: round(Number(r.idle_s) / 3600, 2),
      max_speed: round(Number(r.max_speed)),
      violations: Number(r.violations),
    })),
    q,
    () => n,
    rows,
    DRIVER_ORDER,
  );
}

/** Drivers by name (first, last: both NOT NULL), then id, then vehicle. */
const DRIVER_ORDER: readonly SeekKey[] = [
  { sql: 'd.first_name' },
  { sql: 'd.last_name' },
  { sql: 'd.id' },
  { sql: 'v.id' },
];

/** Salik per vehicle and calendar month (months in the company's zone), newest month first. */
export async function salikMonthlyReport(
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  rollupTimeZone: string,
) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const month = `to_char(e.at AT TIME ZONE $${params.push(rollupTimeZone)}, 'YYYY-MM')`;
  const order: SeekKey[] = [{ sql: month, desc: true }, ...BY_PLATE];
  const grouped = `FROM salik_events e JOIN vehicles v ON v.id = e.vehicle_id
    WHERE ${scope} AND e.company_id = $1 AND e.at >= $${params.push(q.from)}::timestamptz
      AND e.at < $${params.push(q.to)}::timestamptz${selectionAnd('v', q, params)}
      AND ${seekSql(order, q.seek?.after, params)}
    GROUP BY v.id, ${month}`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (SELECT v.id ${grouped}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, ${month} AS month, count(*)::int AS crossings,
            count(*) FILTER (WHERE e.fee > 0)::int AS charged, coalesce(sum(e.fee), 0) AS total_fee,
            coalesce(max(e.data->>'currency'), 'AED') AS currency${seekColumns(order)}
     ${grouped} ORDER BY ${seekOrder(order)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => ({
      vehicle: r.vehicle,
      month: String(r.month),
      crossings: Number(r.crossings),
      charged_crossings: Number(r.charged),
      total_fee: round(Number(r.total_fee), 2),
      currency: String(r.currency),
    })),
    q,
    () => n,
    rows,
    order,
  );
}

/**
 * Events: every alert the pipeline raised (notifications are stored per recipient, so one row per
 * alert episode: `data.dedupe_key`, or the row itself when it has none; the reader's own copy, in their
 * language, when they received it) and every geofence entry and exit, newest first.
 */
export async function eventsReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const from = `$${params.push(q.from)}::timestamptz`;
  const to = `$${params.push(q.to)}::timestamptz`;
  const sel = selectionAnd('v', q, params);
  // Each alert once; the copy of the user reading (their language) when they received it.
  const viewer = `$${params.push(q.viewer_id ?? 0)}::bigint`;
  const union = `
    SELECT * FROM (
      SELECT DISTINCT ON (coalesce(n.data->>'dedupe_key', n.uuid::text))
             n.vehicle_id, n.type AS kind, coalesce(n.device_created_at, n.created_at) AS at,
             NULL::text AS geofence_name, n.message, n.violation_value AS value, n.id AS ord, 1 AS src
      FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id
      WHERE ${scope} AND n.company_id = $1${sel}
        AND coalesce(n.device_created_at, n.created_at) >= ${from} AND coalesce(n.device_created_at, n.created_at) < ${to}
      ORDER BY coalesce(n.data->>'dedupe_key', n.uuid::text), (n.user_id = ${viewer}) DESC, n.id
    ) a
    UNION ALL
    SELECT g.vehicle_id, CASE WHEN g.kind = 'exit' THEN 'geofence_exit' ELSE 'geofence_enter' END, g.at,
           f.name, NULL, NULL, g.id, 0
    FROM geofence_events g JOIN vehicles v ON v.id = g.vehicle_id JOIN geofences f ON f.id = g.geofence_id
    WHERE ${scope} AND g.company_id = $1${sel} AND g.at >= ${from} AND g.at < ${to}`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (${union}) x`, params);
  const rows = await db.query<{
    vehicle: unknown;
    kind: string;
    at: Date | string;
    geofence_name: string | null;
    message: string | null;
    value: string | null;
  }>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, e.kind, e.at, e.geofence_name, e.message, e.value${seekColumns(EVENT_ORDER)}
     FROM (${union}) e JOIN vehicles v ON v.id = e.vehicle_id
     WHERE ${seekSql(EVENT_ORDER, q.seek?.after, params)}
     ORDER BY ${seekOrder(EVENT_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => {
      const num = r.value === null ? null : Number(r.value);
      return {
        vehicle: r.vehicle,
        kind: r.kind,
        occurred_at: isoOf(r.at),
        geofence_name: r.geofence_name,
        message: r.message,
        value: r.value === null ? null : num !== null && Number.isFinite(num) ? num : r.value,
      };
    }),
    q,
    () => n,
    rows as unknown as Record<string, unknown>[],
    EVENT_ORDER,
  );
}

/** Newest first; an alert and a geofence event with the same time and id: the alert first. */
const EVENT_ORDER: readonly SeekKey[] = [
  { sql: 'e.at', desc: true, cast: 'timestamptz' },
  { sql: 'e.ord', desc: true },
  { sql: 'e.src', desc: true },
];
