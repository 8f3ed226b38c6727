import { ioElementCatalogue } from '@fleet/core';
import { haversineM } from '../common/geo';
import { IO, TYRE_IO, ioNumber } from '../common/io';
import { recordIgnition, sortAndDedupe, type PositionRecord } from '../common/types';
import { addDays, dayStartOf, localDate, zonedHour } from '../common/zoned-time';
import { defaultSanityConfig, flagSequence } from '../sanity/sanity';
import {
  analyseFuelLevel,
  counterConsumption,
  defaultFuelOptions,
  type FuelEvent,
  type FuelOptions,
} from './fuel';

/**
 * Per-vehicle rollups by local day and hour, the only input of reports and the home dashboard.
 *
 * Each interval between two consecutive accepted records (no longer than `maxGapS`) is attributed to the
 * bucket of its first record: distance (haversine), driving time (moving), idle time (ignition on, not
 * moving), engine time (ignition on, or moving when the device has no ignition line), RPM time-weighted,
 * over-revving time. Counts of trips and violations are added from the trip detector and the alert
 * engine (`withCounts`). A day's rollups are a pure function of the records of that day plus one hour on
 * each side, so late data is handled by recomputing the record's day and the day before.
 */

export interface RollupOptions {
  readonly timeZone: string;
  readonly maxGapS: number;
  readonly movingSpeedKmh: number;
  readonly overRevRpm: number;
  /** Multiplier from the IO 25 raw value to degrees Celsius (@fleet/core's catalogue: 0.01). */
  readonly temperatureScale: number;
  readonly fuel: FuelOptions;
}

export const defaultRollupOptions: RollupOptions = {
  timeZone: 'Asia/Dubai',
  maxGapS: 30 * 60,
  movingSpeedKmh: 5,
  overRevRpm: 3500,
  temperatureScale: ioElementCatalogue[IO.temperature]?.scale ?? 0.01,
  fuel: defaultFuelOptions,
};

export interface VehicleRollup {
  readonly vehicleId: string;
  readonly date: string;
  /** 0-23 for hourly rows, null for the daily row */
  readonly hour: number | null;
  distanceM: number;
  drivingS: number;
  idleS: number;
  engineS: number;
  records: number;
  maxSpeedKmh: number;
  trips: number;
  violations: number;
  fuelUsedL: number;
  refuels: number;
  refuelL: number;
  drops: number;
  dropL: number;
  rpmMax: number;
  rpmSecondsSum: number;
  rpmSeconds: number;
  overRevS: number;
  tempMin: number | null;
  tempMax: number | null;
  tempSum: number;
  tempCount: number;
  /** Start of the bucket (epoch ms): the local day start, or the local hour start for hourly rows. */
  startsAt: number;
  /** Over-revving episodes (RPM rising above `overRevRpm`), counted in the bucket where they start. */
  overRevs: number;
  /** Last fuel level of the bucket in percent (IO 89), null when the device does not report it. */
  fuelLevelPct: number | null;
  /** Last fuel level of the bucket in litres (IO 84, smoothed), null when not reported. */
  fuelLevelL: number | null;
  /** Last tyre readings of the bucket per position (TYRE_IO), null when the device reports none. */
  tyres: Record<string, TyreReading> | null;
}

export interface TyreReading {
  /** kPa */
  p: number | null;
  /** degrees Celsius */
  t: number | null;
  /** epoch ms of the reading */
  at: number;
}

export function emptyRollup(vehicleId: string, date: string, hour: number | null): VehicleRollup {
  return {
    vehicleId,
    date,
    hour,
    distanceM: 0,
    drivingS: 0,
    idleS: 0,
    engineS: 0,
    records: 0,
    maxSpeedKmh: 0,
    trips: 0,
    violations: 0,
    fuelUsedL: 0,
    refuels: 0,
    refuelL: 0,
    drops: 0,
    dropL: 0,
    rpmMax: 0,
    rpmSecondsSum: 0,
    rpmSeconds: 0,
    overRevS: 0,
    tempMin: null,
    tempMax: null,
    tempSum: 0,
    tempCount: 0,
    startsAt: 0,
    overRevs: 0,
    fuelLevelPct: null,
    fuelLevelL: null,
    tyres: null,
  };
}

export interface DayRollups {
  readonly daily: VehicleRollup;
  /** 24 rows, hour 0..23 (local). In zones with DST a 25-hour day folds the repeated hour into one row. */
  readonly hourly: VehicleRollup[];
  readonly fuelEvents: FuelEvent[];
}

