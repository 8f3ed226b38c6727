import { patterns, subscribeOn, type Bus } from '../../realtime/bus';
import { publishRealtime } from '../../realtime/hub';
import { AlertEngine, type AlertRecord, type VehicleAlertState, type VehicleContext } from '../alerts/engine';
import { alertLocale, renderMessage } from '../../alerts/messages';
import { sortAndDedupe, type PositionRecord } from '../common/types';
import { localDate } from '../common/zoned-time';
import { GeofenceTracker, type VehicleGeofenceState } from '../geofence/tracker';
import {
  computeDayRollups,
  defaultRollupOptions,
  rollupAffectedDays,
  rollupWindow,
  withCounts,
} from '../rollups/rollups';
import { SalikDetector, type VehicleSalikState } from '../salik/detector';
import type { LoadedSalik } from '../salik/load';
import {
  checkLive,
  defaultSanityConfig,
  initialLiveSanityState,
  type LiveSanityState,
} from '../sanity/sanity';
import {
  applyPosition,
  applyTick,
  generateInstances,
  defaultScheduleConfig,
  type TripInstance,
  type TripInstanceEvent,
} from '../scheduled/instances';
import { DeviceIncremental, type DeviceIncState } from '../incremental/device';
import { affectedDays, dayWindow, tripsForDay, type TripDetection } from '../trips/trips';
import type { DayRollups } from '../rollups/rollups';
import type { LocationBatchMessage, NotificationOut, PipelineStore, StoredLocation } from './ports';
import { pipelineProcessed } from '../../metrics/metrics';

/**
 * The pipeline service: subscribes to stored location batches on the bus and runs the engines.
 *
 * Per batch (one device): the live sanity check flags bad fixes; accepted fixes newer than the device's
 * last one are fed in time order to the geofence tracker, the Salik
 * detector, the alert engine and the device's scheduled trip instances. Events are stored, alerts become
 * notifications per recipient in their language and are published at once.
 *
 * Trips, stops, idling and the daily/hourly rollups are incremental (pipeline/README.md): every record
 * of a batch moves the device's running state (incremental/device.ts: one fold per live day) forward in
 * O(1), and `flush()` (debounced, `flushDelayMs`) writes the days that moved, for all devices at once
 * (one transaction of multi-row statements). Nothing reads a device's day on that path. The folds give
 * exactly what the batch functions (`tripsForDay`, `computeDayRollups`) give for the same records; the
 * batch functions stay as the oracle and the repair path:
 * - a record at or before the device's newest one is a duplicate (same fix time: the locations table
 *   keeps one) or late. A late record within `repairHorizonMs` rebuilds the device's live folds from
 *   the stored records at the next flush; days no fold covers any more are recomputed by the batch
 *   functions (`repair`). A late record older than the horizon is queued for the background repair job.
 * - a device first seen by this node (start-up, no saved state) builds its folds from the stored
 *   records of its live windows once.
 */

export interface PipelineOptions {
  readonly store: PipelineStore;
  readonly bus: Bus;
  readonly salik: LoadedSalik;
  readonly timeZone?: string;
  readonly now?: () => number;
  /** Delay before dirty trips/rollups are recomputed (0 = only on explicit flush()). */
  readonly flushDelayMs?: number;
  readonly onError?: (err: unknown) => void;
  /**
   * Keep each device's engine state (sanity reference, last processed fix, alert episodes, geofence
   * visits, Salik anchors, the incremental trip and rollup folds) in the store (scale-out workers; see
   * {@link PipelineService.saveStates}).
   */
  readonly persistState?: boolean;
  /**
   * Late records older than this (device time against the clock) are not repaired on the ingest path
   * but by the background repair job (PIPELINE_REPAIR_HORIZON_H; default 48 h).
   */
  readonly repairHorizonMs?: number;
  /** How often the background repair job takes queued repairs (default 30 s; 0 = only `runRepairs()`). */
  readonly repairIntervalMs?: number;
}

/** What is persisted per device (JSON). */
interface DeviceState {
  readonly lastTime: number | null;
  readonly sanity: LiveSanityState;
  readonly vehicleUuid: string | null;
  readonly alerts?: VehicleAlertState;
  readonly geofence?: VehicleGeofenceState;
  readonly salik?: VehicleSalikState;
  /** The incremental trip/rollup folds (absent: built from the stored records on the next flush). */
  readonly inc?: DeviceIncState;
}

