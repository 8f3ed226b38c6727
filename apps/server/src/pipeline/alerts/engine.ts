import { daysUntilExpiry, expiryReminderThreshold, reminderThresholds } from '@fleet/core';
import { IO, ioNumber } from '../common/io';
import { recordIgnition, recordOutput1, type PositionRecord } from '../common/types';
import { localDate, zonedParts } from '../common/zoned-time';
import type { GeofenceEvent } from '../geofence/tracker';
import type { SalikCrossing } from '../salik/detector';
import { alertMessagesAr, alertMessagesEn, type AlertMessageKey } from '../../alerts/messages';

/**
 * Alert rules engine for one company. Inputs: accepted positions, geofence events, Salik crossings,
 * scheduled-trip events, a periodic clock tick (offline / inactive) and a daily document check. Output:
 * alert records the server turns into Notifications (one per user allowed to see the vehicle), rendered
 * in each user's language from `titleKey` / `messageKey` / `params` (see messages.ts).
 *
 * De-duplication: position rules are edge-triggered episodes (one overspeed episode fires once, until
 * the speed has stayed `resetBelowKmh` under the limit for `endAfterS`) plus a per-rule cool-down. Every
 * alert carries a `dedupeKey` that is stable for its episode, so the server can insert notifications
 * idempotently and replays after a restart do not duplicate them.
 *
 * Episodes (overspeed, idling) are one event each, like Samsara's and Wialon's "violation intervals":
 * the alert goes out when the episode starts (after its minimum duration), and when the episode ends
 * the engine emits an `update` record with the same dedupe key carrying start, end, duration and peak;
 * the store rewrites that notification's text and value instead of adding one (nobody is notified
 * twice). Why the end needs a hold (`endAfterS`, 60 s by default) and not one record under the limit:
 * a driver slowing for a junction or a speed camera on one stretch of road and speeding again is one
 * episode; with the old single-record reset the demo's 44 vehicles gave ~50 unread alerts in 20 minutes.
 *
 * Quiet hours (per alert type, company time zone; a window may span midnight): an alert whose event
 * time falls inside raises nothing; the episode is still tracked, so it does not fire when the quiet
 * hours end (Wialon's notification "activity time").
 *
 * Decisions: ignored (insane) positions and positions older than the last processed one for the vehicle
 * never fire; the first ignition reading of a vehicle sets the baseline without an alert; power cut is
 * IO 252 (Teltonika "unplug") = 1 or external voltage IO 66 under the threshold.
 */

export const alertTypes = [
  'overspeed',
  'emergency_button',
  'violation_output',
  'ignition_on',
  'ignition_off',
  'device_unplugged',
  'low_battery',
  'geofence_entry',
  'geofence_exit',
  'salik_crossing',
  'device_offline',
  'vehicle_inactive',
  'document_expiry',
  'trip_delayed',
  'trip_missed',
  'bus_approaching',
  'idling',
] as const;

export type AlertType = (typeof alertTypes)[number];

