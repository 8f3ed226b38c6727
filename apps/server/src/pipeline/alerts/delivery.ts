import type { AlertMessageKey } from '../../alerts/messages';
import { zonedParts } from '../common/zoned-time';
import type { AlertRecord, AlertRules, AlertType } from './types';

/**
 * What turns a rule's decision into something delivered: the alert record (message keys, the
 * company-wide dedupe key, ISO time) and the rules' narrowing of who gets it and when (vehicles,
 * geofences, recipients, quiet hours). The rules themselves (position-rules.ts, event-rules.ts) only say
 * that an alert is due; a change to scoping or to the record's shape happens here.
 */

export const iso = (t: number): string => new Date(t).toISOString();

/** Who an alert is about (the driver is named when the vehicle has one). */
export interface AlertSubject {
  readonly vehicleId?: string;
  readonly driverId?: string;
}

/** Builds one alert record of a company; `dedupeKey` is the part stable for the alert's episode. */
export type AlertFactory = (
  type: AlertType,
  who: AlertSubject,
  time: number,
  violationValue: number | null,
  params: Record<string, string | number>,
  dedupeKey: string,
  messageKey?: AlertMessageKey,
) => AlertRecord;

export function alertFactory(companyId: string): AlertFactory {
  return (type, who, time, violationValue, params, dedupeKey, messageKey) => ({
    type,
    companyId,
    ...(who.vehicleId ? { vehicleId: who.vehicleId } : {}),
    ...(who.driverId ? { driverId: who.driverId } : {}),
    violationValue,
    deviceCreatedAt: iso(time),
    titleKey: `alerts.${type}.title` as AlertMessageKey,
    messageKey: messageKey ?? (`alerts.${type}.message` as AlertMessageKey),
    params,
    dedupeKey: `${companyId}:${type}:${dedupeKey}`,
  });
}

/**
 * Applies the rules' vehicle / geofence narrowing and quiet hours, and attaches their recipients. An
 * episode's closing update passes quiet hours: it rewrites a notification already sent.
 */
export function scopeAlerts(rules: AlertRules, timeZone: string, list: AlertRecord[]): AlertRecord[] {
  const out: AlertRecord[] = [];
  for (const a of list) {
    const sc = rules.scope?.[a.type];
    if (!sc) {
      out.push(a);
      continue;
    }
    if (sc.vehicleIds?.length && (!a.vehicleId || !sc.vehicleIds.includes(a.vehicleId))) continue;
    const fence = a.data?.geofenceId;
    if (sc.geofenceIds?.length && (fence === undefined || !sc.geofenceIds.includes(String(fence)))) continue;
    if (sc.quiet && !a.update && inQuietHours(Date.parse(a.deviceCreatedAt), sc.quiet, timeZone)) continue;
    out.push(sc.recipientUserIds?.length ? { ...a, recipientUserIds: sc.recipientUserIds } : a);
  }
  return out;
}

/** Whether a time falls in a quiet window (minutes after local midnight; start > end spans midnight). */
export function inQuietHours(
  time: number,
  q: { startMin: number; endMin: number },
  timeZone: string,
): boolean {
  if (!Number.isFinite(time)) return false;
  const p = zonedParts(time, timeZone);
  const m = p.hour * 60 + p.minute;
  return q.startMin <= q.endMin ? m >= q.startMin && m < q.endMin : m >= q.startMin || m < q.endMin;
}
