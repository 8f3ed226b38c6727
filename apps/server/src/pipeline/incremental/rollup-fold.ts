import { haversineM } from '../common/geo';
import { IO, ioNumber } from '../common/io';
import { recordIgnition, type PositionRecord } from '../common/types';
import { addDays, dayStartOf, zonedHour } from '../common/zoned-time';
import { fuelLevelL, type FuelEvent } from '../rollups/fuel';
import {
  defaultRollupOptions,
  emptyRollup,
  rollupWindow,
  type DayRollups,
  type RollupOptions,
  tyreReadings,
  type VehicleRollup,
} from '../rollups/rollups';
import { defaultSanityConfig } from '../sanity/sanity';
import { newSanityStream, sanityPush, sanityTail, type SanityStreamState } from './sanity-stream';

/**
 * `computeDayRollups` (rollups/rollups.ts) as a fold: one vehicle's daily and hourly rollups of local
 * day `date`, advanced one record at a time in O(1).
 *
 * Like the trip fold it covers the batch function's window exactly (`rollupWindow`: the day plus one
 * hour on each side), from an empty state, in the total order, so its result equals the batch result:
 * - the interval between two accepted records goes to the earlier one's bucket when the later arrives,
 *   in the same order the batch loop adds them (sums are added in the same order, bit for bit);
 * - engine time depends on whether any accepted record of the window has an ignition reading, known
 *   only at the end: both variants are summed and `finish` picks one;
 * - fuel used comes from the IO 83 counter when the window has one, else from the level analysis: both
 *   are followed. The level analysis (`analyseFuelLevel`: median of 5, then monotonic runs) runs as a
 *   state machine: a smoothed sample is final two raw samples later; a run's consumption is added to
 *   a pending copy of the totals while the run is open and kept or dropped when the run is decided
 *   (consumption, refuel or drop). Samples scanned past the run's extreme (a flat stretch) are kept
 *   as their decrements only, to be added in order if the run extends or the next run starts.
 * The state is plain JSON (saved with the device's engine state).
 *
 * A bucket's row is made when the first record or interval lands in it (`row`), and `rollupFoldResult`
 * makes the rows still missing as empty ones, so the result is the same. A fold's window opens an hour
 * before its day, so every vehicle had a fold of 25 empty rows (~10 KB with their boxed numbers) from
 * 23:00 on; in bench:soak's PGlite day (1,000 devices) that hour held the day's RSS peak. The hours of
 * the day's 15-minute slots are one table per day and zone, shared by the folds (`slotHoursOf`), not a
 * copy in each fold's state.
 */

interface FuelSmp {
  time: number;
  litres: number;
  speed: number;
  lat: number;
  lon: number;
}

interface LevelRun {
  /** 0: no sample yet; 1: looking for the run's direction; 2: extending the run. */
  phase: 0 | 1 | 2;
  start: FuelSmp | null;
  last: FuelSmp | null;
  idx: number;
  dir: number;
  j: FuelSmp | null;
  jIdx: number;
  end: FuelSmp | null;
  endIdx: number;
  movingScan: number;
  movingToEnd: number;
  /** Fuel used of the open run up to its extreme, added onto the committed totals (index 24 = daily). */
  pend: number[];
  /** Decrements [time, litres] scanned after the extreme (flat stretch). */
  beyond: [number, number][];
}

export interface RollupFoldState {
  vehicleId: string;
  date: string;
  from: number;
  to: number;
  dayStart: number;
  dayEnd: number;
  sanity: SanityStreamState;
  hasIgnition: boolean;
  prev: PositionRecord | null;
  /** 0..23 hourly, 24 daily; null until something lands in the bucket (`row`). */
  b: (VehicleRollup | null)[];
  engIgn: number[];
  engMot: number[];
  counterSeen: boolean;
  counterPrev: { time: number; v: number } | null;
  counterUsed: number[];
  levelUsed: number[];
  raw: FuelSmp[];
  rawN: number;
  run: LevelRun;
  events: FuelEvent[];
}

const DAILY = 24;
const zeros = () => new Array<number>(25).fill(0);

export function newRollupFold(
  vehicleId: string,
  date: string,
  opts: RollupOptions = defaultRollupOptions,
): RollupFoldState {
  const dayStart = dayStartOf(date, opts.timeZone);
  const dayEnd = dayStartOf(addDays(date, 1), opts.timeZone);
  const { from, to } = rollupWindow(date, opts);
  return {
    vehicleId,
    date,
    from,
    to,
    dayStart,
    dayEnd,
    sanity: newSanityStream(),
    hasIgnition: false,
    prev: null,
    b: new Array<VehicleRollup | null>(25).fill(null),
    engIgn: zeros(),
    engMot: zeros(),
    counterSeen: false,
    counterPrev: null,
    counterUsed: zeros(),
    levelUsed: zeros(),
    raw: [],
    rawN: 0,
    run: newRun(),
    events: [],
  };
}

