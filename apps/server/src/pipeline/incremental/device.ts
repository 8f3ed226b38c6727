import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { IO, TYRE_IO, type IoMap, type IoValue } from '../common/io';
import type { PositionRecord } from '../common/types';
import { addDays, dayStartOf, localDate } from '../common/zoned-time';
import {
  defaultRollupOptions,
  rollupAffectedDays,
  type DayRollups,
  type RollupOptions,
} from '../rollups/rollups';
import { affectedDays, defaultTripConfig, type TripDetection } from '../trips/trips';
import { newRollupFold, rollupFoldPush, rollupFoldResult, type RollupFoldState } from './rollup-fold';
import {
  newTripFold,
  tripFoldPush,
  tripFoldResult,
  tripFoldSettledKey,
  type TripFoldState,
} from './trip-fold';

/**
 * The running state of one device in the incremental pipeline (see ../README.md):
 * - `last`: the newest device time fed to the folds; a record at or before it is a duplicate (the
 *   locations table keeps one record per device and fix time) or late, and is not fed;
 * - one trip fold per local day whose trip window (`dayWindow`: the day +- 24 h) holds `last`, and one
 *   rollup fold per day whose rollup window (the day +- 1 h) does, for the device's vehicle. A record
 *   moves each of them forward in O(1); a fold is dropped once `last` is past its window (its day is
 *   final and was written).
 * The state is plain JSON; it is saved with the device's engine state (pipeline_device_state).
 */
export interface DeviceIncState {
  readonly v: 1;
  last: number | null;
  /**
   * Every stored record of the device from this time on was fed (the start of the read that built the
   * state). A fold whose window starts earlier would miss records, so none is created.
   */
  since: number;
  vehicleUuid: string | null;
  trips: Record<string, TripFoldState>;
  rollups: Record<string, RollupFoldState>;
}

export const newDeviceIncState = (vehicleUuid: string | null, since: number): DeviceIncState => ({
  v: 1,
  last: null,
  since,
  vehicleUuid,
  trips: {},
  rollups: {},
});

export type PushOutcome = 'fed' | 'duplicate' | 'late';

/**
 * The IO elements the trip and rollup folds (and the batch functions they equal) read: odometer,
 * ignition, RPM, temperature, fuel level / litres / counter and the tyre sensors. device.test.ts runs
 * the folds and the batch functions over records whose IO records every element read, and fails on one
 * not listed here.
 */
/** An array index far past any IO id (see `foldRecord`). */
const SPARSE = 1 << 24;

export const FOLD_IO_IDS: readonly number[] = [
  IO.odometer,
  IO.ignition,
  IO.engineRpm,
  IO.temperature,
  IO.fuelLevel,
  IO.fuelLitres,
  IO.fuelConsumed,
  ...Object.values(TYRE_IO).flatMap((t) => [t.pressure, t.temperature]),
];

/**
 * A record as the folds keep it: its IO cut to {@link FOLD_IO_IDS}. The folds hold a few records each
 * (the previous one, the open trip's ends, the parked records after it, the sanity filter's window), and
 * with the full IO of a Teltonika record (~30 elements) those were ~7 MB of the server's live heap at
 * 1,000 devices (bench:soak, heap snapshot in the fourth hour), and most of the text of every saved state
 * and hourly checkpoint. The results are the same: nothing else of the IO is read.
 */
export function foldRecord(r: PositionRecord): PositionRecord {
  const io = r.io;
  if (!io) return r;
  let kept: Record<number, IoValue> | undefined;
  for (const id of FOLD_IO_IDS) {
    const v = io[id];
    if (v === undefined) continue;
    if (!kept) {
      // Numeric keys are array indexes to V8: set one by one, 16, 239 and 85 give a plain object an
      // element store 240 long (~3 KB; measured with --expose-gc over 20,000 objects). An index far
      // past the end first turns the store into a dictionary, which stays one when it is deleted:
      // ~200 bytes. The keys and values are the same either way.
      kept = {};
      kept[SPARSE] = null;
      delete kept[SPARSE];
    }
    kept[id] = v;
  }
  // Written out as a literal, one shape for every record: a copy by rest and spread (`{ io, ...rest }`)
  // came out as a dictionary-mode object, 1.5x the size of the whole record it was cut from.
  const out: { -readonly [K in keyof PositionRecord]: PositionRecord[K] } = {
    deviceId: r.deviceId,
    time: r.time,
    receivedAt: r.receivedAt,
    lat: r.lat,
    lon: r.lon,
    speed: r.speed,
  };
  if (r.id !== undefined) out.id = r.id;
  if (r.vehicleId !== undefined) out.vehicleId = r.vehicleId;
  if (r.heading !== undefined) out.heading = r.heading;
  if (r.ignition !== undefined) out.ignition = r.ignition;
  if (kept) out.io = kept as IoMap;
  if (r.digitalOutput1 !== undefined) out.digitalOutput1 = r.digitalOutput1;
  if (r.digitalOutput2 !== undefined) out.digitalOutput2 = r.digitalOutput2;
  if (r.ignored !== undefined) out.ignored = r.ignored;
  return out;
}

