import type { Queryable } from '../storage/db';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import {
  answer,
  BY_PLATE,
  countOf,
  cursorOf,
  limitSql,
  round,
  seekColumns,
  seekOrder,
  seekSql,
  VEHICLE_SUMMARY,
  type Cursor,
  type ReportRange,
  type SeekKey,
} from './queries';
import { hourlySql, planRange, rangeSql, type RollupRange } from './range';
import { selectionAnd, selectionSql } from './filters';

/**
 * Fuel, engine, wheel and geofence-visit reports. Figures come from `vehicle_rollups` (daily rows for the
 * whole rollup days of the range, hourly rows at its edges), the refuels and drops from `fuel_events`, and
 * visits from `geofence_events`; raw positions are never read.
 *
 * Charts: one point per rollup hour for ranges up to `HOURLY_CHART_DAYS` days, one per day beyond, so a
 * page of 50 vehicles over a month stays at 36,000 points at most.
 */
export const HOURLY_CHART_DAYS = 31;

interface Listed {
  vehicle: unknown;
  vehicle_id: number;
  total: number;
  [k: string]: unknown;
}

/**
 * The page of vehicles that have rollups matching `having` in the range, with the aggregates `select`
 * (over the rollup rows `r`), ordered by plate. `total` comes with every row (window count).
 */
async function listVehicles(
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  plan: RollupRange,
  select: string,
  having: string,
): Promise<{ rows: Listed[]; total: number; next?: Cursor | null }> {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const where = [scope, 'r.company_id = $1', rangeSql('r', plan, params)];
  where.push(...selectionSql('v', q, params));
  where.push(seekSql(BY_PLATE, q.seek?.after, params));
  const rows = await db.query<Listed>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, v.id AS vehicle_id, v.data->>'fuel_tank_capacity' AS tank_l, ${select},
            ${q.seek ? '0' : 'count(*) OVER ()::int'} AS total${seekColumns(BY_PLATE)}
     FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
     WHERE ${where.join(' AND ')}
     GROUP BY v.id HAVING ${having}
     ORDER BY ${seekOrder(BY_PLATE)} ${limitSql(q, params)}`,
    params,
  );
  if (q.seek) {
    const last = rows[rows.length - 1];
    return { rows, total: 0, next: rows.length < q.limit || !last ? null : cursorOf(last, BY_PLATE) };
  }
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.page > 1) {
    // Past the last page: the window count is not there, count separately.
    const cp: unknown[] = [];
    const cs = scopeSql('vehicles', 'v', tenant, cp);
    const cw = [cs, 'r.company_id = $1', rangeSql('r', plan, cp)];
    cw.push(...selectionSql('v', q, cp));
    const [c] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT v.id FROM vehicle_rollups r JOIN vehicles v ON v.id = r.vehicle_id
       WHERE ${cw.join(' AND ')} GROUP BY v.id HAVING ${having}) x`,
      cp,
    );
    total = c?.n ?? 0;
  }
  return { rows, total };
}

/** The page envelope of a per-vehicle report, or the seek answer with its cursor. */
function listedAnswer<T>(data: T[], listed: { total: number; next?: Cursor | null }, q: ReportRange) {
  return answer(data, q, () => listed.total, [], BY_PLATE, listed.next);
}

/** Chart rows of the listed vehicles: hourly rows in the range, or daily rows for long ranges. */
async function chartRows<T>(
  db: Queryable,
  companyId: number,
  ids: number[],
  plan: RollupRange,
  select: string,
  filter: string,
): Promise<(T & { vehicle_id: number; at: Date | string })[]> {
  if (ids.length === 0) return [];
  const params: unknown[] = [companyId, ids];
  const days = (plan.to - plan.from) / 86_400_000;
  const rows = days <= HOURLY_CHART_DAYS ? hourlySql('r', plan, params) : rangeSql('r', plan, params);
  return db.query<T & { vehicle_id: number; at: Date | string }>(
    `SELECT r.vehicle_id, r.starts_at AS at, ${select} FROM vehicle_rollups r
     WHERE r.company_id = $1 AND r.vehicle_id = ANY($2::bigint[]) AND r.starts_at IS NOT NULL AND ${rows} AND ${filter}
     ORDER BY r.vehicle_id, r.starts_at, r.hour`,
    params,
  );
}

