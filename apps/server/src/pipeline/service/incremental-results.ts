import { sortAndDedupe, type PositionRecord } from '../common/types';
import { DeviceIncremental, type DeviceIncState } from '../incremental/device';
import {
  computeDayRollups,
  defaultRollupOptions,
  rollupAffectedDays,
  rollupWindow,
  setCounts,
  withCounts,
  type DayRollups,
} from '../rollups/rollups';
import { affectedDays, dayWindow, tripsForDay, type TripDetection } from '../trips/trips';
import type { PipelineStore } from './ports';
import type { DeviceRef } from './runtime';

/**
 * Trips, stops, idling and the daily/hourly rollups of the devices this node handles, kept
 * incrementally (pipeline/README.md, "Incremental trips and rollups"): `feedIncremental` moves a
 * device's folds (incremental/device.ts) forward with a batch's records, `flush()` writes the days
 * that moved for all devices in one `writeResults`, and late records are repaired: within the horizon
 * by rebuilding the folds at the next flush, past it by the background repair job (`runRepairs`).
 * The batch functions (`tripsForDay`, `computeDayRollups`) are the oracle and the repair path.
 *
 * Split out of service.ts (issue 22) as it was; the service hands every batch's records here and
 * the recovery (recovery.ts) puts a device's saved folds back with `adopt`.
 */

/** The incremental pipeline's view of one device on this node. */
interface IncDevice {
  ref: DeviceRef;
  /** null: not built yet (first sight, or a vehicle change): built from the stored records at the next flush. */
  inc: DeviceIncremental | null;
  /** Records that arrived while `inc` was not built (fed after the build; duplicates of it are skipped). */
  pending: PositionRecord[];
  /** Earliest late record within the horizon since the last flush (the flush rebuilds the folds). */
  lateFrom: number | null;
  /**
   * Per 'trips|day' and 'rollups|day': the settled key (DeviceIncremental.tripsKey, rollupsKey) of the
   * trips or rollups last written while the day could not change any more; a flush skips the day while
   * the key stays the same.
   */
  written: Map<string, string>;
}

export interface IncrementalOptions {
  readonly store: PipelineStore;
  readonly tz: string;
  readonly now: () => number;
  /** Delay before dirty trips/rollups are recomputed (0 = only on explicit flush()). */
  readonly flushDelayMs?: number | undefined;
  /** Late records older than this are left to the background repair job (default 48 h). */
  readonly repairHorizonMs?: number | undefined;
  /** How often the background repair job takes queued repairs (default 30 s; 0 = only `runRepairs()`). */
  readonly repairIntervalMs?: number | undefined;
  readonly onError?: ((err: unknown) => void) | undefined;
}