/** The record window to read for recomputing `date`: the day plus one hour on each side. */
export function rollupWindow(
  date: string,
  opts: RollupOptions = defaultRollupOptions,
): { from: number; to: number } {
  return {
    from: dayStartOf(date, opts.timeZone) - 3_600_000,
    to: dayStartOf(addDays(date, 1), opts.timeZone) + 3_600_000,
  };
}

/** Days whose rollups may change when records with these device times arrive. */
export function rollupAffectedDays(
  times: Iterable<number>,
  opts: RollupOptions = defaultRollupOptions,
): string[] {
  const days = new Set<string>();
  for (const t of times) {
    if (!Number.isFinite(t)) continue;
    days.add(localDate(t, opts.timeZone));
    days.add(localDate(t - 3_600_000, opts.timeZone));
    days.add(localDate(t + 3_600_000, opts.timeZone));
  }
  return [...days].sort();
}

/** Rollups of one vehicle for one local day, from the records of `rollupWindow(date)` (any order). */
export function computeDayRollups(
  vehicleId: string,
  windowRecords: readonly PositionRecord[],
  date: string,
  opts: RollupOptions = defaultRollupOptions,
): DayRollups {
  const dayStart = dayStartOf(date, opts.timeZone);
  const dayEnd = dayStartOf(addDays(date, 1), opts.timeZone);
  const { from, to } = rollupWindow(date, opts);
  const rs = flagSequence(
    sortAndDedupe(windowRecords.filter((r) => r.time >= from && r.time < to)),
    defaultSanityConfig,
  ).filter((r) => !r.ignored);
  const daily = emptyRollup(vehicleId, date, null);
  daily.startsAt = dayStart;
  const hourly = Array.from({ length: 24 }, (_, h) => emptyRollup(vehicleId, date, h));
  // Hour starts: the first instant of the day at each local hour (a DST fold keeps the first one).
  for (let t = dayStart; t < dayEnd; t += 900_000) {
    const h = hourly[zonedHour(t, opts.timeZone)]!;
    if (h.startsAt === 0) h.startsAt = t;
  }
  const inDay = (t: number) => t >= dayStart && t < dayEnd;
  const hourOf = (t: number) => zonedHour(t, opts.timeZone);
  const hasIgnition = rs.some((r) => recordIgnition(r) !== undefined);
  const maxGapMs = opts.maxGapS * 1000;

  const add = (t: number, f: (x: VehicleRollup) => void) => {
    f(daily);
    f(hourly[hourOf(t)]!);
  };

  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]!;
    if (!inDay(r.time)) continue;
    const temp = ioNumber(r.io, IO.temperature);
    const pct = ioNumber(r.io, IO.fuelLevel);
    const tyres = tyreReadings(r);
    add(r.time, (x) => {
      x.records++;
      if (pct !== undefined && pct >= 0 && pct <= 100) x.fuelLevelPct = pct;
      if (tyres) x.tyres = { ...x.tyres, ...tyres };
      if (r.speed > x.maxSpeedKmh) x.maxSpeedKmh = r.speed;
      if (temp !== undefined) {
        const c = temp * opts.temperatureScale;
        x.tempMin = x.tempMin === null ? c : Math.min(x.tempMin, c);
        x.tempMax = x.tempMax === null ? c : Math.max(x.tempMax, c);
        x.tempSum += c;
        x.tempCount++;
      }
    });
    const rpmNow = ioNumber(r.io, IO.engineRpm);
    if (rpmNow !== undefined && rpmNow > opts.overRevRpm) {
      const before = i > 0 ? ioNumber(rs[i - 1]!.io, IO.engineRpm) : undefined;
      const gap = i > 0 ? r.time - rs[i - 1]!.time : Infinity;
      if (before === undefined || before <= opts.overRevRpm || gap > maxGapMs)
        add(r.time, (x) => x.overRevs++);
    }
    const next = rs[i + 1];
    if (!next || next.time - r.time > maxGapMs) continue;
    const dt = (next.time - r.time) / 1000;
    const dist = haversineM(r.lat, r.lon, next.lat, next.lon);
    const moving = r.speed >= opts.movingSpeedKmh;
    const ign = recordIgnition(r);
    const engineOn = hasIgnition ? ign === true : moving;
    const rpm = ioNumber(r.io, IO.engineRpm);
    add(r.time, (x) => {
      x.distanceM += dist;
      if (moving) x.drivingS += dt;
      else if (ign === true) x.idleS += dt;
      if (engineOn) x.engineS += dt;
      if (rpm !== undefined) {
        x.rpmSeconds += dt;
        x.rpmSecondsSum += rpm * dt;
        if (rpm > x.rpmMax) x.rpmMax = rpm;
        if (rpm > opts.overRevRpm) x.overRevS += dt;
      }
    });
  }

  // Fuel: the counter when the device has one, else the level analysis; refuels and drops from levels.
  const level = analyseFuelLevel(rs, opts.fuel);
  for (const smp of level.samples) {
    if (inDay(smp.time)) add(smp.time, (x) => (x.fuelLevelL = Math.round(smp.litres * 10) / 10));
  }
  const used = counterConsumption(rs, opts.fuel) ?? level.consumption;
  for (const u of used) if (inDay(u.time)) add(u.time, (x) => (x.fuelUsedL += u.litres));
  const fuelEvents = level.events.filter((e) => inDay(e.startTime));
  for (const e of fuelEvents) {
    add(e.startTime, (x) => {
      if (e.kind === 'refuel') {
        x.refuels++;
        x.refuelL += e.litres;
      } else {
        x.drops++;
        x.dropL += e.litres;
      }
    });
  }
  for (const x of [daily, ...hourly]) roundRollup(x);
  return { daily, hourly, fuelEvents };
}