export interface AlertRules {
  readonly overspeed?: {
    readonly enabled: boolean;
    /** Company limit; a vehicle's own `speedLimitKmh` wins. */
    readonly limitKmh: number;
    readonly resetBelowKmh?: number;
    /** Over the limit for at least this long before firing (default 0). */
    readonly minDurationS?: number;
    readonly cooldownS?: number;
    /** Under `limit - resetBelowKmh` at least this long ends the episode (default 60). */
    readonly endAfterS?: number;
  };
  /** Ignition on and standing (under 5 km/h) for at least `afterMinutes`: one alert per idle stretch. */
  readonly idling?: { readonly enabled: boolean; readonly afterMinutes: number };
  readonly emergency?: { readonly enabled: boolean; readonly cooldownS?: number };
  readonly violationOutput?: { readonly enabled: boolean; readonly cooldownS?: number };
  readonly ignition?: { readonly on: boolean; readonly off: boolean };
  readonly powerCut?: { readonly enabled: boolean; readonly minExternalVoltageMv?: number };
  readonly lowBattery?: {
    readonly enabled: boolean;
    readonly minLevelPct?: number;
    readonly minVoltageMv?: number;
  };
  readonly geofence?: { readonly entry: boolean; readonly exit: boolean };
  readonly salik?: { readonly enabled: boolean };
  readonly offline?: { readonly enabled: boolean; readonly afterMinutes: number };
  readonly inactive?: { readonly enabled: boolean; readonly afterDays?: number };
  readonly documentExpiry?: {
    readonly enabled: boolean;
    readonly daysAhead: number;
    /** Only these document kinds (absent or empty = all). */
    readonly kinds?: readonly DocumentKind[];
  };
  readonly scheduledTrip?: { readonly delayed: boolean; readonly missed: boolean };
  /**
   * Optional narrowing per alert type (from the notification rules): only these vehicles / geofences
   * (empty or absent = all), and only these recipients (absent = every user allowed to see the vehicle).
   */
  readonly scope?: Partial<
    Record<
      AlertType,
      {
        readonly vehicleIds?: readonly string[];
        readonly geofenceIds?: readonly string[];
        readonly recipientUserIds?: readonly string[];
        /** Minutes after local midnight; start > end spans midnight. */
        readonly quiet?: { readonly startMin: number; readonly endMin: number };
      }
    >
  >;
}

/** Under this speed (km/h) with the ignition on a vehicle idles (GPS drift of a parked car stays below). */
export const IDLE_SPEED_KMH = 5;

export interface VehicleContext {
  readonly vehicleId: string;
  /** license_plate_number (falls back to the vehicle id in messages) */
  readonly plate?: string;
  readonly speedLimitKmh?: number;
  readonly driverId?: string;
}

export interface AlertRecord {
  readonly type: AlertType;
  readonly companyId: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  /** The spec's violation value: the speed for overspeed, the fee for Salik, the reading otherwise. */
  readonly violationValue: number | null;
  /** ISO time of the device record (or event) that caused the alert. */
  readonly deviceCreatedAt: string;
  readonly titleKey: AlertMessageKey;
  readonly messageKey: AlertMessageKey;
  readonly params: Readonly<Record<string, string | number>>;
  readonly dedupeKey: string;
  /** Users named by the rule; absent = every user allowed to see the vehicle. */
  readonly recipientUserIds?: readonly string[];
  /**
   * The episode of an alert already sent (same dedupeKey) ended: the store rewrites that notification's
   * text, value and data with the episode's start, end and peak; nobody is notified again.
   */
  readonly update?: true;
  /** For bus_approaching: passengers whose guardians are to be told. */
  readonly passengerIds?: readonly string[];
  /** Extra references for navigation (geofence id, salik event id, trip instance id ...). */
  readonly data?: Readonly<Record<string, string | number>>;
}

export type DocumentKind =
  | 'vehicle_registration'
  | 'vehicle_insurance'
  | 'vehicle_license'
  | 'driver_license'
  | 'driver_national_id'
  | 'driver_residence_permit';

export interface ExpiringDocument {
  readonly kind: DocumentKind;
  readonly ownerId: string;
  /** plate or driver name */
  readonly ownerName: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  /** 'YYYY-MM-DD' */
  readonly expiresOn: string;
}

export interface ScheduledTripAlertEvent {
  readonly kind: 'delayed' | 'missed';
  readonly instanceId: string;
  readonly tripName: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  readonly time: number;
  readonly minutesLate?: number;
}

export interface VehicleAlertState {
  lastTime: number;
  overSince?: number;
  overActive: boolean;
  lastOverspeedAt?: number;
  emergencyActive: boolean;
  lastEmergencyAt?: number;
  outputActive: boolean;
  lastOutputAt?: number;
  ignition?: boolean;
  powerCut: boolean;
  lowBattery: boolean;
  /** Open overspeed episode: the alert's dedupe suffix (undefined when the cool-down held it back). */
  overKey?: string;
  overPeak?: number;
  overLimit?: number;
  /** First record back under limit - reset in the open episode. */
  underSince?: number;
  idleSince?: number;
  idleKey?: string;
}

