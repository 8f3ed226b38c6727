import { haversineM } from '../common/geo';
import { IO, ioNumber } from '../common/io';
import { recordIgnition, type PositionRecord } from '../common/types';
import { addDays, dayStartOf } from '../common/zoned-time';
import {
  dayWindow,
  defaultTripConfig,
  type IdlePeriod,
  type Stop,
  type Trip,
  type TripConfig,
  type TripDetection,
} from '../trips/trips';
import { newSanityStream, sanityPush, sanityTail, type SanityStreamState } from './sanity-stream';

/**
 * `tripsForDay` (trips/trips.ts) as a fold: the trips, stops and idling periods starting on local day
 * `date`, advanced one record at a time in O(1).
 *
 * A fold covers exactly the batch function's window (`dayWindow(date)`: the day plus `lookaroundS` on
 * each side) and is fed that window's records in the total order, from an empty state at the window
 * start, so its result is the batch result for the same records, not an approximation: the sanity
 * stream gives the same verdicts (sanity-stream.ts), the trip machine below is `detectTrips` steps 1-4
 * run left to right, and since the detection mode ('auto': ignition when any accepted record of the
 * window has an ignition reading) is only known at the end, both modes run side by side and `finish`
 * picks one. Trips that closed are kept (a day has tens); the open trip holds running totals (GPS
 * distance, max speed, idle time, odometer ends) and the records after its last active one, which are
 * at most `minParkingS` long (past that, or past a gap, the trip cannot grow any more and is closed).
 *
 * The state is plain JSON (saved with the device's engine state, pipeline_device_state).
 */

interface Totals {
  first: PositionRecord;
  last: PositionRecord;
  gps: number;
  maxSpeed: number;
  idleMs: number;
  odoFirst: number | null;
  odoPrev: number | null;
  odoBad: boolean;
  count: number;
}

interface ModeState {
  /** The open trip candidate up to its last active record. */
  cand: Totals | null;
  /** Accepted records after the candidate's last active one (all inactive). */
  after: PositionRecord[];
  afterGapFree: boolean;
  trips: Trip[];
  stops: Stop[];
}

export interface TripFoldState {
  date: string;
  from: number;
  to: number;
  dayStart: number;
  dayEnd: number;
  sanity: SanityStreamState;
  hasIgnition: boolean;
  prev: PositionRecord | null;
  ign: ModeState;
  mot: ModeState;
  idleOpen: { start: PositionRecord; last: PositionRecord } | null;
  idles: IdlePeriod[];
}

const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

const newMode = (): ModeState => ({ cand: null, after: [], afterGapFree: true, trips: [], stops: [] });

export function newTripFold(
  date: string,
  timeZone: string,
  cfg: TripConfig = defaultTripConfig,
): TripFoldState {
  const { from, to } = dayWindow(date, timeZone, cfg);
  return {
    date,
    from,
    to,
    dayStart: dayStartOf(date, timeZone),
    dayEnd: dayStartOf(addDays(date, 1), timeZone),
    sanity: newSanityStream(),
    hasIgnition: false,
    prev: null,
    ign: newMode(),
    mot: newMode(),
    idleOpen: null,
    idles: [],
  };
}

function startTotals(r: PositionRecord): Totals {
  const odo = ioNumber(r.io, IO.odometer);
  return {
    first: r,
    last: r,
    gps: 0,
    maxSpeed: r.speed > 0 ? r.speed : 0,
    idleMs: 0,
    odoFirst: odo ?? null,
    odoPrev: odo ?? null,
    odoBad: false,
    count: 1,
  };
}

/** Appends `r` to the totals (buildTrip's loop body). */
function addTotals(t: Totals, r: PositionRecord, cfg: TripConfig): void {
  const p = t.last;
  if (r.speed > t.maxSpeed) t.maxSpeed = r.speed;
  t.gps += haversineM(p.lat, p.lon, r.lat, r.lon);
  const dt = r.time - p.time;
  if (dt <= cfg.maxGapS * 1000 && recordIgnition(p) === true && p.speed < cfg.movingSpeedKmh) t.idleMs += dt;
  const v = ioNumber(r.io, IO.odometer);
  if (v !== undefined) {
    if (t.odoPrev !== null && v < t.odoPrev) t.odoBad = true;
    t.odoFirst ??= v;
    t.odoPrev = v;
  }
  t.last = r;
  t.count++;
}