/** TYRE_IO's positions, listed once (Object.entries per record was ~100 MB a minute in bench:soak). */
const TYRE_ENTRIES = Object.entries(TYRE_IO);

/**
 * Tyre readings of a record (positions of TYRE_IO), undefined when it carries none. Used by the
 * rollup fold (incremental/rollup-fold.ts) too.
 */
export function tyreReadings(r: PositionRecord): Record<string, TyreReading> | undefined {
  let out: Record<string, TyreReading> | undefined;
  for (const [position, ids] of TYRE_ENTRIES) {
    const p = ioNumber(r.io, ids.pressure);
    const t = ioNumber(r.io, ids.temperature);
    if (p === undefined && t === undefined) continue;
    (out ??= {})[position] = {
      p: p === undefined ? null : Math.round(p * 10) / 10,
      t: t === undefined ? null : Math.round(t * 10) / 10,
      at: r.time,
    };
  }
  return out;
}

function roundRollup(x: VehicleRollup): void {
  x.distanceM = Math.round(x.distanceM * 10) / 10;
  x.fuelUsedL = Math.round(x.fuelUsedL * 100) / 100;
  x.refuelL = Math.round(x.refuelL * 10) / 10;
  x.dropL = Math.round(x.dropL * 10) / 10;
}

/** Adds trip and violation counts (from the trip detector and alert engine) to a day's rollups. */
export function withCounts(
  day: DayRollups,
  trips: readonly { startTime: number }[],
  violations: readonly { time: number }[],
  opts: RollupOptions = defaultRollupOptions,
): DayRollups {
  const copy = {
    daily: { ...day.daily },
    hourly: day.hourly.map((h) => ({ ...h })),
    fuelEvents: day.fuelEvents,
  };
  setCounts(copy, trips, violations, opts);
  return copy;
}

/**
 * {@link withCounts} on rollups of the caller's own (the fold's result is a fresh copy per call,
 * incremental/rollup-fold.ts): the counts are set in place instead of copying the 25 rows again (the
 * copy was ~300 MB a minute of bench:soak's allocation profile at 1,000 devices).
 */
export function setCounts(
  day: DayRollups,
  trips: readonly { startTime: number }[],
  violations: readonly { time: number }[],
  opts: RollupOptions = defaultRollupOptions,
): void {
  const start = dayStartOf(day.daily.date, opts.timeZone);
  const end = dayStartOf(addDays(day.daily.date, 1), opts.timeZone);
  const { daily, hourly } = day;
  daily.trips = 0;
  daily.violations = 0;
  for (const h of hourly) {
    h.trips = 0;
    h.violations = 0;
  }
  for (const t of trips) {
    if (t.startTime < start || t.startTime >= end) continue;
    daily.trips++;
    hourly[zonedHour(t.startTime, opts.timeZone)]!.trips++;
  }
  for (const v of violations) {
    if (v.time < start || v.time >= end) continue;
    daily.violations++;
    hourly[zonedHour(v.time, opts.timeZone)]!.violations++;
  }
}
