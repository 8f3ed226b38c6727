import { patterns, subscribeOn, type Bus } from '../../realtime/bus';
import { publishRealtime } from '../../realtime/hub';
import { AlertEngine, type AlertRecord, type VehicleContext } from '../alerts/engine';
import { alertLocale, renderMessage } from '../../alerts/messages';
import type { PositionRecord } from '../common/types';
import { localDate } from '../common/zoned-time';
import { GeofenceTracker } from '../geofence/tracker';
import { SalikDetector } from '../salik/detector';
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
import type { LocationBatchMessage, NotificationOut, PipelineStore } from './ports';
import { IncrementalResults } from './incremental-results';
import { toPositionRecord } from './positions';
import { DeviceStateRecovery } from './recovery';
import type { CompanyRuntime, DeviceRef } from './runtime';
import { pipelineProcessed } from '../../metrics/metrics';

export { toPositionRecord } from './positions';

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
 *
 * The parts (issue 22): this file is the happy path (batch in, engines, events and notifications
 * out, clock work); incremental-results.ts keeps the trips and rollups (folds, flush, late-record
 * repair); recovery.ts is the cluster recovery of the per-device engine state (`persistState`);
 * positions.ts turns a stored location into an engine record.
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

export class PipelineService {
  private readonly store: PipelineStore;
  private readonly bus: Bus;
  private readonly tz: string;
  private readonly now: () => number;
  private readonly salik: SalikDetector;
  private readonly companies = new Map<string, Promise<CompanyRuntime>>();
  /**
   * Vehicles a batch named that the company's cached setup did not hold, and when the setup was read
   * again for them: at most once a minute per vehicle (one deleted meanwhile must not reload the
   * company on every batch).
   */
  private readonly unknownVehicles = new Map<string, number>();
  private readonly sanity = new Map<string, LiveSanityState>();
  private readonly lastTime = new Map<string, number>();
  /** Last known scheduled-trip instances (a view: the stored rows are the state, see tick()). */
  private readonly instances = new Map<string, TripInstance>();
  private readonly instanceDates = new Set<string>();
  /** Clock-lease epoch of the last tick per company (a new epoch = this node just took over). */
  private readonly clockEpochs = new Map<string, number>();
  /** Trips, stops, idling and rollups (incremental-results.ts). */
  private readonly results: IncrementalResults;
  /** persistState: the per-device engine state saved and put back across nodes (recovery.ts). */
  private readonly recovery: DeviceStateRecovery;

  constructor(private readonly opts: PipelineOptions) {
    this.store = opts.store;
    this.bus = opts.bus;
    this.tz = opts.timeZone ?? 'Asia/Dubai';
    this.now = opts.now ?? Date.now;
    this.salik = new SalikDetector(opts.salik.gates, opts.salik.tariff, {
      linkWindowMinutes: opts.salik.overlay.link_window_minutes,
    });
    this.results = new IncrementalResults({
      store: opts.store,
      tz: this.tz,
      now: this.now,
      flushDelayMs: opts.flushDelayMs,
      repairHorizonMs: opts.repairHorizonMs,
      repairIntervalMs: opts.repairIntervalMs,
      onError: opts.onError,
    });
    this.recovery = new DeviceStateRecovery(
      opts,
      opts.store,
      { sanity: this.sanity, lastTime: this.lastTime, salik: this.salik },
      this.results,
      (companyUuid) => this.company(companyUuid),
    );
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
          this.recovery.forget(msg.deviceUuid);
          this.opts.onError?.(err);
        }
      },
      { queue: 'pipeline' },
    );
    this.results.startRepairJob();
    return () => {
      unsubscribe();
      this.results.stop();
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
    let rt = await this.company(msg.companyUuid);
    if (msg.vehicleUuid && !rt.vehicles.has(msg.vehicleUuid)) {
      // A vehicle added since the setup was read (the minute's reload has not come yet): read it again
      // now, or its first alerts would name the vehicle by its uuid instead of its plate (seen in the
      // e2e run: "1a77aa6e-...: the driver pressed the emergency button.").
      const tried = this.unknownVehicles.get(msg.vehicleUuid);
      if (tried === undefined || this.now() - tried >= 60_000) {
        this.unknownVehicles.set(msg.vehicleUuid, this.now());
        this.reloadCompany(msg.companyUuid);
        rt = await this.company(msg.companyUuid);
      }
    } else if (msg.vehicleUuid && this.unknownVehicles.size > 0) this.unknownVehicles.delete(msg.vehicleUuid);
    const ref: DeviceRef = {
      companyUuid: msg.companyUuid,
      deviceUuid: msg.deviceUuid,
      vehicleUuid: msg.vehicleUuid,
    };
    let records = msg.records
      .map((s) => toPositionRecord(msg.deviceUuid, msg.vehicleUuid, s, this.now()))
      .sort((a, b) => a.time - b.time);
    if (this.opts.persistState) {
      const gap = await this.recovery.restoreDevice(rt, ref, records[0]?.time);
      if (gap.length) records = [...gap, ...records];
    }
    this.results.feedIncremental(ref, records);

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
    if (this.opts.persistState) this.recovery.processed(msg.deviceUuid, msg.companyUuid, vehicleUuid);
    this.results.scheduleFlush();
    return { alerts, notifications };
  }

  /**
   * persistState: reads the stored states of these devices that are not loaded yet, in one query
   * (the worker calls it with the devices of a read batch before announcing them).
   */
  prepareDevices(deviceUuids: readonly string[]): Promise<void> {
    return this.recovery.prepareDevices(deviceUuids);
  }

  /**
   * persistState: writes the state of every device processed since the last call (one statement).
   * The worker calls it after announcing a read batch and before acking it.
   */
  saveStates(): Promise<void> {
    return this.recovery.saveStates();
  }

  /**
   * persistState: forgets what this node holds of every device's state (the worker took over
   * partitions: their devices' state is read from the store on their next batch).
   */
  resetDeviceStates(): void {
    this.recovery.resetDeviceStates();
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

  /** Recomputes every dirty device-day (trips, stops, idling) and vehicle-day (rollups). */
  flush(): Promise<void> {
    return this.results.flush();
  }

  /**
   * Repairs a device's trips, stops, idling and rollups for records in [from, to] (device time): the
   * live folds that cover the range are rebuilt from the stored records, and the days no fold covers
   * are recomputed from the stored records by the batch functions. For anything that changes stored
   * records or how they are read after the fact (late uploads past the horizon, a changed sensor
   * setting of the device).
   */
  repair(deviceUuid: string, from: number, to: number): Promise<void> {
    return this.results.repair(deviceUuid, from, to);
  }

  /** Runs the queued background repairs (late records older than the horizon). */
  runRepairs(): Promise<number> {
    return this.results.runRepairs();
  }

  /**
   * Whether this node holds live folds of the device (it owns the device's records now): a repair run
   * elsewhere must reach it (gateway/sensor-repair.ts hands it over on the bus).
   */
  holdsDevice(deviceUuid: string): boolean {
    return this.results.holdsDevice(deviceUuid);
  }

  /** Queued background repairs (tests, metrics). */
  pendingRepairs(): number {
    return this.results.pendingRepairs();
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
