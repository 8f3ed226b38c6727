import { placeAddresses, type AddressLookup } from './addresses';
import type { Queryable } from '../storage/db';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import { periodDays, periodRange, type DashboardPeriod } from '../pipeline/rollups/dashboard';
import { addDays, dayStartOf } from '../pipeline/common/zoned-time';
import { hourlySql, planRange, rangeSql, sameDays } from './range';
import { selectionAnd, selectionSql, type ReportSelection } from './filters';
import { page } from '../http/page';

/**
 * Report queries. Every figure comes from the pipeline's rollups and event tables (vehicle_rollups,
 * device_trips, salik_events, notifications), never from raw locations, and every query is limited to
 * the vehicles inside the tenant's scope.
 */

export const VEHICLE_SUMMARY = `jsonb_build_object('uuid', v.uuid, 'license_plate_number', v.license_plate_number,
  'license_plate_state_code', v.data->>'license_plate_state_code', 'license_plate_category', v.data->>'license_plate_category',
  'type', v.type)`;

export interface Figures {
  distance_km: number;
  driving_hours: number;
  idle_hours: number;
  trips: number;
  violations: number;
  fuel_used_litres: number;
  active_vehicles: number;
}

export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function figures(row: Record<string, unknown> | undefined): Figures {
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    distance_km: round(n('distance_km')),
    driving_hours: round(n('driving_hours')),
    idle_hours: round(n('idle_hours')),
    trips: Math.round(n('trips')),
    violations: Math.round(n('violations')),
    fuel_used_litres: round(n('fuel_used_l')),
    active_vehicles: Math.round(n('active_vehicles')),
  };
}

/**
 * Home dashboard: rolling period ending today in `timeZone` (week 7, month 30, year 365 days), the
 * previous period of the same length, and a series (daily for week and month, monthly for year).
 *
 * The periods and the series are cut in the request's zone (`timeZone`); the rollups are bucketed in the
 * pipeline's zone (`rollupTimeZone`). When both zones share their midnights the daily rows answer; when
 * they do not, the edges (and the series buckets) come from the hourly rows (see range.ts).
 */