export class IncrementalResults {
  private readonly store: PipelineStore;
  private readonly tz: string;
  private readonly now: () => number;
  /** Incremental trip/rollup state per device (see the class comment). */
  private readonly inc = new Map<string, IncDevice>();
  private readonly dirtyDevices = new Set<string>();
  /** Late records older than the horizon, for the background repair job. */
  private readonly repairQueue: { deviceUuid: string; from: number; to: number }[] = [];
  /** Devices whose next rebuild a repair asked for (from where): that repair recomputes its range itself. */
  private readonly repairRebuilds = new Map<string, number>();
  private repairTimer: ReturnType<typeof setInterval> | undefined;
  private readonly horizonMs: number;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: IncrementalOptions) {
    this.store = opts.store;
    this.tz = opts.tz;
    this.now = opts.now;
    this.horizonMs = opts.repairHorizonMs ?? 48 * 3_600_000;
  }

  /** Starts the background repair job (every `repairIntervalMs`). */
  startRepairJob(): void {
    const every = this.opts.repairIntervalMs ?? 30_000;
    if (every > 0) {
      this.repairTimer = setInterval(() => {
        this.runRepairs().catch((err) => this.opts.onError?.(err));
      }, every);
      this.repairTimer.unref?.();
    }
  }

  /** Stops the flush timer and the repair job. */
  stop(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.repairTimer) clearInterval(this.repairTimer);
  }

  /** Puts a device's saved folds back (recovery.ts); null: built from the stored records at the next flush. */
  adopt(ref: DeviceRef, saved: DeviceIncState | undefined): void {
    // The folds go on from where the saved state left them (or are built from the stored records).
    this.inc.set(ref.deviceUuid, {
      ref,
      inc: saved?.v === 1 ? new DeviceIncremental(saved, this.tz) : null,
      pending: [],
      lateFrom: null,
      written: new Map(),
    });
    this.dirtyDevices.add(ref.deviceUuid);
  }

  /** The device's folds on this node (for its saved state), if built. */
  foldsOf(deviceUuid: string): DeviceIncremental | null | undefined {
    return this.inc.get(deviceUuid)?.inc;
  }

  /** Feeds a batch's records (sorted; with the restored gap) to the device's folds. */
  feedIncremental(ref: DeviceRef, records: readonly PositionRecord[]): void {
    let dev = this.inc.get(ref.deviceUuid);
    if (!dev) {
      dev = { ref, inc: null, pending: [], lateFrom: null, written: new Map() };
      this.inc.set(ref.deviceUuid, dev);
    }
    if (dev.inc && dev.inc.state.vehicleUuid !== ref.vehicleUuid) dev.inc = null; // rollups follow the vehicle
    dev.ref = ref;
    this.dirtyDevices.add(ref.deviceUuid);
    if (!dev.inc) {
      dev.pending.push(...records);
      return;
    }
    for (const r of records) if (dev.inc.push(r) === 'late') this.noteLate(dev, r.time);
  }

  private noteLate(dev: IncDevice, time: number): void {
    if (this.now() - time > this.horizonMs) {
      this.repairQueue.push({ deviceUuid: dev.ref.deviceUuid, from: time, to: time });
    } else dev.lateFrom = dev.lateFrom === null ? time : Math.min(dev.lateFrom, time);
  }

  scheduleFlush(): void {
    const delay = this.opts.flushDelayMs ?? 0;
    if (delay <= 0 || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch((err) => this.opts.onError?.(err));
    }, delay);
    this.flushTimer.unref?.();
  }

  /** Recomputes every dirty device-day (trips, stops, idling) and vehicle-day (rollups). */
  flush(): Promise<void> {
    return this.serially(() => this.doFlush());
  }

  /**
   * Runs work that writes trips and rollups after the flush or repair before it, one at a time: two
   * writers of one vehicle-day at once raced (a repair's recompute beside a flush failed with
   * vehicle_rollups_pkey in bench:cluster's day). A failed run is reported to its caller and does not
   * stop the ones after it (it did: one failed flush froze trips and rollups until a restart).
   */
  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.flushing.catch(() => undefined).then(work);
    this.flushing = run;
    return run;
  }

  private async doFlush(): Promise<void> {
    const devices: IncDevice[] = [];
    for (const id of this.dirtyDevices) {
      const dev = this.inc.get(id);
      if (dev) devices.push(dev);
    }
    this.dirtyDevices.clear();
    const slice = timeSlicer();
    // Devices first seen, or with late records within the horizon: (re)build their folds. On PGlite a
    // query resolves without a turn of the event loop, so the 1,000 reads of a start-up's first flush
    // held the loop (and every device's ACK) for seconds: the slicer lets it turn between devices.
    for (const dev of devices) {
      if (!dev.inc || dev.lateFrom !== null) {
        await slice();
        await this.rebuild(dev);
      }
    }
    const tripWrites: { ref: DeviceRef; date: string; detection: TripDetection }[] = [];
    const rollupWrites: { ref: DeviceRef; day: DayRollups }[] = [];
    const violationDays = new Map<string, Set<string>>();
    /** Trips built for this flush, by 'device|day' (the rollups count them too). */
    const built = new Map<string, TripDetection>();
    for (const dev of devices) {
      await slice();
      const inc = dev.inc;
      if (!inc) continue;
      for (const day of inc.dirtyTrips) {
        // A day whose result cannot have changed since it was written is skipped without building it
        // (the days before and after the current one, nearly always). The others are sent whole and
        // write-changed.ts writes the rows that differ.
        const key = inc.tripsKey(day);
        if (key !== null && dev.written.get(`trips|${day}`) === key) continue;
        const det = inc.trips(day);
        if (!det) continue;
        if (key === null) dev.written.delete(`trips|${day}`);
        else dev.written.set(`trips|${day}`, key);
        built.set(`${dev.ref.deviceUuid}|${day}`, det);
        tripWrites.push({ ref: dev.ref, date: day, detection: det });
      }
      inc.dirtyTrips.clear();
      if (dev.ref.vehicleUuid) {
        for (const day of inc.dirtyRollups) {
          const key = inc.rollupsKey(day);
          if (key !== null && dev.written.get(`rollups|${day}`) === key) continue;
          const r = inc.rollups(day);
          if (!r) continue;
          if (key === null) dev.written.delete(`rollups|${day}`);
          else dev.written.set(`rollups|${day}`, key);
          rollupWrites.push({ ref: dev.ref, day: r });
          const vs = violationDays.get(day) ?? new Set<string>();
          vs.add(dev.ref.vehicleUuid);
          violationDays.set(day, vs);
        }
      }
      inc.dirtyRollups.clear();
    }
    // Trip and violation counts of the rollups (violations: one query per day for all vehicles).
    const opts = defaultRollupOptionsFor(this.tz);
    const violations = new Map<string, number[]>();
    for (const [day, vehicles] of violationDays) {
      const { from, to } = rollupWindow(day, opts);
      const got = await this.store.violationTimesMany([...vehicles], from, to);
      for (const [v, times] of got) violations.set(`${v}|${day}`, times);
    }
    const finalRollups: { ref: { companyUuid: string; vehicleUuid: string }; day: DayRollups }[] = [];
    for (const w of rollupWrites) {
      await slice();
      const dev = this.inc.get(w.ref.deviceUuid)!;
      const day = w.day.daily.date;
      const dayTrips =
        built.get(`${w.ref.deviceUuid}|${day}`)?.trips ??
        dev.inc?.trips(day)?.trips ??
        (await this.oracleTrips(w.ref.deviceUuid, day)).trips;
      // w.day is the fold's own fresh result (rollupFoldResult copies): counted in place.
      setCounts(
        w.day,
        dayTrips,
        (violations.get(`${w.ref.vehicleUuid}|${day}`) ?? []).map((time) => ({ time })),
        opts,
      );
      const computed = w.day;
      // A dirty vehicle-day took a record, so its rows moved: sent as they are, and write-changed.ts
      // writes the hours that differ (no signature of the whole day is built here any more).
      finalRollups.push({
        ref: { companyUuid: w.ref.companyUuid, vehicleUuid: w.ref.vehicleUuid! },
        day: computed,
      });
    }
    if (tripWrites.length || finalRollups.length) {
      try {
        await this.store.writeResults(tripWrites, finalRollups);
      } catch (err) {
        // Written again by the next flush (the signatures must not claim what is not stored).
        for (const w of tripWrites) this.inc.get(w.ref.deviceUuid)?.written.delete(`trips|${w.date}`);
        for (const w of rollupWrites)
          this.inc.get(w.ref.deviceUuid)?.written.delete(`rollups|${w.day.daily.date}`);
        for (const dev of devices) this.dirtyDevices.add(dev.ref.deviceUuid);
        throw err;
      }
    }
    for (const dev of devices) {
      await slice();
      if (!dev.inc) continue;
      const before = Object.keys(dev.inc.state.trips);
      const rollupsBefore = Object.keys(dev.inc.state.rollups);
      dev.inc.prune();
      for (const d of before) if (!(d in dev.inc.state.trips)) dev.written.delete(`trips|${d}`);
      for (const d of rollupsBefore) if (!(d in dev.inc.state.rollups)) dev.written.delete(`rollups|${d}`);
    }
  }

  /**
   * Builds a device's folds from its stored records (first sight on this node, a vehicle change, or a
   * late record within the horizon): the windows of the days live at the device's newest record, then
   * the records that came meanwhile. Days that late records touched and no fold covers are recomputed
   * by the batch functions.
   */
  private async rebuild(dev: IncDevice): Promise<void> {
    const pending = dev.pending;
    const lateFrom = dev.lateFrom;
    dev.pending = [];
    dev.lateFrom = null;
    const from = dev.inc && lateFrom !== null ? dev.inc.rewindTo(lateFrom) : null;
    if (dev.inc && from !== null) {
      // A late record within the checkpoints: back to the hour before it, then the stored records
      // from there on (a couple of hours at most), then what came meanwhile.
      const inc = dev.inc;
      const stored = await this.store.readLocations(
        dev.ref.deviceUuid,
        from,
        Math.max(inc.state.last ?? 0, this.now()) + 2 * 86_400_000,
      );
      const late: number[] = [lateFrom!];
      for (const r of sortAndDedupe(stored)) inc.push(r);
      for (const r of [...pending, ...dev.pending].sort((a, b) => a.time - b.time))
        if (inc.push(r) === 'late') late.push(r.time);
      dev.pending = [];
      await this.afterRebuild(dev, late);
      return;
    }
    let newest = dev.inc?.state.last ?? -Infinity;
    for (const r of pending) if (Number.isFinite(r.time) && r.time > newest) newest = r.time;
    if (!Number.isFinite(newest)) {
      if (!dev.inc) dev.pending = pending; // nothing with a fix time yet
      return;
    }
    const live = DeviceIncremental.liveDays(newest, this.tz);
    const since = Math.min(...live.trips.map((d) => dayWindow(d, this.tz).from));
    const stored = await this.store.readLocations(
      dev.ref.deviceUuid,
      since,
      Math.max(newest, this.now()) + 2 * 86_400_000,
    );
    const inc = new DeviceIncremental(
      { v: 1, last: null, since, vehicleUuid: dev.ref.vehicleUuid, trips: {}, rollups: {} },
      this.tz,
    );
    // In the total order (a store may return them in any order), so nothing stored counts as late.
    for (const r of sortAndDedupe(stored)) inc.push(r);
    // Records that came in while the stored ones were read (the read may have missed them).
    const late: number[] = lateFrom !== null ? [lateFrom] : [];
    for (const r of [...pending, ...dev.pending].sort((a, b) => a.time - b.time)) {
      if (inc.push(r) === 'late' && r.time < since) late.push(r.time);
    }
    dev.pending = [];
    dev.inc = inc;
    inc.touchAll();
    await this.afterRebuild(dev, late);
  }

  /** Late records a rebuild found: the days no fold covers are recomputed (or queued past the horizon). */
  private async afterRebuild(dev: IncDevice, late: number[]): Promise<void> {
    // The first is the rebuild's own start; when a repair asked for it, that repair recomputes the
    // range (queueing it again re-ran the repair every 30 s forever when it was past the horizon).
    const asked = this.repairRebuilds.get(dev.ref.deviceUuid);
    this.repairRebuilds.delete(dev.ref.deviceUuid);
    if (asked !== undefined && late[0] === asked) late = late.slice(1);
    const min = Math.min(...late);
    if (!Number.isFinite(min)) return;
    if (this.now() - min > this.horizonMs) {
      this.repairQueue.push({ deviceUuid: dev.ref.deviceUuid, from: min, to: Math.max(...late) });
    } else await this.recomputeDays(dev.ref, min, Math.max(...late));
  }

  /**
   * Repairs a device's trips, stops, idling and rollups for records in [from, to] (device time): the
   * live folds that cover the range are rebuilt from the stored records, and the days no fold covers
   * are recomputed from the stored records by the batch functions. For anything that changes stored
   * records or how they are read after the fact (late uploads past the horizon, a changed sensor
   * setting of the device).
   */
  async repair(deviceUuid: string, from: number, to: number): Promise<void> {
    await this.flushing.catch(() => undefined);
    const dev = this.inc.get(deviceUuid);
    let ref: DeviceRef;
    if (dev) {
      ref = dev.ref;
      if (dev.inc && dev.inc.earliestWindow() !== null && to >= (dev.inc.earliestWindow() ?? Infinity)) {
        dev.lateFrom = Math.max(from, dev.inc.state.since);
        this.repairRebuilds.set(deviceUuid, dev.lateFrom);
        this.dirtyDevices.add(deviceUuid);
      }
    } else {
      const recs = await this.store.readLocations(deviceUuid, from - 86_400_000, to + 86_400_000);
      ref = {
        companyUuid: '',
        deviceUuid,
        vehicleUuid: recs.findLast((r) => r.vehicleId)?.vehicleId ?? null,
      };
    }
    await this.serially(() => this.recomputeDays(ref, from, to));
    await this.flush();
  }

  /** Runs the queued background repairs (late records older than the horizon). */
  async runRepairs(): Promise<number> {
    const jobs = this.repairQueue.splice(0);
    const byDevice = new Map<string, { from: number; to: number }>();
    for (const j of jobs) {
      const cur = byDevice.get(j.deviceUuid);
      byDevice.set(j.deviceUuid, cur ? { from: Math.min(cur.from, j.from), to: Math.max(cur.to, j.to) } : j);
    }
    for (const [deviceUuid, { from, to }] of byDevice) await this.repair(deviceUuid, from, to);
    return byDevice.size;
  }

  /**
   * Whether this node holds live folds of the device (it owns the device's records now): a repair run
   * elsewhere must reach it (gateway/sensor-repair.ts hands it over on the bus).
   */
  holdsDevice(deviceUuid: string): boolean {
    return this.inc.get(deviceUuid)?.inc != null;
  }

  /** Queued background repairs (tests, metrics). */
  pendingRepairs(): number {
    return this.repairQueue.length;
  }

  /** Trips of a day by the batch function (the oracle), from the stored records. */
  private async oracleTrips(deviceUuid: string, day: string): Promise<TripDetection> {
    const w = dayWindow(day, this.tz);
    return tripsForDay(await this.store.readLocations(deviceUuid, w.from, w.to), day, this.tz);
  }

  /**
   * The batch computation (what every flush did before the pipeline was incremental): trips, stops,
   * idling and rollups of the days that records in [from, to] can change and no live fold covers,
   * from the stored records.
   */
  private async recomputeDays(ref: DeviceRef, from: number, to: number): Promise<void> {
    const dev = this.inc.get(ref.deviceUuid);
    const tripDays = new Set<string>();
    const rollupDays = new Set<string>();
    const opts = defaultRollupOptionsFor(this.tz);
    for (let t = from; ; t = Math.min(to, t + 86_400_000)) {
      for (const d of affectedDays([t], this.tz)) if (!dev?.inc?.hasTripDay(d)) tripDays.add(d);
      for (const d of rollupAffectedDays([t], opts)) if (!dev?.inc?.hasRollupDay(d)) rollupDays.add(d);
      if (t >= to) break;
    }
    const tripsOfDay = new Map<string, { startTime: number }[]>();
    for (const day of [...tripDays].sort()) {
      const det = await this.oracleTrips(ref.deviceUuid, day);
      await this.store.replaceDeviceDay(ref, day, det);
      dev?.written.delete(`trips|${day}`);
      tripsOfDay.set(day, det.trips);
    }
    if (!ref.vehicleUuid) return;
    for (const day of [...rollupDays].sort()) {
      const { from: wFrom, to: wTo } = rollupWindow(day, opts);
      const records = await this.store.readLocations(ref.deviceUuid, wFrom, wTo);
      const dayTrips =
        tripsOfDay.get(day) ??
        dev?.inc?.trips(day)?.trips ??
        (await this.oracleTrips(ref.deviceUuid, day)).trips;
      const violations = (await this.store.violationTimes(ref.vehicleUuid, wFrom, wTo)).map((time) => ({
        time,
      }));
      const computed = withCounts(
        computeDayRollups(ref.vehicleUuid, records, day, opts),
        dayTrips,
        violations,
        opts,
      );
      await this.store.replaceRollups(
        { companyUuid: ref.companyUuid, vehicleUuid: ref.vehicleUuid },
        computed,
      );
      dev?.written.delete(`rollups|${day}`);
    }
  }
}

function defaultRollupOptionsFor(timeZone: string) {
  return { ...defaultRollupOptions, timeZone };
}

/**
 * A flush goes through every dirty device (1,000 and more at fleet scale) on the event loop the
 * gateway's ACKs and the API share: after `budgetMs` of work it lets the loop run (one
 * `setImmediate`) before the next device. A device's own step is never split; a batch of the device
 * arriving meanwhile marks it dirty again and the next flush writes what changed.
 */
function timeSlicer(budgetMs = 8): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < budgetMs) return;
    await new Promise<void>((r) => setImmediate(r));
    start = performance.now();
  };
}
