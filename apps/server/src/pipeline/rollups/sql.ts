/**
 * SQL for rollups. The tables (vehicle_rollups, fuel_events) are created by migration
 * 0007_reports.sql, the one source of their shape. The report queries read only rollups and event
 * tables, never raw locations.
 */

/** Per-vehicle totals of a company over [from, to] (dates), daily rows only. */
export const PER_VEHICLE_TOTALS_SQL = `
SELECT vehicle_id,
       sum(distance_m) / 1000 AS distance_km,
       sum(driving_s) / 3600 AS driving_hours,
       sum(idle_s) / 3600 AS idle_hours,
       sum(engine_s) / 3600 AS engine_hours,
       sum(trips)::int AS trips,
       sum(violations)::int AS violations,
       sum(fuel_used_l) AS fuel_used_l,
       max(max_speed_kmh) AS max_speed_kmh
FROM vehicle_rollups
WHERE company_id = $1 AND hour = -1 AND day BETWEEN $2::date AND $3::date
GROUP BY vehicle_id
ORDER BY vehicle_id`;

/** Dashboard figures for two periods at once (current = 'c', previous = 'p'). */
export const DASHBOARD_SQL = `
SELECT CASE WHEN day >= $2::date THEN 'c' ELSE 'p' END AS period,
       sum(distance_m) / 1000 AS distance_km,
       sum(driving_s) / 3600 AS driving_hours,
       sum(idle_s) / 3600 AS idle_hours,
       sum(trips)::int AS trips,
       sum(violations)::int AS violations,
       sum(fuel_used_l) AS fuel_used_l,
       count(DISTINCT vehicle_id) FILTER (WHERE distance_m > 0 OR driving_s > 0)::int AS active_vehicles
FROM vehicle_rollups
WHERE company_id = $1 AND hour = -1 AND day BETWEEN $4::date AND $3::date
GROUP BY 1`;