function byVehicle<T extends { vehicle_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const id = Number(r.vehicle_id);
    let list = m.get(id);
    if (!list) m.set(id, (list = []));
    list.push(r);
  }
  return m;
}

const isoOf = (d: Date | string) => new Date(d).toISOString();
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The fuel level chart of one vehicle, in litres whenever the vehicle reports litres, else in percent.
 *
 * Litres come from IO 84: the device's own litres or, with a fuel sensor configured for the device
 * (issue 19: an analog input through its calibration table, gateway/sensors.ts), the calibrated litres
 * the gateway writes there. They are what the tank holds, so they win over the percentage of IO 89
 * (a float gauge's coarse reading): a bucket with litres shows them, a bucket with only a percentage shows
 * it converted with the vehicle's tank capacity (skipped without one), so one chart never mixes units.
 * Without any litres in the range the chart stays in percent (IO 89) as before.
 */
export function fuelLevelSeries(
  rows: readonly { at: Date | string; pct: number | null; litres: number | null }[],
  tankLitres: number,
): { level: { at: string; value: number }[]; unit: 'litres' | 'percent' } {
  const level: { at: string; value: number }[] = [];
  const tank = Number.isFinite(tankLitres) && tankLitres > 0 ? tankLitres : null;
  if (rows.some((l) => l.litres !== null)) {
    for (const l of rows) {
      const litres =
        l.litres !== null
          ? Number(l.litres)
          : l.pct !== null && tank !== null
            ? (Number(l.pct) / 100) * tank
            : null;
      if (litres !== null && Number.isFinite(litres))
        level.push({ at: isoOf(l.at), value: round(litres, 1) });
    }
    return { level, unit: 'litres' };
  }
  for (const l of rows) if (l.pct !== null) level.push({ at: isoOf(l.at), value: round(Number(l.pct), 1) });
  return { level, unit: 'percent' };
}

/**
 * Fuel report per vehicle: litres used (counter IO 83, else level analysis), distance, consumption per
 * 100 km and per engine hour, refuels and drops with litres, time and place, and the level over time in
 * litres (IO 84, calibrated per device) or, when the vehicle reports no litres, in percent (IO 89); see
 * {@link fuelLevelSeries}.
 */
export async function fuelReport(db: Queryable, tenant: Tenant, q: ReportRange, rollupTimeZone: string) {
  const plan = planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone);
  const listed = await listVehicles(
    db,
    tenant,
    q,
    plan,
    `sum(r.fuel_used_l) AS used_l, sum(r.distance_m) AS distance_m, sum(r.engine_s) AS engine_s`,
    `sum(r.fuel_used_l) > 0 OR sum(r.refuels + r.drops) > 0 OR bool_or(r.fuel_level_pct IS NOT NULL OR r.fuel_level_l IS NOT NULL)`,
  );
  const { rows } = listed;
  const ids = rows.map((r) => Number(r.vehicle_id));
  const levels = byVehicle(
    await chartRows<{ pct: number | null; litres: number | null }>(
      db,
      tenant.companyId,
      ids,
      plan,
      'r.fuel_level_pct AS pct, r.fuel_level_l AS litres',
      '(r.fuel_level_pct IS NOT NULL OR r.fuel_level_l IS NOT NULL)',
    ),
  );
  const events = byVehicle(
    ids.length === 0
      ? []
      : await db.query<{
          vehicle_id: number;
          kind: 'refuel' | 'drop';
          litres: number;
          at: Date | string;
          latitude: number | null;
          longitude: number | null;
        }>(
          `SELECT vehicle_id, kind, litres, at, latitude, longitude FROM fuel_events
           WHERE company_id = $1 AND vehicle_id = ANY($2::bigint[]) AND at >= $3::timestamptz AND at < $4::timestamptz
           ORDER BY at, id`,
          [tenant.companyId, ids, q.from, q.to],
        ),
  );
  return listedAnswer(
    rows.map((r) => {
      const id = Number(r.vehicle_id);
      const used = Number(r.used_l);
      const km = Number(r.distance_m) / 1000;
      const hours = Number(r.engine_s) / 3600;
      const tank = Number(r.tank_l);
      const ev = events.get(id) ?? [];
      const place = (e: (typeof ev)[number]) => ({
        at: isoOf(e.at),
        litres: round(Number(e.litres), 1),
        latitude: num(e.latitude),
        longitude: num(e.longitude),
      });
      const { level, unit } = fuelLevelSeries(levels.get(id) ?? [], tank);
      return {
        vehicle: r.vehicle,
        fuel_used_litres: round(used, 1),
        distance_km: round(km, 1),
        consumption_per_100km: km >= 1 && used > 0 ? round((used / km) * 100, 1) : null,
        consumption_per_hour: hours > 0 && used > 0 ? round(used / hours, 2) : null,
        refuels: ev.filter((e) => e.kind === 'refuel').map(place),
        drops: ev.filter((e) => e.kind === 'drop').map(place),
        level,
        level_unit: unit,
      };
    }),
    listed,
    q,
  );
}

