import type { Bus } from '../../realtime/bus';
import { publishRealtime } from '../../realtime/hub';
import { AlertEngine, type AlertRecord, type VehicleAlertState, type VehicleContext } from '../alerts/engine';
import { alertLocale, renderMessage } from '../alerts/messages';
import type { PositionRecord } from '../common/types';
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
import { affectedDays, dayWindow, defaultTripConfig, tripsForDay } from '../trips/trips';
import type { LocationBatchMessage, NotificationOut, PipelineStore, StoredLocation } from './ports';
import { pipelineProcessed } from '../../metrics/metrics';

/**
 * The pipeline service: subscribes to stored location batches on the bus and runs the engines.
 *
 * Per batch (one device): the live sanity check flags bad fixes; accepted fixes newer than the device's
 * last one (optionally published as device-location, see `publishLive`) are fed in time order to the geofence tracker, the Salik
 * detector, the alert engine and the device's scheduled trip instances. Events are stored, alerts become
 * notifications per recipient in their language and are published at once. Trips and rollups are not
 * streamed: the device-days and vehicle-days a batch touches are marked dirty and recomputed from stored
 * records by `flush()` (debounced), which keeps them exact under late and out-of-order uploads.
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
   * Publish each accepted record as device-location / generic-device-location. Off by default because
   * the gateway already publishes every stored valid record the moment it is committed.
   */
  readonly publishLive?: boolean;
  /**
   * Keep each device's engine state (sanity reference, last processed fix, alert episodes, geofence
   * visits, Salik anchors) in the store (scale-out workers; see {@link PipelineService.saveStates}).
   */
  readonly persistState?: boolean;
}

/** What is persisted per device (JSON). */
interface DeviceState {
  readonly lastTime: number | null;
  readonly sanity: LiveSanityState;
  readonly vehicleUuid: string | null;
  readonly alerts?: VehicleAlertState;
  readonly geofence?: VehicleGeofenceState;
  readonly salik?: VehicleSalikState;
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
  private readonly dirtyTrips = new Map<string, { ref: DeviceRef; days: Set<string> }>();
  private readonly dirtyRollups = new Map<
    string,
    { companyUuid: string; vehicleUuid: string; deviceUuid: string; days: Set<string> }
  >();
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
    this.salik = new SalikDetector(opts.salik.gates, opts.salik.tariff, {
      linkWindowMinutes: opts.salik.overlay.link_window_minutes,
    });
  }

  /** Subscribes to stored location batches (queue group 'pipeline': one worker per batch). */
  start(): () => void {
    const unsubscribe = this.bus.subscribe<LocationBatchMessage>(
      'locations.>',
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
    return () => {
      unsubscribe();
      if (this.flushTimer) clearTimeout(this.flushTimer);
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
    this.markDirty(ref, records.map((r) => r.time).filter(Number.isFinite));
    if (this.opts.persistState) {
      const gap = await this.restoreDevice(rt, msg.deviceUuid, msg.vehicleUuid, records[0]?.time);
      if (gap.length) records = [...gap, ...records];
    }

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
      if (this.opts.publishLive) await this.publishLocation(msg, r0);
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
    deviceUuid: string,
    vehicleUuid: string | null,
    firstTime: number | undefined,
  ): Promise<PositionRecord[]> {
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
        const state: DeviceState = {
          lastTime: this.lastTime.get(deviceUuid) ?? null,
          sanity: this.sanity.get(deviceUuid) ?? initialLiveSanityState,
          vehicleUuid,
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

  private async publishLocation(msg: LocationBatchMessage, r: PositionRecord): Promise<void> {
    await publishRealtime(this.bus, {
      company_uuid: msg.companyUuid,
      event: msg.generic ? 'generic-device-location' : 'device-location',
      path: msg.vehicleUuid ?? msg.deviceUuid,
      vehicle_uuid: msg.vehicleUuid,
      data: {
        created_at: new Date(r.time).toISOString(),
        ignition: r.ignition === true ? 1 : 0,
        is_idle: r.ignition === true && r.speed < defaultTripConfig.movingSpeedKmh,
        latitude: r.lat,
        longitude: r.lon,
        speed: r.speed,
        heading: r.heading ?? null,
        io_elements: r.io ?? {},
        digital_output1: r.digitalOutput1 === 1 ? 1 : 0,
        digital_output2: r.digitalOutput2 === 1 ? 1 : 0,
        vehicle_uuid: msg.vehicleUuid,
      },
    });
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

  private markDirty(ref: DeviceRef, times: number[]): void {
    if (times.length === 0) return;
    const t = this.dirtyTrips.get(ref.deviceUuid) ?? { ref, days: new Set<string>() };
    for (const d of affectedDays(times, this.tz)) t.days.add(d);
    this.dirtyTrips.set(ref.deviceUuid, t);
    if (ref.vehicleUuid) {
      const key = `${ref.vehicleUuid}|${ref.deviceUuid}`;
      const r = this.dirtyRollups.get(key) ?? {
        companyUuid: ref.companyUuid,
        vehicleUuid: ref.vehicleUuid,
        deviceUuid: ref.deviceUuid,
        days: new Set<string>(),
      };
      for (const d of rollupAffectedDays(times, { ...defaultRollupOptionsFor(this.tz) })) r.days.add(d);
      this.dirtyRollups.set(key, r);
    }
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
    const trips = [...this.dirtyTrips.values()];
    this.dirtyTrips.clear();
    const rollups = [...this.dirtyRollups.values()];
    this.dirtyRollups.clear();
    const tripsOfDay = new Map<string, { startTime: number }[]>();
    for (const { ref, days } of trips) {
      for (const day of [...days].sort()) {
        const { from, to } = dayWindow(day, this.tz);
        const records = await this.store.readLocations(ref.deviceUuid, from, to);
        const det = tripsForDay(records, day, this.tz);
        await this.store.replaceDeviceDay(ref, day, det);
        tripsOfDay.set(`${ref.deviceUuid}|${day}`, det.trips);
      }
    }
    const opts = defaultRollupOptionsFor(this.tz);
    for (const r of rollups) {
      for (const day of [...r.days].sort()) {
        const { from, to } = rollupWindow(day, opts);
        const records = await this.store.readLocations(r.deviceUuid, from, to);
        let dayTrips = tripsOfDay.get(`${r.deviceUuid}|${day}`);
        if (!dayTrips) {
          const w = dayWindow(day, this.tz);
          dayTrips = tripsForDay(
            await this.store.readLocations(r.deviceUuid, w.from, w.to),
            day,
            this.tz,
          ).trips;
        }
        const violations = (await this.store.violationTimes(r.vehicleUuid, from, to)).map((time) => ({
          time,
        }));
        const computed = withCounts(
          computeDayRollups(r.vehicleUuid, records, day, opts),
          dayTrips,
          violations,
          opts,
        );
        await this.store.replaceRollups({ companyUuid: r.companyUuid, vehicleUuid: r.vehicleUuid }, computed);
      }
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