const iso = (t: number) => new Date(t).toISOString();
export class AlertEngine {
  private readonly vehicles = new Map<string, VehicleAlertState>();
  /** Dedupe keys of clock-driven alerts already fired (offline, inactive, documents). */
  private readonly fired = new Set<string>();

  constructor(
    readonly companyId: string,
    private rules: AlertRules,
    private readonly timeZone = 'Asia/Dubai',
  ) {}

  setRules(rules: AlertRules): void {
    this.rules = rules;
  }

  /** Applies the rules' vehicle / geofence narrowing and attaches their recipients. */
  private scoped(list: AlertRecord[]): AlertRecord[] {
    const out: AlertRecord[] = [];
    for (const a of list) {
      const sc = this.rules.scope?.[a.type];
      if (!sc) {
        out.push(a);
        continue;
      }
      if (sc.vehicleIds?.length && (!a.vehicleId || !sc.vehicleIds.includes(a.vehicleId))) continue;
      const fence = a.data?.geofenceId;
      if (sc.geofenceIds?.length && (fence === undefined || !sc.geofenceIds.includes(String(fence))))
        continue;
      if (sc.quiet && !a.update && this.inQuietHours(Date.parse(a.deviceCreatedAt), sc.quiet)) continue;
      out.push(sc.recipientUserIds?.length ? { ...a, recipientUserIds: sc.recipientUserIds } : a);
    }
    return out;
  }

  private inQuietHours(time: number, q: { startMin: number; endMin: number }): boolean {
    if (!Number.isFinite(time)) return false;
    const p = zonedParts(time, this.timeZone);
    const m = p.hour * 60 + p.minute;
    return q.startMin <= q.endMin ? m >= q.startMin && m < q.endMin : m >= q.startMin || m < q.endMin;
  }

  private alert(
    type: AlertType,
    ctx: { vehicleId?: string; driverId?: string },
    time: number,
    violationValue: number | null,
    params: Record<string, string | number>,
    dedupeKey: string,
    messageKey?: AlertMessageKey,
  ): AlertRecord {
    return {
      type,
      companyId: this.companyId,
      ...(ctx.vehicleId ? { vehicleId: ctx.vehicleId } : {}),
      ...(ctx.driverId ? { driverId: ctx.driverId } : {}),
      violationValue,
      deviceCreatedAt: iso(time),
      titleKey: `alerts.${type}.title` as AlertMessageKey,
      messageKey: messageKey ?? (`alerts.${type}.message` as AlertMessageKey),
      params,
      dedupeKey: `${this.companyId}:${type}:${dedupeKey}`,
    };
  }