/** A rollup window's reach past its day (`rollupWindow`, `rollupAffectedDays`). */
const ROLLUP_REACH_MS = 3_600_000;

/** Hour checkpoints kept per device (in memory): a late record within them repairs from the hour. */
const CHECKPOINTS = 3;
/** Folds are kept this long past their window, so a late record within the checkpoints finds them. */
const KEEP_AFTER_MS = (CHECKPOINTS + 1) * 3_600_000;

/**
 * The local days whose windows hold a time, as `affectedDays` (trip windows: the day +- the lookaround)
 * and `rollupAffectedDays` (the day +- 1 h) give them, for one time after another: the answer is kept
 * with the span of times it holds for (until `t - reach` or `t + reach` crosses a local midnight), so a
 * device's records, which come in time order, compute it a few times a day instead of twice per record
 * (two to four zoned-date strings and a set each time: ~10 % of what the server allocated per record at
 * 1,000 devices).
 */
export class DaysCovering {
  private lo = Infinity;
  private hi = -Infinity;
  private days: readonly string[] = [];
  constructor(
    private readonly reachMs: number,
    private readonly timeZone: string,
  ) {}
  /** The days, oldest first (the same array while the answer stays the same: do not change it). */
  at(t: number): readonly string[] {
    if (t >= this.lo && t < this.hi) return this.days;
    const tz = this.timeZone;
    const reach = this.reachMs;
    const a = localDate(t - reach, tz);
    const b = localDate(t + reach, tz);
    const days = [a];
    for (let d = a; d < b;) days.push((d = addDays(d, 1)));
    this.lo = Math.max(dayStartOf(a, tz) + reach, dayStartOf(b, tz) - reach);
    this.hi = Math.min(dayStartOf(addDays(a, 1), tz) + reach, dayStartOf(addDays(b, 1), tz) - reach);
    this.days = days;
    return days;
  }
}

/** Generations of fold states in this process (a new DeviceIncremental, or a rewind, takes the next). */
let generations = 0;

export class DeviceIncremental {
  private readonly rollupOpts: RollupOptions;
  private readonly tripDays: DaysCovering;
  private readonly rollupDays: DaysCovering;
  /** Changes when the state is replaced (rewind): a settled key of the old state says nothing of the new. */
  private generation = ++generations;
  /** Days whose trips / rollups moved since `takeDirty`. */
  readonly dirtyTrips = new Set<string>();
  readonly dirtyRollups = new Set<string>();
  /**
   * Snapshots of the state taken before the first record of each (UTC) hour: `t` is the hour start,
   * and the snapshot holds exactly the records before it. Not persisted (a node taking over repairs a
   * late record by a rebuild instead).
   *
   * Kept as JSON text, the form the state is persisted in (pipeline_device_state), so a rewind gives
   * the same state a restart would. Kept as objects (structuredClone), the three snapshots of 1,000
   * devices were most of the server's live heap by the afternoon of bench:soak's day (a device's
   * state holds its days' trips, stops and idling): V8 scanned them on every major collection and let
   * the heap grow to ~3x of it (RSS 1.2-1.3 GB on PGlite). Text is smaller and never scanned.
   *
   * And the text is deflated (zlib level 1, outside V8's heap): as text, the 3,000 snapshots of 1,000
   * devices were still 105 MB of the 191 MB live heap at the fourth hour of bench:soak's day (a state
   * is ~35 KB of JSON, mostly the rollup folds' 25 buckets of the same keys, which compress ~10x).
   * Taking one costs a deflate of the JSON once per device-hour; reading one (a late record) an inflate.
   */
  private checkpoints: { t: number; state: Buffer }[] = [];

  constructor(
    public state: DeviceIncState,
    private readonly timeZone: string,
  ) {
    this.rollupOpts = { ...defaultRollupOptions, timeZone };
    this.tripDays = new DaysCovering(defaultTripConfig.lookaroundS * 1000, timeZone);
    this.rollupDays = new DaysCovering(ROLLUP_REACH_MS, timeZone);
  }

  /** Feeds one record (records of a batch in time order). */
  push(record: PositionRecord): PushOutcome {
    const s = this.state;
    if (!Number.isFinite(record.time)) return 'duplicate'; // never stored with a fix time anyway
    if (s.last !== null && record.time <= s.last) return record.time === s.last ? 'duplicate' : 'late';
    if (s.last !== null && Math.floor(record.time / 3_600_000) > Math.floor(s.last / 3_600_000)) {
      this.checkpoints.push({
        t: Math.floor(record.time / 3_600_000) * 3_600_000,
        // Copied to its own size: zlib's result is a view of its 16 KB output chunk, which it would pin.
        state: Buffer.from(deflateRawSync(JSON.stringify(s), { level: 1 })),
      });
      if (this.checkpoints.length > CHECKPOINTS) this.checkpoints.shift();
    }
    s.last = record.time;
    const r = foldRecord(record);
    for (const d of this.tripDays.at(r.time)) {
      let f = s.trips[d];
      if (!f) {
        f = newTripFold(d, this.timeZone);
        if (f.from < s.since) continue;
        s.trips[d] = f;
      }
      if (r.time >= f.from && r.time < f.to) {
        tripFoldPush(f, r);
        this.dirtyTrips.add(d);
      }
    }
    if (s.vehicleUuid) {
      for (const d of this.rollupDays.at(r.time)) {
        let f = s.rollups[d];
        if (!f) {
          f = newRollupFold(s.vehicleUuid, d, this.rollupOpts);
          if (f.from < s.since) continue;
          s.rollups[d] = f;
        }
        if (r.time >= f.from && r.time < f.to) {
          rollupFoldPush(f, r, this.rollupOpts);
          this.dirtyRollups.add(d);
        }
      }
    }
    return 'fed';
  }

