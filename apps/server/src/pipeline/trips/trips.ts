import { haversineM } from '../common/geo';
import { IO, ioNumber } from '../common/io';
import { recordIgnition, sortAndDedupe, type PositionRecord } from '../common/types';
import { dayStartOf, addDays, localDate } from '../common/zoned-time';
import { defaultSanityConfig, flagSequence, type SanityConfig } from '../sanity/sanity';

/**
 * Trip, stop and idling detection for one device.
 *
 * The detector is a pure function of the *set* of records it is given: it sorts and de-duplicates them
 * with a total order, flags bad fixes with the order-independent sanity rules, and then segments. Late
 * and out-of-order uploads are handled by recomputing the affected device-day windows (see
 * `affectedDays` and `tripsForDay`), so a device that uploads an hour of buffered records gets exactly
 * the trips it would have got by streaming them.
 *
 * Mode: a device with an ignition line (explicit ignition field or IO 239 in any record of the set) is
 * segmented on ignition; otherwise on movement (speed at or above `movingSpeedKmh`).
 */

export interface TripConfig {
  /** Trips shorter than this are dropped (seconds). */
  readonly minTripDurationS: number;
  /** Trips shorter than this distance are dropped (metres). */
  readonly minTripDistanceM: number;
  /** A gap without data longer than this ends a trip (seconds). */
  readonly maxGapS: number;
  /** Two active runs separated by a stop shorter than this are one trip (seconds). Also the minimum stop. */
  readonly minParkingS: number;
  /** Speed at or above which the vehicle is moving (km/h). */
  readonly movingSpeedKmh: number;
  /** Idling periods (ignition on, not moving) shorter than this are not reported (seconds). */
  readonly minIdleS: number;
  /** 'auto' picks ignition when the set has any ignition reading, else motion. */
  readonly mode: 'auto' | 'ignition' | 'motion';
  /** Device-day windows are read this far on both sides, and trips longer than this may be cut (seconds). */
  readonly lookaroundS: number;
  readonly sanity: SanityConfig;
}

export const defaultTripConfig: TripConfig = {
  minTripDurationS: 60,
  minTripDistanceM: 200,
  maxGapS: 30 * 60,
  minParkingS: 180,
  movingSpeedKmh: 5,
  minIdleS: 120,
  mode: 'auto',
  lookaroundS: 24 * 3600,
  sanity: defaultSanityConfig,
};

export interface Place {
  readonly lat: number;
  readonly lon: number;
}

export interface Trip {
  readonly deviceId: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly start: Place;
  readonly end: Place;
  readonly distanceM: number;
  readonly distanceSource: 'odometer' | 'gps';
  readonly durationS: number;
  readonly maxSpeedKmh: number;
  /** distance / duration */
  readonly avgSpeedKmh: number;
  readonly idleS: number;
  readonly recordCount: number;
}

export interface Stop {
  readonly deviceId: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly place: Place;
  readonly minutes: number;
}

export interface IdlePeriod {
  readonly deviceId: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly place: Place;
  readonly minutes: number;
}

export interface TripDetection {
  readonly mode: 'ignition' | 'motion';
  readonly trips: Trip[];
  readonly stops: Stop[];
  readonly idles: IdlePeriod[];
}

function validateConfig(cfg: TripConfig): void {
  for (const key of [
    'minTripDurationS',
    'minTripDistanceM',
    'maxGapS',
    'minParkingS',
    'movingSpeedKmh',
    'minIdleS',
    'lookaroundS',
  ] as const) {
    const v = cfg[key];
    if (!Number.isFinite(v) || v < 0)
      throw new RangeError(`Trip config ${key} must be a non-negative number`);
  }
}