/** The incremental pipeline's view of one device on this node. */
interface IncDevice {
  ref: DeviceRef;
  /** null: not built yet (first sight, or a vehicle change): built from the stored records at the next flush. */
  inc: DeviceIncremental | null;
  /** Records that arrived while `inc` was not built (fed after the build; duplicates of it are skipped). */
  pending: PositionRecord[];
  /** Earliest late record within the horizon since the last flush (the flush rebuilds the folds). */
  lateFrom: number | null;
  /** JSON of the last written result per 'trips|day' / 'rollups|day' (writes only what changed). */
  written: Map<string, string>;
}

interface CompanyRuntime {
  readonly alerts: AlertEngine;
  readonly geofences: GeofenceTracker;
  readonly fenceNames: Map<string, { nameEn: string; nameAr?: string }>;
  readonly vehicles: Map<string, VehicleContext>;
  /** Vehicles with an open stored scheduled-trip instance (when loaded; the leader adds the ones it creates). */
  readonly tripVehicles: Set<string>;
}

interface DeviceRef {
  companyUuid: string;
  deviceUuid: string;
  vehicleUuid: string | null;
}

const toMs = (v: string | number | Date | undefined): number =>
  v instanceof Date ? v.getTime() : typeof v === 'number' ? v : v ? Date.parse(v) : Number.NaN;

/** Without its own receipt time a record takes `receivedAt` (the pipeline runs right after the batch is stored). */
export function toPositionRecord(
  deviceUuid: string,
  vehicleUuid: string | null,
  s: StoredLocation,
  receivedAt = Number.NaN,
): PositionRecord {
  const time = toMs(s.fixTime);
  const received = s.receivedAt === undefined ? receivedAt : toMs(s.receivedAt);
  return {
    deviceId: deviceUuid,
    ...(vehicleUuid ? { vehicleId: vehicleUuid } : {}),
    time,
    receivedAt: Number.isFinite(received) ? received : time,
    lat: s.latitude ?? Number.NaN,
    lon: s.longitude ?? Number.NaN,
    speed: s.speed ?? 0,
    ...(s.course != null ? { heading: s.course } : {}),
    ...(s.ignition != null ? { ignition: s.ignition } : {}),
    io: s.ioElements ?? {},
    digitalOutput1: s.digitalOutput1 ?? null,
    digitalOutput2: s.digitalOutput2 ?? null,
    ignored: s.valid === false,
  };
}