  /** Days with a live trip fold (their results come from the folds, not from the stored records). */
  hasTripDay(day: string): boolean {
    return day in this.state.trips;
  }

  hasRollupDay(day: string): boolean {
    return day in this.state.rollups;
  }

  /** Start of the earliest live window (a rebuild reads the stored records from there on). */
  earliestWindow(): number | null {
    let min: number | null = null;
    for (const f of [...Object.values(this.state.trips), ...Object.values(this.state.rollups)])
      if (min === null || f.from < min) min = f.from;
    return min;
  }

  trips(day: string): TripDetection | undefined {
    const f = this.state.trips[day];
    return f ? tripFoldResult(f, defaultTripConfig) : undefined;
  }

  /**
   * A key that stays the same while the day's trip result cannot change (trip-fold.ts,
   * `tripFoldSettledKey`), or null when it may have: a flush skips a day whose key it wrote last.
   */
  tripsKey(day: string): string | null {
    const f = this.state.trips[day];
    const k = f ? tripFoldSettledKey(f) : null;
    return k === null ? null : `${this.generation}|${k}`;
  }

  /**
   * A key that stays the same while the day's rollups cannot change, or null when they may have: a
   * flush skips a day whose key it wrote last (service/incremental-results.ts).
   *
   * Non-null while every record fed lies before the day starts: a rollup window opens an hour before
   * its day, and until a record of the day comes the result is the empty day (rollup-fold.ts: an
   * interval, a fuel reading or a fuel event goes to the bucket of a record's time, and none is on the
   * day), and no trip or violation counted on it either (each starts at a record's time). Without the
   * key every vehicle's next day was rebuilt, and its day's trips with it, at each flush from 23:00 on
   * (bench:soak: the dearest hour of the day on both databases).
   */
  rollupsKey(day: string): string | null {
    const f = this.state.rollups[day];
    const last = this.state.last;
    return f && last !== null && last < f.dayStart ? `${this.generation}|before the day` : null;
  }

  rollups(day: string): DayRollups | undefined {
    const f = this.state.rollups[day];
    return f ? rollupFoldResult(f, this.rollupOpts) : undefined;
  }

  /**
   * Goes back to the newest checkpoint at or before `time` (a late record's time): returns the time
   * from which the stored records must be fed again, or null when no checkpoint is that old (the
   * caller rebuilds from the stored records of the live windows). Every live day is marked dirty.
   */
  rewindTo(time: number): number | null {
    let k = this.checkpoints.length - 1;
    while (k >= 0 && this.checkpoints[k]!.t > time) k--;
    if (k < 0) return null;
    const cp = this.checkpoints[k]!;
    this.checkpoints = this.checkpoints.slice(0, k);
    this.state = JSON.parse(inflateRawSync(cp.state).toString('utf8')) as DeviceIncState;
    this.generation = ++generations;
    for (const d of Object.keys(this.state.trips)) this.dirtyTrips.add(d);
    for (const d of Object.keys(this.state.rollups)) this.dirtyRollups.add(d);
    return cp.t;
  }

  /** Marks every live day dirty (after a rebuild). */
  touchAll(): void {
    for (const d of Object.keys(this.state.trips)) this.dirtyTrips.add(d);
    for (const d of Object.keys(this.state.rollups)) this.dirtyRollups.add(d);
  }

  /**
   * Drops the folds whose window `last` has passed by more than the checkpoints reach (call after
   * their final result was written).
   */
  prune(): void {
    const s = this.state;
    if (s.last === null) return;
    for (const [d, f] of Object.entries(s.trips)) if (s.last >= f.to + KEEP_AFTER_MS) delete s.trips[d];
    for (const [d, f] of Object.entries(s.rollups)) if (s.last >= f.to + KEEP_AFTER_MS) delete s.rollups[d];
  }

  /** The days whose folds a rebuild must create for a device last seen at `time`. */
  static liveDays(time: number, timeZone: string): { trips: string[]; rollups: string[] } {
    return {
      trips: affectedDays([time], timeZone),
      rollups: rollupAffectedDays([time], { ...defaultRollupOptions, timeZone }),
    };
  }
}

export { localDate };