const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** Detects trips, stops and idling periods in a set of records of ONE device (any order). */
export function detectTrips(
  records: readonly PositionRecord[],
  cfg: TripConfig = defaultTripConfig,
): TripDetection {
  validateConfig(cfg);
  const devices = new Set(records.map((r) => r.deviceId));
  if (devices.size > 1) throw new RangeError('detectTrips expects the records of a single device');
  const deviceId = records[0]?.deviceId ?? '';
  const all = flagSequence(sortAndDedupe(records), cfg.sanity);
  const rs = all.filter((r) => !r.ignored);
  const hasIgnition = rs.some((r) => recordIgnition(r) !== undefined);
  const mode: 'ignition' | 'motion' = cfg.mode === 'auto' ? (hasIgnition ? 'ignition' : 'motion') : cfg.mode;
  const maxGapMs = cfg.maxGapS * 1000;
  const moving = (r: PositionRecord) => r.speed >= cfg.movingSpeedKmh;
  const active = (r: PositionRecord) => (mode === 'ignition' ? recordIgnition(r) === true : moving(r));

  // 1. Active runs [first, last] of consecutive active records with no gap larger than maxGap.
  const runs: { first: number; last: number }[] = [];
  for (let i = 0; i < rs.length; i++) {
    if (!active(rs[i]!)) continue;
    const cur = runs[runs.length - 1];
    if (cur && cur.last === i - 1 && rs[i]!.time - rs[i - 1]!.time <= maxGapMs) cur.last = i;
    else runs.push({ first: i, last: i });
  }

  // 2. Merge runs separated by a short stop with data all the way through (no gap over maxGap).
  const merged: { first: number; last: number }[] = [];
  for (const run of runs) {
    const prev = merged[merged.length - 1];
    if (prev) {
      const stopMs = rs[run.first]!.time - rs[prev.last]!.time;
      let gapFree = true;
      for (let i = prev.last + 1; i <= run.first; i++) {
        if (rs[i]!.time - rs[i - 1]!.time > maxGapMs) {
          gapFree = false;
          break;
        }
      }
      if (gapFree && stopMs < cfg.minParkingS * 1000) {
        prev.last = run.last;
        continue;
      }
    }
    merged.push({ ...run });
  }

  // 3. Each merged run ends at the first inactive record after it when that follows without a gap.
  const trips: Trip[] = [];
  for (const run of merged) {
    let endIdx = run.last;
    const after = rs[run.last + 1];
    if (after && after.time - rs[run.last]!.time <= maxGapMs) endIdx = run.last + 1;
    const trip = buildTrip(deviceId, rs, run.first, endIdx, cfg);
    if (trip.durationS >= cfg.minTripDurationS && trip.distanceM >= cfg.minTripDistanceM) trips.push(trip);
  }

  // 4. Stops: the time between consecutive kept trips (at least minParking), placed at the first trip's end.
  const stops: Stop[] = [];
  for (let k = 1; k < trips.length; k++) {
    const a = trips[k - 1]!;
    const b = trips[k]!;
    const ms = b.startTime - a.endTime;
    if (ms >= cfg.minParkingS * 1000) {
      stops.push({
        deviceId,
        startTime: a.endTime,
        endTime: b.startTime,
        place: a.end,
        minutes: round(ms / 60_000, 1),
      });
    }
  }

  return { mode, trips, stops, idles: detectIdles(deviceId, rs, cfg) };
}

function buildTrip(
  deviceId: string,
  rs: readonly PositionRecord[],
  from: number,
  to: number,
  cfg: TripConfig,
): Trip {
  const first = rs[from]!;
  const last = rs[to]!;
  const maxGapMs = cfg.maxGapS * 1000;
  let gps = 0;
  let maxSpeed = 0;
  let idleMs = 0;
  for (let i = from; i <= to; i++) {
    const r = rs[i]!;
    if (r.speed > maxSpeed) maxSpeed = r.speed;
    if (i > from) {
      const p = rs[i - 1]!;
      gps += haversineM(p.lat, p.lon, r.lat, r.lon);
      const dt = r.time - p.time;
      if (dt <= maxGapMs && recordIgnition(p) === true && p.speed < cfg.movingSpeedKmh) idleMs += dt;
    }
  }
  const odo = odometerDistance(rs, from, to);
  let distanceM = gps;
  let source: 'odometer' | 'gps' = 'gps';
  // An odometer that went backwards (reset) or disagrees wildly with the track is not trusted.
  if (odo !== undefined && odo <= gps * 3 + 1000 && odo >= gps / 3 - 1000) {
    distanceM = odo;
    source = 'odometer';
  }
  const durationS = (last.time - first.time) / 1000;
  return {
    deviceId,
    startTime: first.time,
    endTime: last.time,
    start: { lat: first.lat, lon: first.lon },
    end: { lat: last.lat, lon: last.lon },
    distanceM: round(distanceM, 1),
    distanceSource: source,
    durationS,
    maxSpeedKmh: maxSpeed,
    avgSpeedKmh: durationS > 0 ? round((distanceM / durationS) * 3.6, 1) : 0,
    idleS: idleMs / 1000,
    recordCount: to - from + 1,
  };
}