  /** Alerts caused by one position of a vehicle. */
  onPosition(ctx: VehicleContext, r: PositionRecord): AlertRecord[] {
    if (r.ignored) return [];
    const s = this.vehicles.get(ctx.vehicleId) ?? {
      lastTime: -Infinity,
      overActive: false,
      emergencyActive: false,
      outputActive: false,
      powerCut: false,
      lowBattery: false,
    };
    if (r.time < s.lastTime) return [];
    s.lastTime = r.time;
    this.vehicles.set(ctx.vehicleId, s);
    const out: AlertRecord[] = [];
    const plate = ctx.plate ?? ctx.vehicleId;
    const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
    const rules = this.rules;

    // Overspeed: one alert per episode (start after the minimum duration), cool-down between episodes,
    // an update with start, end and peak when the speed has stayed under limit - reset for endAfterS.
    const os = rules.overspeed;
    if (os?.enabled) {
      const limit = ctx.speedLimitKmh ?? os.limitKmh;
      const endAfterMs = (os.endAfterS ?? 60) * 1000;
      if (s.overActive && s.underSince !== undefined && r.time - s.underSince >= endAfterMs) {
        out.push(...this.endOverspeed(ctx, s));
      }
      if (r.speed > limit) {
        s.underSince = undefined;
        s.overSince ??= r.time;
        if (s.overActive) s.overPeak = Math.max(s.overPeak ?? r.speed, r.speed);
        const longEnough = r.time - s.overSince >= (os.minDurationS ?? 0) * 1000;
        const cooled =
          s.lastOverspeedAt === undefined || r.time - s.lastOverspeedAt >= (os.cooldownS ?? 300) * 1000;
        if (!s.overActive && longEnough) {
          s.overActive = true;
          s.overPeak = r.speed;
          s.overLimit = limit;
          s.overKey = undefined;
          if (cooled) {
            s.lastOverspeedAt = r.time;
            s.overKey = `${ctx.vehicleId}:${r.time}`;
            out.push(
              this.alert('overspeed', who, r.time, r.speed, { plate, speed: r.speed, limit }, s.overKey),
            );
          }
        }
      } else if (r.speed <= limit - (os.resetBelowKmh ?? 5)) {
        if (!s.overActive) s.overSince = undefined;
        else {
          s.underSince ??= r.time;
          if (r.time - s.underSince >= endAfterMs) out.push(...this.endOverspeed(ctx, s));
        }
      }
    }

    // Idling: ignition on and standing for afterMinutes; the stretch ends when the vehicle moves or the
    // ignition goes off (the ignition of a record without the reading is the last one known).
    const idleRule = rules.idling;
    if (idleRule?.enabled) {
      const ignNow = recordIgnition(r) ?? s.ignition;
      const idle = ignNow === true && r.speed < IDLE_SPEED_KMH;
      if (idle) {
        s.idleSince ??= r.time;
        if (s.idleKey === undefined && r.time - s.idleSince >= idleRule.afterMinutes * 60_000) {
          s.idleKey = `${ctx.vehicleId}:${s.idleSince}`;
          const minutes = Math.floor((r.time - s.idleSince) / 60_000);
          out.push(this.alert('idling', who, r.time, minutes, { plate, minutes }, s.idleKey));
        }
      } else if (s.idleSince !== undefined) {
        if (s.idleKey !== undefined) {
          const minutes = Math.round((r.time - s.idleSince) / 60_000);
          const params = { plate, minutes, start: iso(s.idleSince), end: iso(r.time) };
          out.push({
            ...this.alert('idling', who, s.idleSince, minutes, params, s.idleKey, 'alerts.idling.ended'),
            update: true,
            data: { episodeStart: iso(s.idleSince), episodeEnd: iso(r.time), peakValue: minutes },
          });
        }
        s.idleSince = undefined;
        s.idleKey = undefined;
      }
    }

    // Emergency button IO 251 = 1 (edge).
    const emergency = ioNumber(r.io, IO.emergencyButton);
    if (emergency !== undefined) {
      const on = emergency === 1;
      if (on && !s.emergencyActive && rules.emergency?.enabled) {
        const cooled =
          s.lastEmergencyAt === undefined ||
          r.time - s.lastEmergencyAt >= (rules.emergency.cooldownS ?? 60) * 1000;
        if (cooled) {
          s.lastEmergencyAt = r.time;
          out.push(this.alert('emergency_button', who, r.time, 1, { plate }, `${ctx.vehicleId}:${r.time}`));
        }
      }
      s.emergencyActive = on;
    }

    // Violation output digital_output1 = 1 (edge).
    const output = recordOutput1(r);
    if (output !== undefined) {
      const on = output === 1;
      if (on && !s.outputActive && rules.violationOutput?.enabled) {
        const cooled =
          s.lastOutputAt === undefined ||
          r.time - s.lastOutputAt >= (rules.violationOutput.cooldownS ?? 60) * 1000;
        if (cooled) {
          s.lastOutputAt = r.time;
          out.push(this.alert('violation_output', who, r.time, 1, { plate }, `${ctx.vehicleId}:${r.time}`));
        }
      }
      s.outputActive = on;
    }

    // Ignition transitions.
    const ign = recordIgnition(r);
    if (ign !== undefined) {
      if (s.ignition !== undefined && s.ignition !== ign) {
        if (ign && rules.ignition?.on)
          out.push(this.alert('ignition_on', who, r.time, null, { plate }, `${ctx.vehicleId}:${r.time}`));
        if (!ign && rules.ignition?.off)
          out.push(this.alert('ignition_off', who, r.time, null, { plate }, `${ctx.vehicleId}:${r.time}`));
      }
      s.ignition = ign;
    }

    // Power cut: unplug flag IO 252, or external voltage IO 66 below the threshold (mV).
    const unplug = ioNumber(r.io, 252);
    const ext = ioNumber(r.io, IO.externalVoltage);
    const minExt = rules.powerCut?.minExternalVoltageMv ?? 3000;
    let cut: boolean | undefined;
    if (unplug !== undefined) cut = unplug === 1;
    else if (ext !== undefined) cut = s.powerCut ? ext < minExt + 500 : ext < minExt;
    if (cut !== undefined) {
      if (cut && !s.powerCut && rules.powerCut?.enabled) {
        out.push(
          this.alert('device_unplugged', who, r.time, ext ?? null, { plate }, `${ctx.vehicleId}:${r.time}`),
        );
      }
      s.powerCut = cut;
    }

    // Low battery: level IO 113 (%) or battery voltage IO 67 (mV), with a small hysteresis.
    const level = ioNumber(r.io, IO.batteryLevel);
    const volts = ioNumber(r.io, IO.batteryVoltage);
    const minPct = rules.lowBattery?.minLevelPct ?? 20;
    const minMv = rules.lowBattery?.minVoltageMv ?? 3500;
    let low: boolean | undefined;
    let value = '';
    let reading: number | null = null;
    if (level !== undefined) {
      low = s.lowBattery ? level < minPct + 5 : level < minPct;
      value = `${level}%`;
      reading = level;
    } else if (volts !== undefined) {
      low = s.lowBattery ? volts < minMv + 200 : volts < minMv;
      value = `${(volts / 1000).toFixed(2)} V`;
      reading = volts;
    }
    if (low !== undefined) {
      if (low && !s.lowBattery && rules.lowBattery?.enabled) {
        out.push(
          this.alert('low_battery', who, r.time, reading, { plate, value }, `${ctx.vehicleId}:${r.time}`),
        );
      }
      s.lowBattery = low;
    }
    return this.scoped(out);
  }