/**
 * The local hour of each 15-minute slot of a day (from its start), one table per zone and day start,
 * shared by every fold of that day. A handful of days are live at a time; the cache forgets all when
 * it holds more than {@link SLOT_TABLES}.
 */
const slotTables = new Map<string, number[]>();
const SLOT_TABLES = 32;
let lastTz = '';
let lastStart = Number.NaN;
let lastHours: number[] = [];
function slotHoursOf(s: RollupFoldState, tz: string): number[] {
  // Called a few times per record, nearly always for the fold of the call before: that table is
  // returned without building the map's text key.
  if (s.dayStart === lastStart && tz === lastTz) return lastHours;
  const key = `${tz}|${s.dayStart}`;
  let hours = slotTables.get(key);
  if (!hours) {
    if (slotTables.size >= SLOT_TABLES) slotTables.clear();
    hours = [];
    for (let t = s.dayStart; t < s.dayEnd; t += 900_000) hours.push(zonedHour(t, tz));
    slotTables.set(key, hours);
  }
  lastTz = tz;
  lastStart = s.dayStart;
  lastHours = hours;
  return hours;
}

/** Bucket `k`'s row, made empty on first use (an hourly row starts at the first slot of its hour). */
function row(s: RollupFoldState, k: number, tz: string): VehicleRollup {
  let x = s.b[k];
  if (!x) {
    x = emptyRollup(s.vehicleId, s.date, k === DAILY ? null : k);
    if (k === DAILY) x.startsAt = s.dayStart;
    else {
      const slot = slotHoursOf(s, tz).indexOf(k);
      if (slot >= 0) x.startsAt = s.dayStart + slot * 900_000;
    }
    s.b[k] = x;
  }
  return x;
}

const newRun = (): LevelRun => ({
  phase: 0,
  start: null,
  last: null,
  idx: -1,
  dir: 0,
  j: null,
  jIdx: 0,
  end: null,
  endIdx: 0,
  movingScan: 0,
  movingToEnd: 0,
  pend: [],
  beyond: [],
});

function hourOf(s: RollupFoldState, t: number, tz: string): number {
  const slot = Math.floor((t - s.dayStart) / 900_000);
  return slotHoursOf(s, tz)[slot] ?? zonedHour(t, tz);
}

const inDay = (s: RollupFoldState, t: number) => t >= s.dayStart && t < s.dayEnd;

/** Adds `litres` used at `time` to per-bucket totals `acc` (when the time is on the day). */
function addUsed(s: RollupFoldState, acc: number[], time: number, litres: number, tz: string): void {
  if (!inDay(s, time)) return;
  acc[DAILY] = acc[DAILY]! + litres;
  const h = hourOf(s, time, tz);
  acc[h] = acc[h]! + litres;
}

function stepAccepted(s: RollupFoldState, r: PositionRecord, opts: RollupOptions): void {
  const tz = opts.timeZone;
  const maxGapMs = opts.maxGapS * 1000;
  if (!s.hasIgnition && recordIgnition(r) !== undefined) s.hasIgnition = true;
  const prev = s.prev;
  // The interval prev -> r belongs to prev's bucket.
  if (prev && inDay(s, prev.time) && r.time - prev.time <= maxGapMs) {
    const dt = (r.time - prev.time) / 1000;
    const dist = haversineM(prev.lat, prev.lon, r.lat, r.lon);
    const moving = prev.speed >= opts.movingSpeedKmh;
    const ign = recordIgnition(prev);
    const rpm = ioNumber(prev.io, IO.engineRpm);
    const h = hourOf(s, prev.time, tz);
    for (const k of [DAILY, h]) {
      const x = row(s, k, tz);
      x.distanceM += dist;
      if (moving) x.drivingS += dt;
      else if (ign === true) x.idleS += dt;
      if (ign === true) s.engIgn[k] = s.engIgn[k]! + dt;
      if (moving) s.engMot[k] = s.engMot[k]! + dt;
      if (rpm !== undefined) {
        x.rpmSeconds += dt;
        x.rpmSecondsSum += rpm * dt;
        if (rpm > x.rpmMax) x.rpmMax = rpm;
        if (rpm > opts.overRevRpm) x.overRevS += dt;
      }
    }
  }
  if (inDay(s, r.time)) {
    const temp = ioNumber(r.io, IO.temperature);
    const pct = ioNumber(r.io, IO.fuelLevel);
    const tyres = tyreReadings(r);
    const rpmNow = ioNumber(r.io, IO.engineRpm);
    let overRev = false;
    if (rpmNow !== undefined && rpmNow > opts.overRevRpm) {
      const before = prev ? ioNumber(prev.io, IO.engineRpm) : undefined;
      const gap = prev ? r.time - prev.time : Infinity;
      overRev = before === undefined || before <= opts.overRevRpm || gap > maxGapMs;
    }
    for (const k of [DAILY, hourOf(s, r.time, tz)]) {
      const x = row(s, k, tz);
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
      if (overRev) x.overRevs++;
    }
  }
  // Fuel counter (IO 83): positive steps, keyed by the earlier record.
  const v = ioNumber(r.io, IO.fuelConsumed);
  if (v !== undefined) {
    s.counterSeen = true;
    const p = s.counterPrev;
    if (p && v > p.v) addUsed(s, s.counterUsed, p.time, (v - p.v) * opts.fuel.consumedScale, tz);
    s.counterPrev = { time: r.time, v };
  }
  // Fuel level: raw sample, smoothed two samples later.
  const l = fuelLevelL(r, opts.fuel);
  if (l !== undefined && Number.isFinite(l) && l >= 0) {
    s.raw.push({ time: r.time, litres: l, speed: r.speed, lat: r.lat, lon: r.lon });
    if (s.raw.length > 5) s.raw.shift();
    s.rawN++;
    if (s.rawN >= 3) smoothed(s, s.rawN - 3, s.rawN - 1, opts);
  }
  s.prev = r;
}