/**
 * Engine report per vehicle: engine hours (ignition on), highest RPM, over-revving episodes, highest
 * temperature, and hourly (daily for long ranges) average RPM and temperature for the charts.
 */
export async function engineReport(db: Queryable, tenant: Tenant, q: ReportRange, rollupTimeZone: string) {
  const plan = planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone);
  const listed = await listVehicles(
    db,
    tenant,
    q,
    plan,
    `sum(r.engine_s) AS engine_s, max(r.rpm_max) FILTER (WHERE r.rpm_seconds > 0) AS rpm_max,
     sum(r.over_revs)::int AS over_revs, max(r.temp_max) AS temp_max`,
    `sum(r.engine_s) > 0 OR sum(r.rpm_seconds) > 0 OR sum(r.temp_count) > 0`,
  );
  const { rows } = listed;
  const ids = rows.map((r) => Number(r.vehicle_id));
  const points = byVehicle(
    await chartRows<{ rpm: number | null; temp: number | null }>(
      db,
      tenant.companyId,
      ids,
      plan,
      `CASE WHEN r.rpm_seconds > 0 THEN r.rpm_seconds_sum / r.rpm_seconds END AS rpm,
       CASE WHEN r.temp_count > 0 THEN r.temp_sum / r.temp_count END AS temp`,
      '(r.rpm_seconds > 0 OR r.temp_count > 0)',
    ),
  );
  return listedAnswer(
    rows.map((r) => {
      const pts = points.get(Number(r.vehicle_id)) ?? [];
      return {
        vehicle: r.vehicle,
        engine_hours: round(Number(r.engine_s) / 3600, 2),
        max_rpm: num(r.rpm_max),
        over_rev_events: Number(r.over_revs),
        max_temperature: r.temp_max === null ? null : round(Number(r.temp_max), 1),
        rpm: pts
          .filter((p) => p.rpm !== null)
          .map((p) => ({ at: isoOf(p.at), value: Math.round(Number(p.rpm)) })),
        temperature: pts
          .filter((p) => p.temp !== null)
          .map((p) => ({ at: isoOf(p.at), value: round(Number(p.temp), 1) })),
      };
    }),
    listed,
    q,
  );
}

/** Wheel report per vehicle: the last pressure and temperature of each tyre position within the range. */
export async function wheelReport(db: Queryable, tenant: Tenant, q: ReportRange, rollupTimeZone: string) {
  const plan = planRange(Date.parse(q.from), Date.parse(q.to), rollupTimeZone);
  const listed = await listVehicles(
    db,
    tenant,
    q,
    plan,
    `jsonb_agg(r.tyres) FILTER (WHERE r.tyres IS NOT NULL) AS tyres`,
    `bool_or(r.tyres IS NOT NULL)`,
  );
  const { rows } = listed;
  const order = ['FL', 'FR', 'RL', 'RR', 'RL2', 'RR2'];
  return listedAnswer(
    rows.map((r) => {
      const latest = new Map<string, { p: number | null; t: number | null; at: number }>();
      for (const bucket of (r.tyres as Record<
        string,
        { p: number | null; t: number | null; at: number }
      >[]) ?? []) {
        for (const [pos, reading] of Object.entries(bucket)) {
          const prev = latest.get(pos);
          if (!prev || reading.at > prev.at) latest.set(pos, reading);
        }
      }
      const tyres = [...latest.entries()]
        .sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b))
        .map(([position, x]) => ({
          position,
          pressure_kpa: x.p,
          temperature_c: x.t,
          at: new Date(x.at).toISOString(),
        }));
      return { vehicle: r.vehicle, tyres };
    }),
    listed,
    q,
  );
}

