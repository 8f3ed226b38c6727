import type { GeofenceEvent } from '../geofence/tracker';
import type { SalikCrossing } from '../salik/detector';
import type { AlertFactory } from './delivery';
import type { AlertRecord, AlertRules, ScheduledTripAlertEvent, VehicleContext } from './types';

/**
 * Rules over events other parts of the pipeline detect (geofence entries and exits, Salik crossings,
 * scheduled trips running late or missed, a trip's bus nearing a stop). They keep no state: each event
 * is one alert at most, its dedupe key taken from the event. The engine scopes the result (delivery.ts).
 */

export function geofenceAlerts(
  rules: AlertRules,
  alert: AlertFactory,
  ctx: VehicleContext,
  e: GeofenceEvent,
  fence: { nameEn: string; nameAr?: string },
): AlertRecord[] {
  const enabled = e.kind === 'entry' ? rules.geofence?.entry : rules.geofence?.exit;
  if (!enabled) return [];
  const params: Record<string, string | number> = {
    plate: ctx.plate ?? ctx.vehicleId,
    geofence: fence.nameEn,
    geofence_ar: fence.nameAr ?? fence.nameEn,
  };
  if (e.kind === 'exit') params.dwell = Math.round((e.dwellS ?? 0) / 60);
  const type = e.kind === 'entry' ? 'geofence_entry' : 'geofence_exit';
  const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
  const a = alert(type, who, e.time, null, params, `${ctx.vehicleId}:${e.geofenceId}:${e.time}`);
  return [{ ...a, data: { geofenceId: e.geofenceId } }];
}

export function salikAlerts(
  rules: AlertRules,
  alert: AlertFactory,
  ctx: VehicleContext,
  c: SalikCrossing,
): AlertRecord[] {
  if (!rules.salik?.enabled) return [];
  const params = {
    plate: ctx.plate ?? ctx.vehicleId,
    gate: c.gateNameEn,
    gate_ar: c.gateNameAr,
    fee: c.fee,
    currency: c.currency,
  };
  const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
  const a = alert('salik_crossing', who, c.time, c.fee, params, c.id);
  return [{ ...a, data: { salikEventId: c.id, gate: c.gateCode } }];
}

export function scheduledTripAlerts(
  rules: AlertRules,
  alert: AlertFactory,
  e: ScheduledTripAlertEvent,
): AlertRecord[] {
  const rule = rules.scheduledTrip;
  const data = { tripInstanceId: e.instanceId };
  if (e.kind === 'delayed' && rule?.delayed) {
    const params = { trip: e.tripName, minutes: e.minutesLate ?? 0 };
    const a = alert('trip_delayed', e, e.time, e.minutesLate ?? null, params, e.instanceId);
    return [{ ...a, data }];
  }
  if (e.kind === 'missed' && rule?.missed) {
    return [{ ...alert('trip_missed', e, e.time, null, { trip: e.tripName }, e.instanceId), data }];
  }
  return [];
}

/** A scheduled trip's bus nearing a stop (guardians of the stop's passengers are told). */
export interface NearingStopEvent {
  instanceId: string;
  stopId: string;
  stopName: string;
  passengerIds: readonly string[];
  etaMinutes: number | null;
  time: number;
}

export function nearingStopAlerts(
  alert: AlertFactory,
  ctx: VehicleContext,
  e: NearingStopEvent,
): AlertRecord[] {
  if (e.passengerIds.length === 0) return [];
  const params = { plate: ctx.plate ?? ctx.vehicleId, minutes: e.etaMinutes ?? 1, stop: e.stopName };
  const who = { vehicleId: ctx.vehicleId, driverId: ctx.driverId };
  const a = alert('bus_approaching', who, e.time, e.etaMinutes, params, `${e.instanceId}:${e.stopId}`);
  return [{ ...a, passengerIds: e.passengerIds, data: { tripInstanceId: e.instanceId, stopId: e.stopId } }];
}