const MEDIAN_WINDOW: number[] = [0, 0, 0, 0, 0];

/** Smoothed sample `i` from the raw samples up to index `last` (median of i-2..i+2 within range). */
function smoothed(s: RollupFoldState, i: number, last: number, opts: RollupOptions): void {
  const base = s.rawN - s.raw.length; // index of s.raw[0]
  // The median of at most five values, sorted in place in a scratch array by a stable insertion sort:
  // the same order as `sort((a, b) => a - b)`, without the array and the sort's own copy per sample
  // (~200 MB a minute in bench:soak's allocation profile at 1,000 devices).
  let n = 0;
  for (let k = Math.max(0, i - 2); k <= Math.min(last, i + 2); k++) {
    const v = s.raw[k - base]!.litres;
    let j = n++;
    while (j > 0 && MEDIAN_WINDOW[j - 1]! > v) {
      MEDIAN_WINDOW[j] = MEDIAN_WINDOW[j - 1]!;
      j--;
    }
    MEDIAN_WINDOW[j] = v;
  }
  const src = s.raw[i - base]!;
  const smp: FuelSmp = { ...src, litres: MEDIAN_WINDOW[Math.floor(n / 2)]! };
  if (inDay(s, smp.time)) {
    const v = Math.round(smp.litres * 10) / 10;
    row(s, DAILY, opts.timeZone).fuelLevelL = v;
    row(s, hourOf(s, smp.time, opts.timeZone), opts.timeZone).fuelLevelL = v;
  }
  runPush(s, smp, opts);
}

function runPush(s: RollupFoldState, smp: FuelSmp, opts: RollupOptions): void {
  const run = s.run;
  const tz = opts.timeZone;
  const noise = opts.fuel.noiseL;
  const moving = (x: FuelSmp) => (x.speed >= 5 ? 1 : 0);
  const prev = run.last;
  run.idx++;
  run.last = smp;
  if (run.phase === 0) {
    run.phase = 1;
    run.start = smp;
    run.pend = [...s.levelUsed];
    return;
  }
  const used = prev!.litres - smp.litres;
  if (run.phase === 1) {
    if (used > 0) addUsed(s, run.pend, prev!.time, used, tz);
    const d = smp.litres - run.start!.litres;
    if (Math.abs(d) > noise) {
      run.phase = 2;
      run.dir = Math.sign(d);
      run.j = prev;
      run.jIdx = run.idx - 1;
      run.end = smp;
      run.endIdx = run.idx;
      run.movingScan = moving(prev!) + moving(smp);
      run.movingToEnd = run.movingScan;
    }
    return;
  }
  const extreme = run.end!.litres;
  if (run.dir > 0 ? smp.litres > extreme : smp.litres < extreme) {
    for (const [t, u] of run.beyond) addUsed(s, run.pend, t, u, tz);
    run.beyond = [];
    if (used > 0) addUsed(s, run.pend, prev!.time, used, tz);
    run.end = smp;
    run.endIdx = run.idx;
    run.movingScan += moving(smp);
    run.movingToEnd = run.movingScan;
    return;
  }
  if (Math.abs(smp.litres - extreme) <= noise) {
    if (used > 0) run.beyond.push([prev!.time, used]);
    run.movingScan += moving(smp);
    return;
  }
  // The run ended at its extreme: decide it, then the next run starts at the extreme and has already
  // found its direction (every sample since the extreme is level with it, this one is not).
  decideRun(s, run, opts);
  const beyond = run.beyond;
  run.pend = [...s.levelUsed];
  for (const [t, u] of beyond) addUsed(s, run.pend, t, u, tz);
  if (used > 0) addUsed(s, run.pend, prev!.time, used, tz);
  run.beyond = [];
  run.start = run.end;
  run.dir = Math.sign(smp.litres - extreme);
  run.j = prev;
  run.jIdx = run.idx - 1;
  run.end = smp;
  run.endIdx = run.idx;
  run.movingScan = moving(prev!) + moving(smp);
  run.movingToEnd = run.movingScan;
}