function buildTrip(t: Totals): Trip {
  const { first, last, gps } = t;
  const odo = t.odoBad || t.odoFirst === null || t.odoPrev === null ? undefined : t.odoPrev - t.odoFirst;
  let distanceM = gps;
  let source: 'odometer' | 'gps' = 'gps';
  if (odo !== undefined && odo <= gps * 3 + 1000 && odo >= gps / 3 - 1000) {
    distanceM = odo;
    source = 'odometer';
  }
  const durationS = (last.time - first.time) / 1000;
  return {
    deviceId: first.deviceId,
    startTime: first.time,
    endTime: last.time,
    start: { lat: first.lat, lon: first.lon },
    end: { lat: last.lat, lon: last.lon },
    distanceM: round(distanceM, 1),
    distanceSource: source,
    durationS,
    maxSpeedKmh: t.maxSpeed,
    avgSpeedKmh: durationS > 0 ? round((distanceM / durationS) * 3.6, 1) : 0,
    idleS: t.idleMs / 1000,
    recordCount: t.count,
  };
}

/** The fold's own day (items that start outside it never show in its result). */
interface Day {
  readonly dayStart: number;
  readonly dayEnd: number;
}
const onDayOf = (d: Day, startTime: number) => startTime >= d.dayStart && startTime < d.dayEnd;

/**
 * Closes the candidate: it ends at the first record after its last active one when no gap lies between.
 *
 * A fold's window reaches 24 h past both ends of its day, so without care each trip, stop and idling
 * period of a day was kept by three folds (the day before's, its own and the next day's) in two modes:
 * the state of 1,000 devices in bench:soak grew through the day to ~40 KB each, and the hourly
 * checkpoints with it. A closed item that does not start on the fold's day never shows in its result
 * (`tripFoldResult` filters by day) and is never read again, except the last trip (the stop before the
 * next trip starts at its end): those are not kept.
 */
function closeCandidate(m: ModeState, cfg: TripConfig, day: Day): void {
  const cand = m.cand;
  if (!cand) return;
  const endRec = m.after[0];
  const totals = endRec && endRec.time - cand.last.time <= cfg.maxGapS * 1000 ? { ...cand } : cand;
  if (endRec && totals !== cand) addTotals(totals, endRec, cfg);
  const trip = buildTrip(totals);
  if (trip.durationS >= cfg.minTripDurationS && trip.distanceM >= cfg.minTripDistanceM) {
    const prev = m.trips[m.trips.length - 1];
    if (prev) {
      const ms = trip.startTime - prev.endTime;
      if (ms >= cfg.minParkingS * 1000 && onDayOf(day, prev.endTime)) {
        m.stops.push({
          deviceId: trip.deviceId,
          startTime: prev.endTime,
          endTime: trip.startTime,
          place: prev.end,
          minutes: round(ms / 60_000, 1),
        });
      }
    }
    if (prev && !onDayOf(day, prev.startTime)) m.trips.pop();
    m.trips.push(trip);
  }
  m.cand = null;
  m.after = [];
  m.afterGapFree = true;
}

