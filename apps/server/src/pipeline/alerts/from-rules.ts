import { parseClock } from '../common/zoned-time';
import type { AlertRules, AlertType, DocumentKind } from './engine';

/**
 * Builds the engine's rule set from a company's notification rules (the API contract's
 * NotificationRule: type, status, speed_limit, duration_minutes, days_ahead, threshold, documents,
 * geofence_uuids, vehicle_uuids, recipient_user_uuids). Only active rules count; when a company has
 * several active rules of one type, the first one (by the order given, e.g. creation) wins.
 */
export interface NotificationRuleLike {
  readonly type: string;
  readonly status: string;
  readonly speed_limit?: number | null;
  readonly duration_minutes?: number | null;
  readonly days_ahead?: number | null;
  readonly threshold?: number | null;
  readonly min_duration_seconds?: number | null;
  /** HH:mm:ss (or HH:mm) in the company's time zone. */
  readonly quiet_start?: string | null;
  readonly quiet_end?: string | null;
  readonly documents?: readonly string[];
  readonly geofence_uuids?: readonly string[];
  readonly vehicle_uuids?: readonly string[];
  readonly recipient_user_uuids?: readonly string[];
}

const RULE_TO_ALERT: Record<string, AlertType> = {
  overspeed: 'overspeed',
  emergency_button: 'emergency_button',
  violation_output: 'violation_output',
  ignition_on: 'ignition_on',
  ignition_off: 'ignition_off',
  device_unplugged: 'device_unplugged',
  low_battery: 'low_battery',
  geofence_entry: 'geofence_entry',
  geofence_exit: 'geofence_exit',
  salik_crossing: 'salik_crossing',
  device_offline: 'device_offline',
  vehicle_inactive: 'vehicle_inactive',
  document_expiry: 'document_expiry',
  trip_delayed: 'trip_delayed',
  trip_missed: 'trip_missed',
  idling: 'idling',
};

/** 'HH:mm[:ss]' as minutes after midnight; undefined when absent or unreadable. */
function clockMinutes(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  try {
    return parseClock(value.slice(0, 5));
  } catch {
    return undefined;
  }
}

export function alertRulesFrom(rules: readonly NotificationRuleLike[]): AlertRules {
  const first = new Map<AlertType, NotificationRuleLike>();
  for (const r of rules) {
    const type = RULE_TO_ALERT[r.type];
    if (!type || r.status !== 'active' || first.has(type)) continue;
    first.set(type, r);
  }
  const has = (t: AlertType) => first.has(t);
  const get = (t: AlertType) => first.get(t);
  const out: {
    -readonly [K in keyof AlertRules]: AlertRules[K];
  } = {};
  const over = get('overspeed');
  // speed_limit null = each vehicle's own limit only.
  if (over)
    out.overspeed = {
      enabled: true,
      limitKmh: over.speed_limit ?? Number.POSITIVE_INFINITY,
      ...(over.min_duration_seconds ? { minDurationS: over.min_duration_seconds } : {}),
    };
  const idling = get('idling');
  if (idling) out.idling = { enabled: true, afterMinutes: idling.duration_minutes ?? 10 };
  if (has('emergency_button')) out.emergency = { enabled: true };
  if (has('violation_output')) out.violationOutput = { enabled: true };
  if (has('ignition_on') || has('ignition_off'))
    out.ignition = { on: has('ignition_on'), off: has('ignition_off') };
  if (has('device_unplugged')) out.powerCut = { enabled: true };
  const battery = get('low_battery');
  if (battery)
    out.lowBattery = {
      enabled: true,
      ...(battery.threshold != null ? { minLevelPct: battery.threshold } : {}),
    };
  if (has('geofence_entry') || has('geofence_exit'))
    out.geofence = { entry: has('geofence_entry'), exit: has('geofence_exit') };
  if (has('salik_crossing')) out.salik = { enabled: true };
  const offline = get('device_offline');
  if (offline) out.offline = { enabled: true, afterMinutes: offline.duration_minutes ?? 60 };
  if (has('vehicle_inactive')) out.inactive = { enabled: true };
  const docs = get('document_expiry');
  if (docs) {
    out.documentExpiry = {
      enabled: true,
      daysAhead: docs.days_ahead ?? 30,
      kinds: (docs.documents ?? []) as DocumentKind[],
    };
  }
  if (has('trip_delayed') || has('trip_missed'))
    out.scheduledTrip = { delayed: has('trip_delayed'), missed: has('trip_missed') };
  const scope: NonNullable<AlertRules['scope']> = {};
  for (const [type, r] of first) {
    const vehicleIds = r.vehicle_uuids ?? [];
    const geofenceIds = r.geofence_uuids ?? [];
    const recipientUserIds = r.recipient_user_uuids ?? [];
    const startMin = clockMinutes(r.quiet_start);
    const endMin = clockMinutes(r.quiet_end);
    const quiet = startMin !== undefined && endMin !== undefined && startMin !== endMin;
    if (vehicleIds.length || geofenceIds.length || recipientUserIds.length || quiet) {
      scope[type] = {
        vehicleIds,
        geofenceIds,
        recipientUserIds,
        ...(quiet ? { quiet: { startMin, endMin } } : {}),
      };
    }
  }
  if (Object.keys(scope).length) out.scope = scope;
  return out;
}