function decideRun(s: RollupFoldState, run: LevelRun, opts: RollupOptions): void {
  const a = run.j!;
  const b = run.end!;
  const change = b.litres - a.litres;
  const seconds = (b.time - a.time) / 1000;
  const stationary = run.movingToEnd <= (run.endIdx - run.jIdx + 1) / 4;
  const f = opts.fuel;
  if (run.dir > 0 && change >= f.refuelMinL) s.events.push(fuelEvent('refuel', a, b));
  else if (run.dir < 0 && -change >= f.dropMinL && seconds <= f.dropMaxS && stationary)
    s.events.push(fuelEvent('drop', a, b));
  else if (run.dir < 0) s.levelUsed = run.pend;
}

function fuelEvent(kind: 'refuel' | 'drop', a: FuelSmp, b: FuelSmp): FuelEvent {
  return {
    kind,
    litres: Math.round(Math.abs(b.litres - a.litres) * 10) / 10,
    startTime: a.time,
    endTime: b.time,
    lat: a.lat,
    lon: a.lon,
    levelBeforeL: Math.round(a.litres * 10) / 10,
    levelAfterL: Math.round(b.litres * 10) / 10,
  };
}

/** Feeds the next record of the window (records must come in the total order, duplicates removed). */
export function rollupFoldPush(
  s: RollupFoldState,
  r: PositionRecord,
  opts: RollupOptions = defaultRollupOptions,
): void {
  if (r.time < s.from || r.time >= s.to) return;
  sanityPush(s.sanity, r, (a) => stepAccepted(s, a, opts), defaultSanityConfig);
}

function cloneFold(s: RollupFoldState): RollupFoldState {
  return {
    ...s,
    b: s.b.map((x) => (x ? { ...x } : null)),
    engIgn: [...s.engIgn],
    engMot: [...s.engMot],
    counterUsed: [...s.counterUsed],
    levelUsed: [...s.levelUsed],
    raw: [...s.raw],
    run: { ...s.run, pend: [...s.run.pend], beyond: [...s.run.beyond] },
    events: [...s.events],
  };
}

/** The rollups for the records pushed so far: equal to `computeDayRollups(vehicleId, thoseRecords, date)`. */
export function rollupFoldResult(
  s0: RollupFoldState,
  opts: RollupOptions = defaultRollupOptions,
): DayRollups {
  const s = cloneFold(s0);
  for (const r of sanityTail(s0.sanity, defaultSanityConfig)) stepAccepted(s, r, opts);
  // The last two smoothed samples, with the window cut at the last raw sample.
  for (let i = Math.max(0, s.rawN - 2); i < s.rawN; i++) smoothed(s, i, s.rawN - 1, opts);
  if (s.run.phase === 2) decideRun(s, s.run, opts);
  const used = s.counterSeen ? s.counterUsed : s.levelUsed;
  const eng = s.hasIgnition ? s.engIgn : s.engMot;
  const tz = opts.timeZone;
  for (let k = 0; k < 25; k++) {
    const x = row(s, k, tz);
    x.engineS = eng[k]!;
    x.fuelUsedL = used[k]!;
  }
  const fuelEvents = s.events.filter((e) => inDay(s, e.startTime));
  for (const e of fuelEvents) {
    for (const k of [DAILY, hourOf(s, e.startTime, tz)]) {
      const x = row(s, k, tz);
      if (e.kind === 'refuel') {
        x.refuels++;
        x.refuelL += e.litres;
      } else {
        x.drops++;
        x.dropL += e.litres;
      }
    }
  }
  const b = s.b as VehicleRollup[]; // every row made above
  for (const x of b) {
    x.distanceM = Math.round(x.distanceM * 10) / 10;
    x.fuelUsedL = Math.round(x.fuelUsedL * 100) / 100;
    x.refuelL = Math.round(x.refuelL * 10) / 10;
    x.dropL = Math.round(x.dropL * 10) / 10;
  }
  return { daily: b[DAILY]!, hourly: b.slice(0, 24), fuelEvents };
}