function stepMode(
  m: ModeState,
  r: PositionRecord,
  prev: PositionRecord | null,
  active: boolean,
  cfg: TripConfig,
  day: Day,
): void {
  const maxGapMs = cfg.maxGapS * 1000;
  const gap = prev ? r.time - prev.time : Infinity;
  if (active) {
    if (m.cand && m.after.length === 0 && gap <= maxGapMs) {
      addTotals(m.cand, r, cfg); // the run goes on
      return;
    }
    if (m.cand) {
      // A new run: merged into the candidate across a short stop with data all the way through.
      const stopMs = r.time - m.cand.last.time;
      if (m.after.length > 0 && m.afterGapFree && gap <= maxGapMs && stopMs < cfg.minParkingS * 1000) {
        for (const a of m.after) addTotals(m.cand, a, cfg);
        addTotals(m.cand, r, cfg);
        m.after = [];
        m.afterGapFree = true;
        return;
      }
      closeCandidate(m, cfg, day);
    }
    m.cand = startTotals(r);
    return;
  }
  if (!m.cand) return;
  m.after.push(r);
  if (gap > maxGapMs) m.afterGapFree = false;
  // No later run can merge any more: close now (the trip's end is already known).
  if (!m.afterGapFree || r.time - m.cand.last.time >= cfg.minParkingS * 1000) closeCandidate(m, cfg, day);
}

/**
 * Both modes are followed only while either can still be the result's. In `auto` mode the first record
 * with an ignition reading settles it for good (`hasIgnition` never goes back): the motion mode's trips
 * and stops are let go then and no longer followed. For the devices that report ignition (nearly all)
 * that halves the trips and stops a fold keeps through the day (bench:soak, 1,000 devices: the trip
 * folds were ~9 MB of the live heap by the sixth hour) and the work per record. A fixed mode follows
 * only itself. The settled key still reads both modes' counts; the mode let go stays empty.
 */
function stepAccepted(s: TripFoldState, r: PositionRecord, cfg: TripConfig): void {
  if (!s.hasIgnition && recordIgnition(r) !== undefined) {
    s.hasIgnition = true;
    if (cfg.mode === 'auto') s.mot = newMode();
  }
  if (cfg.mode !== 'motion') stepMode(s.ign, r, s.prev, recordIgnition(r) === true, cfg, s);
  if (cfg.mode === 'motion' || (cfg.mode === 'auto' && !s.hasIgnition)) {
    stepMode(s.mot, r, s.prev, r.speed >= cfg.movingSpeedKmh, cfg, s);
  }
  // Idling (detectIdles): ignition on and not moving, independent of the mode.
  const maxGapMs = cfg.maxGapS * 1000;
  const idle = recordIgnition(r) === true && r.speed < cfg.movingSpeedKmh;
  const open = s.idleOpen;
  if (open) {
    const gap = r.time - open.last.time;
    if (idle && gap <= maxGapMs) open.last = r;
    else {
      pushIdle(s, open.start, gap <= maxGapMs ? r.time : open.last.time, cfg);
      s.idleOpen = idle ? { start: r, last: r } : null;
    }
  } else if (idle) s.idleOpen = { start: r, last: r };
  s.prev = r;
}

function pushIdle(s: TripFoldState, start: PositionRecord, endTime: number, cfg: TripConfig): void {
  const ms = endTime - start.time;
  if (ms < cfg.minIdleS * 1000 || !onDayOf(s, start.time)) return; // off the day: never in the result
  s.idles.push({
    deviceId: start.deviceId,
    startTime: start.time,
    endTime,
    place: { lat: start.lat, lon: start.lon },
    minutes: round(ms / 60_000, 1),
  });
}

/** Feeds the next record of the window (records must come in the total order, duplicates removed). */
export function tripFoldPush(s: TripFoldState, r: PositionRecord, cfg: TripConfig = defaultTripConfig): void {
  if (r.time < s.from || r.time >= s.to) return;
  sanityPush(s.sanity, r, (a) => stepAccepted(s, a, cfg), cfg.sanity);
}

const cloneMode = (m: ModeState): ModeState => ({
  cand: m.cand ? { ...m.cand } : null,
  after: [...m.after],
  afterGapFree: m.afterGapFree,
  trips: [...m.trips],
  stops: [...m.stops],
});