  /** Closes the open overspeed episode; the update record when its alert was sent. */
  private endOverspeed(ctx: VehicleContext, s: VehicleAlertState): AlertRecord[] {
    const out: AlertRecord[] = [];
    if (s.overKey !== undefined && s.overSince !== undefined && s.underSince !== undefined) {
      const start = s.overSince;
      const end = s.underSince;
      const peak = s.overPeak ?? 0;
      const limit = s.overLimit ?? 0;
      const params = {
        plate: ctx.plate ?? ctx.vehicleId,
        speed: peak,
        limit,
        minutes: Math.max(1, Math.round((end - start) / 60_000)),
        start: iso(start),
        end: iso(end),
      };
      const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
      const a = this.alert('overspeed', who, start, peak, params, s.overKey, 'alerts.overspeed.episode');
      out.push({
        ...a,
        update: true,
        data: { episodeStart: iso(start), episodeEnd: iso(end), peakValue: peak },
      });
    }
    s.overActive = false;
    s.overSince = undefined;
    s.underSince = undefined;
    s.overKey = undefined;
    s.overPeak = undefined;
    s.overLimit = undefined;
    return out;
  }

  onGeofenceEvent(
    ctx: VehicleContext,
    e: GeofenceEvent,
    fence: { nameEn: string; nameAr?: string },
  ): AlertRecord[] {
    const enabled = e.kind === 'entry' ? this.rules.geofence?.entry : this.rules.geofence?.exit;
    if (!enabled) return [];
    const params: Record<string, string | number> = {
      plate: ctx.plate ?? ctx.vehicleId,
      geofence: fence.nameEn,
      geofence_ar: fence.nameAr ?? fence.nameEn,
    };
    if (e.kind === 'exit') params.dwell = Math.round((e.dwellS ?? 0) / 60);
    const type = e.kind === 'entry' ? 'geofence_entry' : 'geofence_exit';
    const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
    const alert = this.alert(type, who, e.time, null, params, `${ctx.vehicleId}:${e.geofenceId}:${e.time}`);
    return this.scoped([{ ...alert, data: { geofenceId: e.geofenceId } }]);
  }

