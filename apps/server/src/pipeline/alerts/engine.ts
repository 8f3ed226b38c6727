import type { GeofenceEvent } from '../geofence/tracker';
import type { SalikCrossing } from '../salik/detector';
import type { PositionRecord } from '../common/types';
import { documentAlerts, silenceAlerts } from './clock-rules';
import { alertFactory, scopeAlerts, type AlertFactory } from './delivery';
import {
  geofenceAlerts,
  nearingStopAlerts,
  salikAlerts,
  scheduledTripAlerts,
  type NearingStopEvent,
} from './event-rules';
import { applyPositionRules, newVehicleAlertState } from './position-rules';
import type {
  AlertRecord,
  AlertRules,
  ExpiringDocument,
  ScheduledTripAlertEvent,
  VehicleAlertState,
  VehicleContext,
} from './types';

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
 *
 * Layout: this class holds the company's rules and its de-duplication state (each vehicle's episode
 * state, the fired keys of the clock rules) and how that state is persisted and taken over; the rules
 * are in position-rules.ts (one function per alert kind), event-rules.ts and clock-rules.ts; the
 * alert record and the scoping of who gets it and when are in delivery.ts; the vocabulary in types.ts.
 */

export * from './types';

export class AlertEngine {
  private readonly vehicles = new Map<string, VehicleAlertState>();
  /** Dedupe keys of clock-driven alerts already fired (offline, inactive, documents). */
  private readonly fired = new Set<string>();
  private readonly alert: AlertFactory;

  constructor(
    readonly companyId: string,
    private rules: AlertRules,
    private readonly timeZone = 'Asia/Dubai',
  ) {
    this.alert = alertFactory(companyId);
  }

  setRules(rules: AlertRules): void {
    this.rules = rules;
  }

  /** Applies the rules' vehicle / geofence narrowing and quiet hours and attaches their recipients. */
  private scoped(list: AlertRecord[]): AlertRecord[] {
    return scopeAlerts(this.rules, this.timeZone, list);
  }

  /** Alerts caused by one position of a vehicle. */
  onPosition(ctx: VehicleContext, r: PositionRecord): AlertRecord[] {
    if (r.ignored) return [];
    const s = this.vehicles.get(ctx.vehicleId) ?? newVehicleAlertState();
    if (r.time < s.lastTime) return [];
    s.lastTime = r.time;
    this.vehicles.set(ctx.vehicleId, s);
    const input = {
      ctx,
      r,
      s,
      rules: this.rules,
      alert: this.alert,
      who: { vehicleId: ctx.vehicleId, driverId: ctx.driverId },
      plate: ctx.plate ?? ctx.vehicleId,
    };
    const out: AlertRecord[] = [];
    applyPositionRules(input, out);
    return this.scoped(out);
  }

  onGeofenceEvent(
    ctx: VehicleContext,
    e: GeofenceEvent,
    fence: { nameEn: string; nameAr?: string },
  ): AlertRecord[] {
    return this.scoped(geofenceAlerts(this.rules, this.alert, ctx, e, fence));
  }

  onSalikCrossing(ctx: VehicleContext, c: SalikCrossing): AlertRecord[] {
    return this.scoped(salikAlerts(this.rules, this.alert, ctx, c));
  }

  onScheduledTripEvent(e: ScheduledTripAlertEvent): AlertRecord[] {
    return this.scoped(scheduledTripAlerts(this.rules, this.alert, e));
  }

  /**
   * A scheduled trip's bus nears a stop: one alert for the guardians of the stop's passengers (not
   * narrowed by the rules' scope, as before the split).
   */
  onNearingStop(ctx: VehicleContext, e: NearingStopEvent): AlertRecord[] {
    return nearingStopAlerts(this.alert, ctx, e);
  }

  /** Clock-driven rules: device offline, vehicle inactive (see clock-rules.ts). */
  onTick(now: number, vehicles: readonly (VehicleContext & { lastSeen?: number })[]): AlertRecord[] {
    return this.scoped(silenceAlerts(this.rules, this.alert, this.fired, now, vehicles));
  }

  /** Document expiry reminders, once per document, expiry date and threshold (see clock-rules.ts). */
  onDocuments(now: number, documents: readonly ExpiringDocument[]): AlertRecord[] {
    return this.scoped(documentAlerts(this.rules, this.alert, this.fired, this.timeZone, now, documents));
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