/** The result for the records pushed so far: equal to `tripsForDay(thoseRecords, date, timeZone)`. */
export function tripFoldResult(s0: TripFoldState, cfg: TripConfig = defaultTripConfig): TripDetection {
  const s: TripFoldState = {
    ...s0,
    ign: cloneMode(s0.ign),
    mot: cloneMode(s0.mot),
    idleOpen: s0.idleOpen ? { ...s0.idleOpen } : null,
    idles: [...s0.idles],
  };
  for (const r of sanityTail(s0.sanity, cfg.sanity)) stepAccepted(s, r, cfg);
  const mode: 'ignition' | 'motion' =
    cfg.mode === 'auto' ? (s.hasIgnition ? 'ignition' : 'motion') : cfg.mode;
  const m = mode === 'ignition' ? s.ign : s.mot;
  closeCandidate(m, cfg, s);
  if (s.idleOpen) pushIdle(s, s.idleOpen.start, s.idleOpen.last.time, cfg);
  const onDay = <T extends { startTime: number }>(x: T) =>
    x.startTime >= s.dayStart && x.startTime < s.dayEnd;
  return {
    mode,
    trips: m.trips.filter(onDay),
    stops: m.stops.filter(onDay),
    idles: s.idles.filter(onDay),
  };
}

/**
 * A cheap key that stands for the fold's result while nothing still open can land on its day, or null
 * when something can (then compute the result with `tripFoldResult`).
 *
 * Why it is exact: the result is the closed trips, stops and idling periods that start on the day, plus
 * what closing the open state would add now. Closed items are append-only and never change, so the
 * array lengths (and `hasIgnition`, which picks the mode) say which closed items there are. Every item
 * closing would add starts at one of the times of the open state: a candidate's first record, the
 * previous trip's end (the stop before it), a record after the candidate, the open idling period, or a
 * record the sanity stream still holds (whose ignition reading can also turn the mode). When all of those lie before the day or after it, no added item
 * is on the day, and two equal keys mean two equal results. A flush (service/incremental-results.ts)
 * then skips the day without building its trips (the day before and the day after the current one are
 * such days nearly all the time: a record feeds three trip windows). The key does not see a rewind to
 * a checkpoint; the caller adds the state's generation (device.ts).
 */
export function tripFoldSettledKey(s: TripFoldState, cfg: TripConfig = defaultTripConfig): string | null {
  let min = Infinity;
  let max = -Infinity;
  const see = (t: number) => {
    if (t < min) min = t;
    if (t > max) max = t;
  };
  for (const m of [s.ign, s.mot]) {
    if (m.cand) {
      see(m.cand.first.time);
      see(m.cand.last.time);
      const prev = m.trips[m.trips.length - 1];
      if (prev) see(prev.endTime);
    }
    for (const a of m.after) see(a.time);
  }
  if (s.idleOpen) {
    see(s.idleOpen.start.time);
    see(s.idleOpen.last.time);
  }
  for (const r of s.sanity.v) see(r.time);
  if (s.prev) see(s.prev.time);
  if (min !== Infinity && min < s.dayEnd && max >= s.dayStart) return null;
  // The mode of the result: a held record with an ignition reading turns it to 'ignition' as well.
  const ignition =
    s.hasIgnition || sanityTail(s.sanity, cfg.sanity).some((r) => recordIgnition(r) !== undefined);
  // Closed items on the day are append-only (off-day ones are dropped or never kept), so their counts
  // say which there are. Counted without walking the day: stops and idling periods are kept only when
  // they start on the day (closeCandidate, pushIdle), and of the trips only the last can be off the day
  // (an off-day trip is popped when the next one closes). A state that breaks that (never made by this
  // code) is counted item by item.
  const trips = (xs: readonly Trip[]) => {
    const n = xs.length;
    if (n === 0) return 0;
    if (n > 1 && !onDayOf(s, xs[0]!.startTime)) return xs.filter((x) => onDayOf(s, x.startTime)).length;
    return onDayOf(s, xs[n - 1]!.startTime) ? n : n - 1;
  };
  return `${ignition ? 1 : 0}|${trips(s.ign.trips)}|${s.ign.stops.length}|${trips(s.mot.trips)}|${s.mot.stops.length}|${s.idles.length}`;
}
