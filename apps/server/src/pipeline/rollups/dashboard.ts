import { addDays, localDate } from '../common/zoned-time';
import type { VehicleRollup } from './rollups';

/**
 * Home dashboard and report totals, computed from daily rollups only (never raw positions).
 *
 * Periods (the spec names week, month, year without bounds; decision): rolling windows ending today in
 * the company's zone: week = the last 7 days, month = the last 30 days, year = the last 365 days; the
 * previous period is the window of the same length just before, so the comparison is like for like.
 */

export type DashboardPeriod = 'week' | 'month' | 'year';

export const periodDays: Record<DashboardPeriod, number> = { week: 7, month: 30, year: 365 };

export interface Totals {
  distanceKm: number;
  drivingHours: number;
  idleHours: number;
  engineHours: number;
  trips: number;
  violations: number;
  fuelUsedL: number;
  activeVehicles: number;
}

export interface DashboardFigures {
  readonly period: DashboardPeriod;
  readonly current: { readonly from: string; readonly to: string; readonly totals: Totals };
  readonly previous: { readonly from: string; readonly to: string; readonly totals: Totals };
  /** Percentage change per figure; null when the previous value is zero. */
  readonly change: Readonly<Record<keyof Totals, number | null>>;
}

/** Sums daily rows over [from, to] (inclusive dates); hourly rows are ignored. */
export function totals(rows: Iterable<VehicleRollup>, from: string, to: string): Totals {
  const t: Totals = {
    distanceKm: 0,
    drivingHours: 0,
    idleHours: 0,
    engineHours: 0,
    trips: 0,
    violations: 0,
    fuelUsedL: 0,
    activeVehicles: 0,
  };
  const active = new Set<string>();
  let distanceM = 0;
  let drivingS = 0;
  let idleS = 0;
  let engineS = 0;
  for (const r of rows) {
    if (r.hour !== null || r.date < from || r.date > to) continue;
    distanceM += r.distanceM;
    drivingS += r.drivingS;
    idleS += r.idleS;
    engineS += r.engineS;
    t.trips += r.trips;
    t.violations += r.violations;
    t.fuelUsedL += r.fuelUsedL;
    if (r.distanceM > 0 || r.drivingS > 0) active.add(r.vehicleId);
  }
  t.distanceKm = round(distanceM / 1000, 1);
  t.drivingHours = round(drivingS / 3600, 1);
  t.idleHours = round(idleS / 3600, 1);
  t.engineHours = round(engineS / 3600, 1);
  t.fuelUsedL = round(t.fuelUsedL, 1);
  t.activeVehicles = active.size;
  return t;
}

export function periodRange(
  period: DashboardPeriod,
  now: number,
  timeZone: string,
): { from: string; to: string } {
  const days = periodDays[period];
  if (!days) throw new RangeError(`Unknown dashboard period: ${String(period)}`);
  const to = localDate(now, timeZone);
  return { from: addDays(to, -(days - 1)), to };
}

export function dashboard(
  rows: readonly VehicleRollup[],
  period: DashboardPeriod,
  now: number,
  timeZone = 'Asia/Dubai',
): DashboardFigures {
  const cur = periodRange(period, now, timeZone);
  const prevTo = addDays(cur.from, -1);
  const prev = { from: addDays(prevTo, -(periodDays[period] - 1)), to: prevTo };
  const c = totals(rows, cur.from, cur.to);
  const p = totals(rows, prev.from, prev.to);
  const change = Object.fromEntries(
    (Object.keys(c) as (keyof Totals)[]).map((k) => [
      k,
      p[k] === 0 ? null : round(((c[k] - p[k]) / p[k]) * 100, 1),
    ]),
  ) as Record<keyof Totals, number | null>;
  return { period, current: { ...cur, totals: c }, previous: { ...prev, totals: p }, change };
}

/** Per-vehicle totals over a date range (the report tables), sorted by vehicle id. */
export function perVehicleTotals(
  rows: readonly VehicleRollup[],
  from: string,
  to: string,
): (Totals & { vehicleId: string })[] {
  const byVehicle = new Map<string, VehicleRollup[]>();
  for (const r of rows) {
    if (r.hour !== null || r.date < from || r.date > to) continue;
    let list = byVehicle.get(r.vehicleId);
    if (!list) byVehicle.set(r.vehicleId, (list = []));
    list.push(r);
  }
  return [...byVehicle.keys()]
    .sort()
    .map((vehicleId) => ({ vehicleId, ...totals(byVehicle.get(vehicleId)!, from, to) }));
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