  onSalikCrossing(ctx: VehicleContext, c: SalikCrossing): AlertRecord[] {
    if (!this.rules.salik?.enabled) return [];
    const params = {
      plate: ctx.plate ?? ctx.vehicleId,
      gate: c.gateNameEn,
      gate_ar: c.gateNameAr,
      fee: c.fee,
      currency: c.currency,
    };
    const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
    const alert = this.alert('salik_crossing', who, c.time, c.fee, params, c.id);
    return this.scoped([{ ...alert, data: { salikEventId: c.id, gate: c.gateCode } }]);
  }

  onScheduledTripEvent(e: ScheduledTripAlertEvent): AlertRecord[] {
    const rule = this.rules.scheduledTrip;
    const data = { tripInstanceId: e.instanceId };
    if (e.kind === 'delayed' && rule?.delayed) {
      const params = { trip: e.tripName, minutes: e.minutesLate ?? 0 };
      const alert = this.alert('trip_delayed', e, e.time, e.minutesLate ?? null, params, e.instanceId);
      return this.scoped([{ ...alert, data }]);
    }
    if (e.kind === 'missed' && rule?.missed) {
      return this.scoped([
        { ...this.alert('trip_missed', e, e.time, null, { trip: e.tripName }, e.instanceId), data },
      ]);
    }
    return [];
  }

  /** A scheduled trip's bus nears a stop: one alert for the guardians of the stop's passengers. */
  onNearingStop(
    ctx: VehicleContext,
    e: {
      instanceId: string;
      stopId: string;
      stopName: string;
      passengerIds: readonly string[];
      etaMinutes: number | null;
      time: number;
    },
  ): AlertRecord[] {
    if (e.passengerIds.length === 0) return [];
    const params = { plate: ctx.plate ?? ctx.vehicleId, minutes: e.etaMinutes ?? 1, stop: e.stopName };
    const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
    const alert = this.alert(
      'bus_approaching',
      who,
      e.time,
      e.etaMinutes,
      params,
      `${e.instanceId}:${e.stopId}`,
    );
    return [
      { ...alert, passengerIds: e.passengerIds, data: { tripInstanceId: e.instanceId, stopId: e.stopId } },
    ];
  }

  /**
   * Clock-driven rules: device offline longer than N minutes, vehicle inactive longer than N days
   * (default 30, the spec's inactive status). Fires once per silence (keyed by the last-seen time).
   */
  onTick(now: number, vehicles: readonly (VehicleContext & { lastSeen?: number })[]): AlertRecord[] {
    const out: AlertRecord[] = [];
    for (const v of vehicles) {
      if (v.lastSeen === undefined) continue;
      const silentMs = now - v.lastSeen;
      const who = { vehicleId: v.vehicleId, driverId: v.driverId };
      const off = this.rules.offline;
      if (off?.enabled && silentMs > off.afterMinutes * 60_000) {
        const key = `device_offline:${v.vehicleId}:${v.lastSeen}`;
        if (!this.fired.has(key)) {
          this.fired.add(key);
          out.push(
            this.alert(
              'device_offline',
              who,
              v.lastSeen,
              null,
              { plate: v.plate ?? v.vehicleId, minutes: Math.floor(silentMs / 60_000) },
              `${v.vehicleId}:${v.lastSeen}`,
            ),
          );
        }
      }
      const ina = this.rules.inactive;
      if (ina?.enabled && silentMs > (ina.afterDays ?? 30) * 86_400_000) {
        const key = `vehicle_inactive:${v.vehicleId}:${v.lastSeen}`;
        if (!this.fired.has(key)) {
          this.fired.add(key);
          out.push(
            this.alert(
              'vehicle_inactive',
              who,
              v.lastSeen,
              null,
              { plate: v.plate ?? v.vehicleId },
              `${v.vehicleId}:${v.lastSeen}`,
            ),
          );
        }
      }
    }
    return this.scoped(out);
  }