export async function dashboardReport(
  db: Queryable,
  tenant: Tenant,
  period: DashboardPeriod,
  now: Date,
  timeZone: string,
  rollupTimeZone: string = timeZone,
) {
  const cur = periodRange(period, now.getTime(), timeZone);
  const prevTo = addDays(cur.from, -1);
  const prevFrom = addDays(prevTo, -(periodDays[period] - 1));
  const curFromMs = dayStartOf(cur.from, timeZone);
  const curToMs = dayStartOf(addDays(cur.to, 1), timeZone);
  const totalsOf = async (fromMs: number, toMs: number) => {
    const params: unknown[] = [];
    const scope = scopeSql('vehicles', 'v', tenant, params);
    const cond = rangeSql('r', planRange(fromMs, toMs, rollupTimeZone), params);
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT sum(r.distance_m) / 1000 AS distance_km, sum(r.driving_s) / 3600 AS driving_hours,
              sum(r.idle_s) / 3600 AS idle_hours, sum(r.trips) AS trips, sum(r.violations) AS violations,
              sum(r.fuel_used_l) AS fuel_used_l,
              count(DISTINCT r.vehicle_id) FILTER (WHERE r.distance_m > 0 OR r.driving_s > 0) AS active_vehicles
       FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
       WHERE ${scope} AND r.company_id = $1 AND ${cond}`,
      params,
    );
    return figures(row);
  };
  const current = await totalsOf(curFromMs, curToMs);
  const previous = await totalsOf(dayStartOf(prevFrom, timeZone), curFromMs);

  const seriesParams: unknown[] = [];
  const seriesScope = scopeSql('vehicles', 'v', tenant, seriesParams);
  const plan = planRange(curFromMs, curToMs, rollupTimeZone);
  let bucketed: string;
  let cond: string;
  if (sameDays(cur.from, cur.to, timeZone, rollupTimeZone)) {
    bucketed = 'r.day';
    cond = rangeSql('r', plan, seriesParams);
  } else {
    bucketed = `(r.starts_at AT TIME ZONE $${seriesParams.push(timeZone)})::date`;
    cond = hourlySql('r', plan, seriesParams);
  }
  const bucket = period === 'year' ? `date_trunc('month', ${bucketed})::date` : bucketed;
  const series = await db.query<{ day: string | Date; distance_km: number; trips: number }>(
    `SELECT ${bucket}::text AS day, sum(r.distance_m) / 1000 AS distance_km, sum(r.trips)::int AS trips
     FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
     WHERE ${seriesScope} AND r.company_id = $1 AND ${cond}
     GROUP BY 1 ORDER BY 1`,
    seriesParams,
  );
  return {
    period,
    from: new Date(curFromMs).toISOString(),
    to: new Date(curToMs).toISOString(),
    current,
    previous,
    series: filledSeries(period, cur, series, timeZone),
  };
}

/**
 * The series with one point per bucket of the period (every day of a week or month, every month a year
 * touches), zero where nothing was driven: a chart of a week shows seven days, not the one day that had
 * data, and clients need no gap-filling of their own.
 */
function filledSeries(
  period: DashboardPeriod,
  cur: { from: string; to: string },
  rows: { day: string | Date; distance_km: number; trips: number }[],
  timeZone: string,
) {
  const byDay = new Map(rows.map((r) => [String(r.day).slice(0, 10), r]));
  const buckets: string[] = [];
  if (period === 'year') {
    for (let m = `${cur.from.slice(0, 7)}-01`; m <= cur.to; m = nextMonth(m)) buckets.push(m);
  } else {
    for (let d = cur.from; d <= cur.to; d = addDays(d, 1)) buckets.push(d);
  }
  return buckets.map((day) => {
    const r = byDay.get(day);
    return {
      at: new Date(dayStartOf(day, timeZone)).toISOString(),
      distance_km: r ? round(Number(r.distance_km)) : 0,
      trips: r ? Number(r.trips) : 0,
    };
  });
}

/** The first day of the month after the one of `date` ('YYYY-MM-DD'). */
function nextMonth(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

export interface ReportRange extends ReportSelection {
  readonly from: string;
  readonly to: string;
  /** The user reading (alerts are stored per recipient: the events report shows this user's copy). */
  readonly viewer_id?: number | undefined;
  readonly page: number;
  readonly limit: number;
  /** The reader's language: addresses of the places in a page (stops, trip list) come in it. */
  readonly lang?: 'en' | 'ar' | undefined;
  /** How those addresses are found; without it only the geocoding cache is read (reports/addresses.ts). */
  readonly addresses?: AddressLookup | undefined;
  /**
   * Keyset ("seek") paging for exports: the page after `after` (null: the first page) in the report's
   * order, with no count and no OFFSET; the answer carries `next` (the cursor of its last row, null
   * on the last page) and its `total` means nothing. Absent: the spec's paged answer (page, limit,
   * total), unchanged.
   */
  readonly seek?: { readonly after: Cursor | null } | undefined;
}

export { page };

/** A position in a report's order: the values of its sort keys at one row (dates and times as text). */
export type Cursor = readonly (string | number | null)[];

/**
 * One sort key of a report. `cast` names the SQL type of a key read back as text (timestamps keep
 * their microseconds that way: a JS Date would round them and a cursor would skip or repeat rows).
 */
export interface SeekKey {
  readonly sql: string;
  readonly desc?: boolean;
  readonly cast?: 'timestamptz' | 'date';
}

/** The keys as extra columns `seek_0`, `seek_1`, ... of a query's select list (leading comma). */
export function seekColumns(keys: readonly SeekKey[]): string {
  return keys.map((k, i) => `, ${k.cast ? `(${k.sql})::text` : k.sql} AS seek_${i}`).join('');
}

/**
 * The condition "after the cursor" in the order of `keys`: a row comparison when every key runs the
 * same way (PostgreSQL can seek an index with it), the lexicographic OR of prefixes otherwise. Keys
 * must not be null (every report's keys are NOT NULL columns or expressions over them). 'true' for
 * the first page.
 */
export function seekSql(
  keys: readonly SeekKey[],
  after: Cursor | null | undefined,
  params: unknown[],
): string {
  if (!after) return 'true';
  const p = (i: number) => `$${params.push(after[i])}${keys[i]!.cast ? `::${keys[i]!.cast}` : ''}`;
  const desc = !!keys[0]!.desc;
  if (keys.every((k) => !!k.desc === desc))
    return `((${keys.map((k) => k.sql).join(', ')}) ${desc ? '<' : '>'} (${keys.map((_, i) => p(i)).join(', ')}))`;
  const ors = keys.map((k, i) =>
    [...keys.slice(0, i).map((e, j) => `${e.sql} = ${p(j)}`), `${k.sql} ${k.desc ? '<' : '>'} ${p(i)}`].join(
      ' AND ',
    ),
  );
  return `(${ors.map((o) => `(${o})`).join(' OR ')})`;
}

/** ORDER BY of the keys. */
export function seekOrder(keys: readonly SeekKey[]): string {
  return keys.map((k) => `${k.sql}${k.desc ? ' DESC' : ''}`).join(', ');
}

/** LIMIT and OFFSET of a paged answer, or only LIMIT when seeking. */
export function limitSql(q: ReportRange, params: unknown[]): string {
  return q.seek
    ? `LIMIT $${params.push(q.limit)}`
    : `LIMIT $${params.push(q.limit)} OFFSET $${params.push((q.page - 1) * q.limit)}`;
}

/** The cursor of a row read with {@link seekColumns}. */
export function cursorOf(row: Record<string, unknown>, keys: readonly SeekKey[]): Cursor {
  return keys.map((_, i) => {
    const v = row[`seek_${i}`];
    return v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
  });
}

/**
 * The answer of a report: the spec's page envelope, or when seeking the rows with the cursor of the
 * last one (`next`, null when the page was not full: nothing follows).
 */
export function answer<T>(
  data: T[],
  q: ReportRange,
  count: () => number,
  rows: readonly Record<string, unknown>[],
  keys: readonly SeekKey[],
  next?: Cursor | null,
): ReturnType<typeof page<T>> & { next?: Cursor | null } {
  if (!q.seek) return page(data, count(), q);
  const last = rows[rows.length - 1];
  return {
    ...page(data, data.length, { page: 1, limit: q.limit }),
    next: next !== undefined ? next : rows.length < q.limit || !last ? null : cursorOf(last, keys),
  };
}

/** Runs the count query only for paged answers (a seek has no count). */
export async function countOf(
  db: Queryable,
  q: ReportRange,
  sql: string,
  params: unknown[],
): Promise<number> {
  if (q.seek) return 0;
  const [c] = await db.query<{ n: number }>(sql, params);
  return c?.n ?? 0;
}

/**
 * Trips report: per vehicle over [from, to), from daily rollups (hourly ones at edges that are not whole
 * rollup days, e.g. a range cut in another time zone).
 */
export async function tripsReport(db: Queryable, tenant: Tenant, q: ReportRange, rollupTimeZone: string) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const where = [
    `${scope}`,
    'r.company_id = $1',
    rangeSql('r', planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone), params),
  ];
  where.push(...selectionSql('v', q, params));
  where.push(seekSql(BY_PLATE, q.seek?.after, params));
  const grouped = `FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id WHERE ${where.join(' AND ')} GROUP BY v.id`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (SELECT v.id ${grouped}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, sum(r.trips)::int AS trips, sum(r.distance_m) AS distance_m,
            sum(r.driving_s) AS driving_s, sum(r.idle_s) AS idle_s, max(r.max_speed_kmh) AS max_speed${seekColumns(BY_PLATE)}
     ${grouped} ORDER BY ${seekOrder(BY_PLATE)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => {
      const distanceM = Number(r.distance_m);
      const drivingS = Number(r.driving_s);
      return {
        vehicle: r.vehicle,
        trips: Number(r.trips),
        distance_km: round(distanceM / 1000, 2),
        driving_seconds: Math.round(drivingS),
        idle_seconds: Math.round(Number(r.idle_s)),
        max_speed: Number(r.max_speed),
        average_speed: drivingS > 0 ? round((distanceM / drivingS) * 3.6) : 0,
      };
    }),
    q,
    () => n,
    rows,
    BY_PLATE,
  );
}

/** Per-vehicle reports are ordered by plate, then id. */
export const BY_PLATE: readonly SeekKey[] = [{ sql: 'v.license_plate_number' }, { sql: 'v.id' }];

/** Salik report: crossings, charged crossings and total fee per vehicle. */
export async function salikReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const where = [
    scope,
    `e.at >= $${params.push(q.from)}::timestamptz`,
    `e.at < $${params.push(q.to)}::timestamptz`,
  ];
  where.push(...selectionSql('v', q, params));
  where.push(seekSql(BY_PLATE, q.seek?.after, params));
  const grouped = `FROM salik_events e JOIN vehicles v ON v.id = e.vehicle_id WHERE ${where.join(' AND ')} GROUP BY v.id`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (SELECT v.id ${grouped}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, count(*)::int AS crossings, count(*) FILTER (WHERE e.fee > 0)::int AS charged,
            coalesce(sum(e.fee), 0) AS total_fee, coalesce(max(e.data->>'currency'), 'AED') AS currency${seekColumns(BY_PLATE)}
     ${grouped} ORDER BY ${seekOrder(BY_PLATE)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => ({
      vehicle: r.vehicle,
      crossings: Number(r.crossings),
      charged_crossings: Number(r.charged),
      total_fee: round(Number(r.total_fee), 2),
      currency: String(r.currency),
    })),
    q,
    () => n,
    rows,
    BY_PLATE,
  );
}

/** Violations: newest first; alerts at the same time by vehicle, then by their first copy's id. */
const VIOLATION_ORDER: readonly SeekKey[] = [
  { sql: 'device_created_at', desc: true, cast: 'timestamptz' },
  { sql: 'vid' },
  { sql: 'nid' },
];

/** Violations report: one row per violation alert (notifications are per user; de-duplicated by alert). */
export async function violationsReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const where = [
    scope,
    `n.type IN ('overspeed', 'violation_output', 'emergency_button')`,
    `n.device_created_at >= $${params.push(q.from)}::timestamptz`,
    `n.device_created_at < $${params.push(q.to)}::timestamptz`,
  ];
  where.push(...selectionSql('v', q, params));
  const distinct = `SELECT DISTINCT ON (n.data->>'dedupe_key') n.type, n.device_created_at, n.violation_value, v.id AS vid,
      n.id AS nid, ${VEHICLE_SUMMARY} AS vehicle
    FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id WHERE ${where.join(' AND ')}
    ORDER BY n.data->>'dedupe_key', n.id`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n FROM (${distinct}) x`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT *${seekColumns(VIOLATION_ORDER)} FROM (${distinct}) x WHERE ${seekSql(VIOLATION_ORDER, q.seek?.after, params)}
     ORDER BY ${seekOrder(VIOLATION_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => {
      const raw = r.violation_value as string | null;
      const num = raw === null ? null : Number(raw);
      return {
        vehicle: r.vehicle,
        kind: r.type as 'overspeed',
        occurred_at: new Date(r.device_created_at as string).toISOString(),
        value: num !== null && Number.isFinite(num) ? num : raw,
        latitude: null,
        longitude: null,
      };
    }),
    q,
    () => n,
    rows,
    VIOLATION_ORDER,
  );
}

/** Stops and idling periods in start order; periods starting together by their row id. */
export const STOP_ORDER: readonly SeekKey[] = [{ sql: 's.started_at', cast: 'timestamptz' }, { sql: 's.id' }];

/**
 * Stops or idling periods the pipeline detected (device_stops, one row per period, index on company,
 * kind and start), starting inside [from, to), oldest first.
 */
export async function stopsReport(db: Queryable, tenant: Tenant, q: ReportRange, kind: 'stops' | 'idles') {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const after = q.seek?.after;
  // A seek starts at the cursor's time (the index's column), then skips the rows of that instant already read.
  const from = `$${params.push(after ? after[0] : q.from)}::timestamptz`;
  const to = `$${params.push(q.to)}::timestamptz`;
  const list = `FROM device_stops s JOIN vehicles v ON v.id = s.vehicle_id
    WHERE ${scope} AND s.company_id = $1 AND s.kind = $${params.push(kind === 'stops' ? 'stop' : 'idle')}
      AND s.started_at >= ${from} AND s.started_at < ${to}${selectionAnd('v', q, params)}
      AND ${seekSql(STOP_ORDER, after, params)}`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n ${list}`, params);
  const rows = await db.query<{
    vehicle: unknown;
    start: number;
    end: number;
    minutes: number;
    lat: number;
    lon: number;
  }>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, (extract(epoch FROM s.started_at) * 1000)::float8 AS start,
            (extract(epoch FROM s.ended_at) * 1000)::float8 AS "end", s.minutes, s.latitude AS lat, s.longitude AS lon
            ${seekColumns(STOP_ORDER)}
     ${list} ORDER BY ${seekOrder(STOP_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  const data = await stopRows(
    db,
    q,
    rows.map((r) => ({
      vehicle: r.vehicle,
      item: {
        startTime: Math.round(Number(r.start)),
        endTime: Math.round(Number(r.end)),
        minutes: Number(r.minutes),
        place: { lat: Number(r.lat), lon: Number(r.lon) },
      },
    })),
  );
  return answer(data, q, () => n, rows as unknown as Record<string, unknown>[], STOP_ORDER);
}

/** A stop or idle period as the pipeline detects it (trips/trips.ts `Stop`, `IdlePeriod`). */
export interface StoredStop {
  startTime: number;
  endTime: number;
  minutes: number;
  place: { lat: number; lon: number };
}

/** Stops (or idles) as report rows, with their addresses in the reader's language (one lookup). */
export async function stopRows(
  db: Queryable,
  q: Pick<ReportRange, 'lang' | 'addresses'>,
  rows: readonly { vehicle: unknown; item: StoredStop }[],
) {
  const addresses = await placeAddresses(
    db,
    q,
    rows.map((r) => ({ lat: r.item.place.lat, lng: r.item.place.lon })),
  );
  return rows.map((r, i) => ({
    vehicle: r.vehicle,
    started_at: new Date(r.item.startTime).toISOString(),
    ended_at: new Date(r.item.endTime).toISOString(),
    duration_minutes: r.item.minutes,
    latitude: r.item.place.lat,
    longitude: r.item.place.lon,
    address: addresses[i] ?? null,
  }));
}