/** Odometer (IO 16) difference over the records, or undefined when absent or not monotonic. */
function odometerDistance(rs: readonly PositionRecord[], from: number, to: number): number | undefined {
  let first: number | undefined;
  let prev: number | undefined;
  for (let i = from; i <= to; i++) {
    const v = ioNumber(rs[i]!.io, IO.odometer);
    if (v === undefined) continue;
    if (prev !== undefined && v < prev) return undefined;
    first ??= v;
    prev = v;
  }
  return first === undefined || prev === undefined ? undefined : prev - first;
}

/** Idling: consecutive records with ignition on and speed below the moving threshold. */
function detectIdles(deviceId: string, rs: readonly PositionRecord[], cfg: TripConfig): IdlePeriod[] {
  const out: IdlePeriod[] = [];
  const maxGapMs = cfg.maxGapS * 1000;
  const idle = (r: PositionRecord) => recordIgnition(r) === true && r.speed < cfg.movingSpeedKmh;
  let i = 0;
  while (i < rs.length) {
    if (!idle(rs[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < rs.length && idle(rs[j + 1]!) && rs[j + 1]!.time - rs[j]!.time <= maxGapMs) j++;
    // The period lasts until the record that ends it, when that one follows without a gap.
    const next = rs[j + 1];
    const endTime = next && next.time - rs[j]!.time <= maxGapMs ? next.time : rs[j]!.time;
    const ms = endTime - rs[i]!.time;
    if (ms >= cfg.minIdleS * 1000) {
      out.push({
        deviceId,
        startTime: rs[i]!.time,
        endTime,
        place: { lat: rs[i]!.lat, lon: rs[i]!.lon },
        minutes: round(ms / 60_000, 1),
      });
    }
    i = j + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Device-day windows (late and out-of-order data)
// ---------------------------------------------------------------------------------------------------

/** The time range to read for recomputing local day `date` of a device. */
export function dayWindow(
  date: string,
  timeZone: string,
  cfg: TripConfig = defaultTripConfig,
): { from: number; to: number } {
  const start = dayStartOf(date, timeZone);
  const end = dayStartOf(addDays(date, 1), timeZone);
  return { from: start - cfg.lookaroundS * 1000, to: end + cfg.lookaroundS * 1000 };
}

/**
 * The trips, stops and idling periods that START on local day `date`, computed from all records of the
 * device in `dayWindow(date)`. Storing per device-day and replacing a day's rows on recompute keeps the
 * stored result equal to a batch computation. Trips running longer than `lookaroundS` past midnight end
 * at the window edge.
 */
export function tripsForDay(
  windowRecords: readonly PositionRecord[],
  date: string,
  timeZone: string,
  cfg: TripConfig = defaultTripConfig,
): TripDetection {
  const { from, to } = dayWindow(date, timeZone, cfg);
  const inWindow = windowRecords.filter((r) => r.time >= from && r.time < to);
  const det = detectTrips(inWindow, cfg);
  const start = dayStartOf(date, timeZone);
  const end = dayStartOf(addDays(date, 1), timeZone);
  const onDay = <T extends { startTime: number }>(x: T) => x.startTime >= start && x.startTime < end;
  return {
    mode: det.mode,
    trips: det.trips.filter(onDay),
    stops: det.stops.filter(onDay),
    idles: det.idles.filter(onDay),
  };
}

/** Local days whose stored trips may change when records with these device times arrive. */
export function affectedDays(
  times: Iterable<number>,
  timeZone: string,
  cfg: TripConfig = defaultTripConfig,
): string[] {
  const days = new Set<string>();
  const reach = cfg.lookaroundS * 1000;
  for (const t of times) {
    if (!Number.isFinite(t)) continue;
    let d = localDate(t - reach, timeZone);
    const last = localDate(t + reach, timeZone);
    for (;;) {
      days.add(d);
      if (d === last) break;
      d = addDays(d, 1);
    }
  }
  return [...days].sort();
}