/** How far back an entry without exit is still looked for as an open visit (the vehicle is still inside). */
const OPEN_VISIT_LOOKBACK_DAYS = 31;

/**
 * Geofence visits overlapping [from, to): each exit event is a visit from its recorded entry time (dwell
 * in seconds); an entry with no later exit is an open visit (exited_at and dwell null). Geofences whose
 * tracking rules record only entries give open visits only; an entry older than 31 days without an exit
 * is not reported as open.
 */
export async function geofenceVisitsReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const from = `$${params.push(q.from)}::timestamptz`;
  const to = `$${params.push(q.to)}::timestamptz`;
  const lookback = `$${params.push(OPEN_VISIT_LOOKBACK_DAYS)}::int`;
  const vehicleCond = selectionAnd('v', q, params);
  const visits = `
    SELECT x.id AS eid, x.vehicle_id, x.geofence_id,
           coalesce((x.data->>'entered_at')::timestamptz,
                    x.at - make_interval(secs => coalesce((x.data->>'dwell_seconds')::float8, 0))) AS entered_at,
           x.at AS exited_at, (x.data->>'dwell_seconds')::float8 AS dwell
    FROM geofence_events x WHERE x.company_id = $1 AND x.kind = 'exit' AND x.at >= ${from}
    UNION ALL
    SELECT n.id, n.vehicle_id, n.geofence_id, n.at, NULL, NULL
    FROM geofence_events n
    WHERE n.company_id = $1 AND n.kind = 'entry' AND n.at < ${to}
      AND n.at >= ${from} - make_interval(days => ${lookback})
      AND NOT EXISTS (SELECT 1 FROM geofence_events x WHERE x.vehicle_id = n.vehicle_id
                        AND x.geofence_id = n.geofence_id AND x.kind = 'exit' AND x.at > n.at)`;
  // Only geofences the reader can see (issue 18).
  const list = `FROM (${visits}) w JOIN vehicles v ON v.id = w.vehicle_id JOIN geofences g ON g.id = w.geofence_id
    WHERE ${scope}${vehicleCond} AND w.entered_at < ${to}
      AND ${scopeSql('geofences', 'g', tenant, params)}
      AND ${seekSql(VISIT_ORDER, q.seek?.after, params)}`;
  const n = await countOf(db, q, `SELECT count(*)::int AS n ${list}`, params);
  const rows = await db.query<{
    vehicle: unknown;
    geofence_uuid: string;
    geofence_name: string;
    entered_at: Date | string;
    exited_at: Date | string | null;
    dwell: number | null;
  }>(
    `SELECT ${VEHICLE_SUMMARY} AS vehicle, g.uuid AS geofence_uuid, g.name AS geofence_name, w.entered_at,
            w.exited_at, w.dwell${seekColumns(VISIT_ORDER)}
     ${list} ORDER BY ${seekOrder(VISIT_ORDER)} ${limitSql(q, params)}`,
    params,
  );
  return answer(
    rows.map((r) => ({
      vehicle: r.vehicle,
      geofence_uuid: r.geofence_uuid,
      geofence_name: r.geofence_name,
      entered_at: isoOf(r.entered_at),
      exited_at: r.exited_at === null ? null : isoOf(r.exited_at),
      dwell_seconds: r.dwell === null ? null : Math.round(Number(r.dwell)),
    })),
    q,
    () => n,
    rows as unknown as Record<string, unknown>[],
    VISIT_ORDER,
  );
}

/** Visits by entry time, vehicle, geofence, then the event's id (an exit's, or an open entry's). */
const VISIT_ORDER: readonly SeekKey[] = [
  { sql: 'w.entered_at', cast: 'timestamptz' },
  { sql: 'v.id' },
  { sql: 'g.id' },
  { sql: 'w.eid' },
];