export class PipelineService {
  private readonly store: PipelineStore;
  private readonly bus: Bus;
  private readonly tz: string;
  private readonly now: () => number;
  private readonly salik: SalikDetector;
  private readonly companies = new Map<string, Promise<CompanyRuntime>>();
  private readonly sanity = new Map<string, LiveSanityState>();
  private readonly lastTime = new Map<string, number>();
  /** persistState: devices whose state was read from the store (or found absent) since the last reset. */
  private readonly loaded = new Set<string>();
  /** persistState: states read by prepareDevices, applied (and the gap replayed) by the next batch. */
  private readonly restoring = new Map<string, DeviceState | null>();
  /** persistState: devices processed since the last saveStates, with their vehicle. */
  private readonly unsaved = new Map<string, { companyUuid: string; vehicleUuid: string | null }>();
  private saving: Promise<void> = Promise.resolve();
  /** Incremental trip/rollup state per device (see the class comment). */
  private readonly inc = new Map<string, IncDevice>();
  private readonly dirtyDevices = new Set<string>();
  /** Late records older than the horizon, for the background repair job. */
  private readonly repairQueue: { deviceUuid: string; from: number; to: number }[] = [];
  /** Devices whose next rebuild a repair asked for (from where): that repair recomputes its range itself. */
  private readonly repairRebuilds = new Map<string, number>();
  private repairTimer: ReturnType<typeof setInterval> | undefined;
  private readonly horizonMs: number;
  /** Last known scheduled-trip instances (a view: the stored rows are the state, see tick()). */
  private readonly instances = new Map<string, TripInstance>();
  private readonly instanceDates = new Set<string>();
  /** Clock-lease epoch of the last tick per company (a new epoch = this node just took over). */
  private readonly clockEpochs = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: PipelineOptions) {
    this.store = opts.store;
    this.bus = opts.bus;
    this.tz = opts.timeZone ?? 'Asia/Dubai';
    this.now = opts.now ?? Date.now;
    this.horizonMs = opts.repairHorizonMs ?? 48 * 3_600_000;
    this.salik = new SalikDetector(opts.salik.gates, opts.salik.tariff, {
      linkWindowMinutes: opts.salik.overlay.link_window_minutes,
    });
  }

  /** Subscribes to stored location batches (queue group 'pipeline': one worker per batch). */
  start(): () => void {
    const unsubscribe = subscribeOn(
      this.bus,
      patterns.locations,
      async (msg) => {
        try {
          await this.handleBatch(msg);
          pipelineProcessed(msg.records);
        } catch (err) {
          // persistState: the device's next batch starts again from its stored state and goes
          // through the records of this one too (they are stored), instead of skipping them.
          this.loaded.delete(msg.deviceUuid);
          this.opts.onError?.(err);
        }
      },
      { queue: 'pipeline' },
    );
    const every = this.opts.repairIntervalMs ?? 30_000;
    if (every > 0) {
      this.repairTimer = setInterval(() => {
        this.runRepairs().catch((err) => this.opts.onError?.(err));
      }, every);
      this.repairTimer.unref?.();
    }
    return () => {
      unsubscribe();
      if (this.flushTimer) clearTimeout(this.flushTimer);
      if (this.repairTimer) clearInterval(this.repairTimer);
    };
  }

  /**
   * Drops the cached rules, geofences and vehicles of a company (after an admin edit). Per-vehicle
   * engine state and the fired clock alerts carry over: the new runtime is handed out only once it
   * holds them, so a batch or a tick never sees a runtime without them.
   */
  reloadCompany(companyUuid: string): void {
    const old = this.companies.get(companyUuid);
    this.companies.delete(companyUuid);
    if (!old) return;
    const next = this.company(companyUuid).then(async (rt) => {
      const prev = await old.catch(() => null);
      if (prev) {
        rt.alerts.restore(prev.alerts.snapshot());
        rt.geofences.restore(prev.geofences.snapshot());
      }
      return rt;
    });
    next.catch(() => this.companies.delete(companyUuid));
    this.companies.set(companyUuid, next);
  }

  private company(companyUuid: string): Promise<CompanyRuntime> {
    let rt = this.companies.get(companyUuid);
    if (!rt) {
      rt = Promise.all([this.store.companySetup(companyUuid), this.store.openTripVehicles(companyUuid)]).then(
        ([setup, tripVehicles]) => ({
          alerts: new AlertEngine(companyUuid, setup.rules, this.tz),
          geofences: new GeofenceTracker(setup.geofences),
          fenceNames: new Map(
            setup.geofences.map((g) => [
              g.id,
              { nameEn: g.nameEn, ...(g.nameAr ? { nameAr: g.nameAr } : {}) },
            ]),
          ),
          vehicles: new Map(setup.vehicles.map((v) => [v.vehicleId, v])),
          tripVehicles: new Set(tripVehicles),
        }),
      );
      rt.catch(() => this.companies.delete(companyUuid));
      this.companies.set(companyUuid, rt);
    }
    return rt;
  }

  /** Processes one stored batch of one device. Returns what it produced (used by tests and logs). */
  async handleBatch(msg: LocationBatchMessage): Promise<{ alerts: AlertRecord[]; notifications: number }> {
    const rt = await this.company(msg.companyUuid);
    const ref: DeviceRef = {
      companyUuid: msg.companyUuid,
      deviceUuid: msg.deviceUuid,
      vehicleUuid: msg.vehicleUuid,
    };
    let records = msg.records
      .map((s) => toPositionRecord(msg.deviceUuid, msg.vehicleUuid, s, this.now()))
      .sort((a, b) => a.time - b.time);
    if (this.opts.persistState) {
      const gap = await this.restoreDevice(rt, ref, records[0]?.time);
      if (gap.length) records = [...gap, ...records];
    }
    this.feedIncremental(ref, records);

    const alerts: AlertRecord[] = [];
    const geofenceEvents = [];
    const crossings = [];
    const accepted: PositionRecord[] = [];
    const vehicleUuid = msg.vehicleUuid;
    const ctx: VehicleContext | undefined = vehicleUuid
      ? (rt.vehicles.get(vehicleUuid) ?? { vehicleId: vehicleUuid })
      : undefined;
    for (const r0 of records) {
      const live = checkLive(
        this.sanity.get(msg.deviceUuid) ?? initialLiveSanityState,
        r0,
        defaultSanityConfig,
      );
      this.sanity.set(msg.deviceUuid, live.state);
      if (r0.ignored || live.verdict.ignored) continue;
      const last = this.lastTime.get(msg.deviceUuid) ?? -Infinity;
      if (r0.time <= last) continue; // late: only the trip and rollup recompute sees it
      this.lastTime.set(msg.deviceUuid, r0.time);
      if (!vehicleUuid || !ctx) continue;
      const fenceEvents = rt.geofences.update(vehicleUuid, r0);
      geofenceEvents.push(...fenceEvents);
      for (const e of fenceEvents) {
        alerts.push(
          ...rt.alerts.onGeofenceEvent(ctx, e, rt.fenceNames.get(e.geofenceId) ?? { nameEn: e.geofenceId }),
        );
      }
      const cross = this.salik.update(vehicleUuid, r0);
      crossings.push(...cross);
      for (const c of cross) alerts.push(...rt.alerts.onSalikCrossing(ctx, c));
      alerts.push(...rt.alerts.onPosition(ctx, r0));
      accepted.push(r0);
    }
    if (ctx && accepted.length) alerts.push(...(await this.advanceInstances(rt, ctx, accepted)));
    // Records can be run through the engines twice (a worker died after storing this batch's events
    // but before saving the device's state; a batch that failed half-way is gone through again with
    // the next one): the events come out the same and their inserts skip what is stored. The alerts
    // are not dropped when their event was already stored: the first run may have failed before
    // storing the notifications. Notifications skip their own duplicates (per user and dedupe key,
    // which for these alerts is the event's identity), and only the ones stored now are published.
    if (geofenceEvents.length) await this.store.insertGeofenceEvents(msg.companyUuid, geofenceEvents);
    if (crossings.length) await this.store.insertSalikEvents(msg.companyUuid, crossings);
    const notifications = await this.notify(msg.companyUuid, alerts);
    if (this.opts.persistState)
      this.unsaved.set(msg.deviceUuid, { companyUuid: msg.companyUuid, vehicleUuid });
    this.scheduleFlush();
    return { alerts, notifications };
  }

  /**
   * persistState: reads the stored states of these devices that are not loaded yet, in one query
   * (the worker calls it with the devices of a read batch before announcing them).
   */
  async prepareDevices(deviceUuids: readonly string[]): Promise<void> {
    if (!this.opts.persistState) return;
    const todo = deviceUuids.filter((d) => !this.loaded.has(d) && !this.restoring.has(d));
    if (todo.length === 0) return;
    const rows = await this.store.loadDeviceStates(todo);
    for (const d of todo) this.restoring.set(d, (rows.get(d) as DeviceState | undefined) ?? null);
  }

  /**
   * Puts a device's stored state back into the engines the first time this node handles it (or after
   * a reset) and returns the stored records it has to go through first: the ones after the state's
   * last processed fix and before this batch. A worker that died between storing records and running
   * them through the pipeline left exactly those; the state is saved before every ack, so nothing the
   * previous owner processed is processed again (no duplicate alert) and nothing is skipped.
   */
  private async restoreDevice(
    rt: CompanyRuntime,
    ref: DeviceRef,
    firstTime: number | undefined,
  ): Promise<PositionRecord[]> {
    const { deviceUuid, vehicleUuid } = ref;
    if (this.loaded.has(deviceUuid)) return [];
    if (!this.restoring.has(deviceUuid)) await this.prepareDevices([deviceUuid]);
    const state = this.restoring.get(deviceUuid) ?? null;
    this.restoring.delete(deviceUuid);
    this.loaded.add(deviceUuid);
    this.sanity.set(deviceUuid, state?.sanity ?? initialLiveSanityState);
    if (state?.lastTime != null) this.lastTime.set(deviceUuid, state.lastTime);
    else this.lastTime.delete(deviceUuid);
    const vehicle = state?.vehicleUuid ?? vehicleUuid;
    if (vehicle) {
      rt.alerts.setVehicleState(vehicle, state?.alerts);
      rt.geofences.setState(vehicle, state?.geofence);
      this.salik.setState(vehicle, state?.salik);
    }
    // The folds go on from where the saved state left them (or are built from the stored records).
    this.inc.set(deviceUuid, {
      ref,
      inc: state?.inc?.v === 1 ? new DeviceIncremental(state.inc, this.tz) : null,
      pending: [],
      lateFrom: null,
      written: new Map(),
    });
    this.dirtyDevices.add(deviceUuid);
    const incLast = state?.inc?.last;
    if (incLast != null && firstTime !== undefined && (state?.lastTime == null || incLast < state.lastTime)) {
      // Stored records the folds have not seen (the engines skip what they already processed).
      return this.store.readLocations(deviceUuid, incLast + 1, firstTime);
    }
    if (state?.lastTime == null || firstTime === undefined || firstTime <= state.lastTime + 1) return [];
    return this.store.readLocations(deviceUuid, state.lastTime + 1, firstTime);
  }

  /**
   * persistState: writes the state of every device processed since the last call (one statement).
   * The worker calls it after announcing a read batch and before acking it.
   */
  saveStates(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.opts.persistState || this.unsaved.size === 0) return;
      const batch = [...this.unsaved];
      this.unsaved.clear();
      const rows = [];
      for (const [deviceUuid, { companyUuid, vehicleUuid }] of batch) {
        const rt = await this.company(companyUuid).catch(() => null);
        const inc = this.inc.get(deviceUuid)?.inc;
        const state: DeviceState = {
          lastTime: this.lastTime.get(deviceUuid) ?? null,
          sanity: this.sanity.get(deviceUuid) ?? initialLiveSanityState,
          vehicleUuid,
          ...(inc ? { inc: inc.state } : {}),
          ...(vehicleUuid && rt
            ? {
                alerts: rt.alerts.vehicleState(vehicleUuid),
                geofence: rt.geofences.stateOf(vehicleUuid),
                salik: this.salik.stateOf(vehicleUuid),
              }
            : {}),
        };
        rows.push({ deviceUuid, lastTime: state.lastTime, state });
      }
      try {
        await this.store.saveDeviceStates(rows);
      } catch (err) {
        for (const [d, v] of batch) if (!this.unsaved.has(d)) this.unsaved.set(d, v);
        throw err;
      }
    });
    return this.saving;
  }

  /**
   * persistState: forgets what this node holds of every device's state (the worker took over
   * partitions: their devices' state is read from the store on their next batch).
   */
  resetDeviceStates(): void {
    this.loaded.clear();
    this.restoring.clear();
  }

  /**
   * Applies a batch of accepted positions to the vehicle's open scheduled-trip instances. The stored
   * row is the instance's state (the clock-work leader changes it too, on another node perhaps): it
   * is read, advanced and written compare-and-set; only a write that wins emits the events' alerts,
   * and a lost race reads the row again and applies the positions to what the other node wrote.
   */
  private async advanceInstances(
    rt: CompanyRuntime,
    ctx: VehicleContext,
    records: readonly PositionRecord[],
  ): Promise<AlertRecord[]> {
    if (!rt.tripVehicles.has(ctx.vehicleId)) return [];
    const cfg = { ...defaultScheduleConfig, timeZone: this.tz };
    const out: AlertRecord[] = [];
    let retry: Set<string> | null = null;
    for (let attempt = 0; attempt < 5 && (retry === null || retry.size > 0); attempt++) {
      const stored = await this.store.openVehicleTripInstances(ctx.vehicleId);
      const again = new Set<string>();
      for (const { instance, rev } of stored) {
        if (retry && !retry.has(instance.id)) continue;
        let cur = instance;
        const events: TripInstanceEvent[] = [];
        for (const r of records) {
          const a = applyPosition(cur, r, cfg);
          cur = a.instance;
          events.push(...a.events);
        }
        if (cur === instance) {
          this.instances.set(instance.id, instance);
          continue;
        }
        if (await this.store.updateTripInstance(cur, rev)) {
          this.instances.set(cur.id, cur);
          out.push(...this.tripEventAlerts(rt, ctx, cur, events));
        } else again.add(instance.id);
      }
      retry = again;
    }
    return out;
  }

  private tripEventAlerts(
    rt: CompanyRuntime,
    ctx: VehicleContext | undefined,
    inst: TripInstance,
    events: TripInstanceEvent[],
  ): AlertRecord[] {
    const out: AlertRecord[] = [];
    for (const e of events) {
      if (e.kind === 'nearing_stop' && ctx) out.push(...rt.alerts.onNearingStop(ctx, e));
      if (e.kind === 'status' && (e.to === 'delayed' || e.to === 'missed')) {
        out.push(
          ...rt.alerts.onScheduledTripEvent({
            kind: e.to,
            instanceId: inst.id,
            tripName: inst.name,
            ...(inst.vehicleId ? { vehicleId: inst.vehicleId } : {}),
            ...(inst.driverId ? { driverId: inst.driverId } : {}),
            time: e.time,
            ...(e.minutesLate !== undefined ? { minutesLate: e.minutesLate } : {}),
          }),
        );
      }
    }
    return out;
  }

  /** Turns alerts into stored notifications per recipient and publishes them on the WebSocket at once. */
  private async notify(companyUuid: string, alerts: readonly AlertRecord[]): Promise<number> {
    if (alerts.length === 0) return 0;
    const rows = [];
    for (const alert of alerts) {
      let recipients = alert.passengerIds
        ? await this.store.guardianRecipients(companyUuid, alert.passengerIds)
        : await this.store.recipients(companyUuid, alert.vehicleId);
      if (alert.recipientUserIds?.length) {
        const allowed = new Set(alert.recipientUserIds);
        recipients = recipients.filter((r) => allowed.has(r.userUuid));
      }
      for (const r of recipients) {
        const locale = alertLocale(r.locale);
        rows.push({
          companyUuid,
          userUuid: r.userUuid,
          alert,
          title: renderMessage(alert.titleKey, alert.params, locale),
          message: renderMessage(alert.messageKey, alert.params, locale),
        });
      }
    }
    const stored = await this.store.insertNotifications(rows);
    for (const n of stored) {
      const { userUuid, ...data } = n;
      await publishRealtime(this.bus, {
        company_uuid: companyUuid,
        event: 'notification',
        path: userUuid,
        user_uuid: userUuid,
        data: data satisfies NotificationOut,
      });
    }
    return stored.length;
  }

  /** Feeds a batch's records (sorted; with the restored gap) to the device's folds. */
  private feedIncremental(ref: DeviceRef, records: readonly PositionRecord[]): void {
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

  private scheduleFlush(): void {
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
    this.flushing = this.flushing.then(() => this.doFlush());
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    const devices: IncDevice[] = [];
    for (const id of this.dirtyDevices) {
      const dev = this.inc.get(id);
      if (dev) devices.push(dev);
    }
    this.dirtyDevices.clear();
    // Devices first seen, or with late records within the horizon: (re)build their folds.
    for (const dev of devices) if (!dev.inc || dev.lateFrom !== null) await this.rebuild(dev);
    const tripWrites: { ref: DeviceRef; date: string; detection: TripDetection }[] = [];
    const rollupWrites: { ref: DeviceRef; day: DayRollups }[] = [];
    const violationDays = new Map<string, Set<string>>();
    const slice = timeSlicer();
    for (const dev of devices) {
      await slice();
      const inc = dev.inc;
      if (!inc) continue;
      for (const day of inc.dirtyTrips) {
        const det = inc.trips(day);
        if (!det) continue;
        const sig = JSON.stringify(det);
        if (dev.written.get(`trips|${day}`) === sig) continue;
        dev.written.set(`trips|${day}`, sig);
        tripWrites.push({ ref: dev.ref, date: day, detection: det });
      }
      inc.dirtyTrips.clear();
      if (dev.ref.vehicleUuid) {
        for (const day of inc.dirtyRollups) {
          const r = inc.rollups(day);
          if (!r) continue;
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
      const dayTrips = dev.inc?.trips(day)?.trips ?? (await this.oracleTrips(w.ref.deviceUuid, day)).trips;
      const computed = withCounts(
        w.day,
        dayTrips,
        (violations.get(`${w.ref.vehicleUuid}|${day}`) ?? []).map((time) => ({ time })),
        opts,
      );
      const sig = JSON.stringify(computed);
      if (dev.written.get(`rollups|${day}`) === sig) continue;
      dev.written.set(`rollups|${day}`, sig);
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
        for (const w of finalRollups) {
          for (const dev of devices)
            if (dev.ref.vehicleUuid === w.ref.vehicleUuid) dev.written.delete(`rollups|${w.day.daily.date}`);
        }
        for (const dev of devices) this.dirtyDevices.add(dev.ref.deviceUuid);
        throw err;
      }
    }
    for (const dev of devices) {
      await slice();
      if (!dev.inc) continue;
      const before = new Set([...Object.keys(dev.inc.state.trips), ...Object.keys(dev.inc.state.rollups)]);
      dev.inc.prune();
      for (const d of before) {
        if (!(d in dev.inc.state.trips)) dev.written.delete(`trips|${d}`);
        if (!(d in dev.inc.state.rollups)) dev.written.delete(`rollups|${d}`);
      }
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
    await this.recomputeDays(ref, from, to);
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

  /**
   * Clock work for one company (call every minute): offline / inactive alerts, scheduled trip instances
   * of today (generated on first sight of a date) and their time-driven transitions, document expiry.
   * `clockEpoch` changes when this node (re)gains the clock-work lease (cluster/lease.ts).
   */
  async tick(companyUuid: string, clockEpoch = 0): Promise<{ alerts: AlertRecord[]; notifications: number }> {
    const now = this.now();
    const rt = await this.company(companyUuid);
    const alerts: AlertRecord[] = [];
    if (this.clockEpochs.get(companyUuid) !== clockEpoch) {
      // First clock work of this node for the company, or it just took the clock lease over: what
      // the previous holder fired is in the stored notifications, not in this node's memory.
      rt.alerts.markFired(await this.store.firedClockAlerts(companyUuid));
      this.clockEpochs.set(companyUuid, clockEpoch);
    }
    const seen = await this.store.lastSeen(companyUuid);
    alerts.push(
      ...rt.alerts.onTick(
        now,
        seen.map((s) => ({
          ...(rt.vehicles.get(s.vehicleUuid) ?? { vehicleId: s.vehicleUuid }),
          ...(s.lastSeen !== undefined ? { lastSeen: s.lastSeen } : {}),
        })),
      ),
    );
    const date = localDate(now, this.tz);
    const key = `${companyUuid}|${date}`;
    if (!this.instanceDates.has(key)) {
      this.instanceDates.add(key);
      const created = generateInstances(await this.store.scheduledTrips(companyUuid), date, {
        ...defaultScheduleConfig,
        timeZone: this.tz,
      });
      // Stored once, by whichever node gets there first; a stored instance is left as it is.
      if (created.length) await this.store.createTripInstances(created);
      for (const inst of created) if (inst.vehicleId) rt.tripVehicles.add(inst.vehicleId);
      alerts.push(...rt.alerts.onDocuments(now, await this.store.expiringDocuments(companyUuid)));
    }
    // The stored instances are the state (positions move them on whichever worker owns the vehicle,
    // and another node may have held the clock lease before): read, advance on time, write
    // compare-and-set; a lost race is simply applied again on the next tick.
    const cfg = { ...defaultScheduleConfig, timeZone: this.tz };
    for (const { instance, rev } of await this.store.tripInstancesSince(companyUuid, now - 2 * 86_400_000)) {
      this.instances.set(instance.id, instance);
      const t = applyTick(instance, now, cfg);
      if (t.instance === instance) continue;
      if (!(await this.store.updateTripInstance(t.instance, rev))) continue;
      this.instances.set(instance.id, t.instance);
      const ctx = instance.vehicleId ? rt.vehicles.get(instance.vehicleId) : undefined;
      alerts.push(...this.tripEventAlerts(rt, ctx, t.instance, t.events));
    }
    const notifications = await this.notify(companyUuid, alerts);
    return { alerts, notifications };
  }

  /** Current scheduled trip instances (for the API and tests). */
  tripInstances(): TripInstance[] {
    return [...this.instances.values()];
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
