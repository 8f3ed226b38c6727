import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { PositionRecord } from '../common/types';
import { localDate } from '../common/zoned-time';
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

/** Hour checkpoints kept per device (in memory): a late record within them repairs from the hour. */
const CHECKPOINTS = 3;
/** Folds are kept this long past their window, so a late record within the checkpoints finds them. */
const KEEP_AFTER_MS = (CHECKPOINTS + 1) * 3_600_000;

/** Generations of fold states in this process (a new DeviceIncremental, or a rewind, takes the next). */
let generations = 0;

export class DeviceIncremental {
  private readonly rollupOpts: RollupOptions;
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
  }

  /** Feeds one record (records of a batch in time order). */
  push(r: PositionRecord): PushOutcome {
    const s = this.state;
    if (!Number.isFinite(r.time)) return 'duplicate'; // never stored with a fix time anyway
    if (s.last !== null && r.time <= s.last) return r.time === s.last ? 'duplicate' : 'late';
    if (s.last !== null && Math.floor(r.time / 3_600_000) > Math.floor(s.last / 3_600_000)) {
      this.checkpoints.push({
        t: Math.floor(r.time / 3_600_000) * 3_600_000,
        // Copied to its own size: zlib's result is a view of its 16 KB output chunk, which it would pin.
        state: Buffer.from(deflateRawSync(JSON.stringify(s), { level: 1 })),
      });
      if (this.checkpoints.length > CHECKPOINTS) this.checkpoints.shift();
    }
    s.last = r.time;
    for (const d of affectedDays([r.time], this.timeZone)) {
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
      for (const d of rollupAffectedDays([r.time], this.rollupOpts)) {
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