  /**
   * Document expiry reminders: 30, 7 and 1 days before and on the day (the first threshold is the
   * rule's `daysAhead`; see @fleet/core `expiryReminderThreshold`), once per document, expiry date and
   * threshold. The threshold is in the de-duplication key, so the daily check may run any number of
   * times, on any node, after any restart: each threshold reaches a recipient once (the stored
   * notifications are marked fired when a node takes the clock work over, and the database's unique
   * dedupe index stops a concurrent second insert). A renewed document (new expiry date) starts afresh.
   */
  onDocuments(now: number, documents: readonly ExpiringDocument[]): AlertRecord[] {
    const rule = this.rules.documentExpiry;
    if (!rule?.enabled) return [];
    const today = localDate(now, this.timeZone);
    const first = reminderThresholds(rule.daysAhead)[0]!;
    const out: AlertRecord[] = [];
    for (const d of documents) {
      if (rule.kinds?.length && !rule.kinds.includes(d.kind)) continue;
      // null: an unreadable or zero date (0001-01-01 is "no date" per the spec) has nothing to warn about
      const days = daysUntilExpiry(d.expiresOn, today);
      if (days === null) continue;
      const threshold = expiryReminderThreshold(days, rule.daysAhead);
      if (threshold === null) continue;
      const doc = `${d.ownerId}:${d.kind}:${d.expiresOn}`;
      const key = `document_expiry:${doc}:${threshold}`;
      if (this.fired.has(key)) continue;
      // Before the thresholds a document had one reminder keyed without one: that counts as the first.
      if (threshold === first && this.fired.has(`document_expiry:${doc}`)) continue;
      this.fired.add(key);
      out.push(
        this.alert(
          'document_expiry',
          { vehicleId: d.vehicleId, driverId: d.driverId },
          now,
          days,
          {
            document: alertMessagesEn[`documents.${d.kind}`],
            document_ar: alertMessagesAr[`documents.${d.kind}`],
            owner: d.ownerName,
            date: d.expiresOn,
            days,
            threshold,
          },
          `${doc}:${threshold}`,
          days < 0
            ? 'alerts.document_expiry.expired'
            : days === 0
              ? 'alerts.document_expiry.today'
              : days === 1
                ? 'alerts.document_expiry.tomorrow'
                : 'alerts.document_expiry.message',
        ),
      );
    }
    return this.scoped(out);
  }

  /** One vehicle's position-rule state (episodes, cool-downs, last readings), for persisting. */
  vehicleState(vehicleId: string): VehicleAlertState | undefined {
    return this.vehicles.get(vehicleId);
  }

  /** Puts a vehicle's persisted state back (undefined: the vehicle starts afresh). */
  setVehicleState(vehicleId: string, state: VehicleAlertState | undefined): void {
    if (!state) this.vehicles.delete(vehicleId);
    else this.vehicles.set(vehicleId, { ...state, lastTime: state.lastTime ?? -Infinity });
  }

  /**
   * Clock-driven alerts already fired (keys as in `snapshot().fired`, e.g. from the stored
   * notifications): a node taking the clock work over does not fire them again.
   */
  markFired(keys: Iterable<string>): void {
    for (const k of keys) this.fired.add(k);
  }

  snapshot(): { vehicles: Record<string, VehicleAlertState>; fired: string[] } {
    return { vehicles: Object.fromEntries(this.vehicles), fired: [...this.fired] };
  }

  restore(snap: { vehicles: Record<string, VehicleAlertState>; fired: string[] }): void {
    this.vehicles.clear();
    for (const [k, v] of Object.entries(snap.vehicles))
      this.vehicles.set(k, { ...v, lastTime: v.lastTime ?? -Infinity });
    this.fired.clear();
    for (const k of snap.fired) this.fired.add(k);
  }
}
