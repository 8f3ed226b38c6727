import { INACTIVE_AFTER_MS, LIVE_WITHIN_MS } from '../constants';
import { parseApiTime, toEpochMs } from '../format/parse-time';
import { translate } from '../i18n/translate';
import { isOn, type LatestLocationLike } from './location';

/** Live statuses in the order of the status tabs. */
export const vehicleStatuses = ['live', 'idle', 'offline', 'inactive', 'no-data'] as const;
export type VehicleStatus = (typeof vehicleStatuses)[number];

/** Status tabs of the live view: 'all' then every status. */
export const statusTabs = ['all', ...vehicleStatuses] as const;
export type StatusTab = (typeof statusTabs)[number];

/** Semantic tones shared with @fleet/ui (`data-tone`). */
export const statusTones = ['live', 'idle', 'offline', 'inactive', 'noData', 'neutral'] as const;
export type StatusTone = (typeof statusTones)[number];

const toneByStatus: Record<StatusTab, StatusTone> = {
  all: 'neutral',
  live: 'live',
  idle: 'idle',
  offline: 'offline',
  inactive: 'inactive',
  'no-data': 'noData',
};

/**
 * Live status of a vehicle from its latest location, in the spec's order:
 * 1. no record (or a record whose created_at is not a time) -> no-data;
 * 2. older than 30 days (strictly) -> inactive;
 * 3. idle with ignition off -> idle;
 * 4. newer than 60 minutes (strictly) with ignition 1 -> live;
 * 5. otherwise offline.
 * A record from the future (clock skew) counts as age 0.
 */
export function vehicleStatus(
  latest: LatestLocationLike | null | undefined,
  now: Date | number,
): VehicleStatus {
  if (!latest) return 'no-data';
  const createdAt = parseApiTime(latest.created_at);
  if (createdAt === null) return 'no-data';
  const age = Math.max(0, toEpochMs(now) - createdAt);
  if (age > INACTIVE_AFTER_MS) return 'inactive';
  const ignitionOn = isOn(latest.ignition);
  if (isOn(latest.is_idle) && !ignitionOn) return 'idle';
  if (age < LIVE_WITHIN_MS && ignitionOn) return 'live';
  return 'offline';
}

/** Status (or the 'all' tab) -> semantic tone. */
export function statusTone(status: VehicleStatus | 'all'): StatusTone {
  return toneByStatus[status];
}

/** A marker takes the violation colour when digital_output1 is 1 and the vehicle is not offline. */
export function isViolation(
  latest: Pick<LatestLocationLike, 'digital_output1'> | null | undefined,
  status: VehicleStatus,
): boolean {
  return isOn(latest?.digital_output1) && status !== 'offline';
}

/** Marker families: bus, motorcycle (also 'motor-bike'), everything else car. */
export const markerVehicleKinds = ['bus', 'motorcycle', 'car'] as const;
export type MarkerVehicleKind = (typeof markerVehicleKinds)[number];
export const markerVariants = [...vehicleStatuses, 'violation'] as const;
export type MarkerVariant = (typeof markerVariants)[number];
export type MarkerImage = `${MarkerVehicleKind}-${MarkerVariant}`;

/** Every marker image name, so the UI can check that it ships an asset for each one. */
export const markerImages: readonly MarkerImage[] = markerVehicleKinds.flatMap((kind) =>
  markerVariants.map((variant): MarkerImage => `${kind}-${variant}`),
);

/** Marker family of a vehicle type, case- and separator-insensitive. */
export function markerVehicleKind(type: string | null | undefined): MarkerVehicleKind {
  const normalized = (type ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  if (normalized === 'bus') return 'bus';
  if (normalized === 'motorcycle' || normalized === 'motorbike') return 'motorcycle';
  return 'car';
}

/**
 * Marker image name `{kind}-{variant}`: kind is bus | motorcycle | car, variant is the status
 * (live, idle, offline, inactive, no-data) or 'violation' when `violation` is true. Callers pass
 * `isViolation(latest, status)`, which is never true for an offline vehicle.
 */
export function markerImage(
  type: string | null | undefined,
  status: VehicleStatus,
  violation: boolean,
): MarkerImage {
  return `${markerVehicleKind(type)}-${violation ? 'violation' : status}`;
}

/** Trip statuses (spec section 4). */
export const tripStatuses = ['pending', 'started', 'completed', 'delayed', 'missed', 'cancelled'] as const;
export type TripStatus = (typeof tripStatuses)[number];
/** Entity statuses (spec section 4). */
export const entityStatuses = ['active', 'inactive', 'expired'] as const;
export type EntityStatus = (typeof entityStatuses)[number];
/** Vehicle status actions (spec section 4). */
export const vehicleStatusActions = ['activate', 'deactivate', 'maintenance'] as const;
export type VehicleStatusAction = (typeof vehicleStatusActions)[number];
/** Vehicle types of spec section 3. */
export const vehicleTypes = ['bus', 'car', 'truck', 'motorcycle', 'motor-bike'] as const;
export type VehicleType = (typeof vehicleTypes)[number];
/** Device types of spec section 3. */
export const deviceTypes = ['teltonika', 'ruptela', 'gosafe', 'door-technologies', 'istartek'] as const;
export type DeviceType = (typeof deviceTypes)[number];

/**
 * Vehicle count per status tab ('all' counts every vehicle), for the tab badges of the live view.
 * `latestOf` picks the latest location of an item (default: the item's `latest_location`).
 */
export function vehicleStatusCounts<T>(
  items: readonly T[],
  now: Date | number,
  latestOf: (item: T) => LatestLocationLike | null | undefined = (item) =>
    (item as { latest_location?: LatestLocationLike | null }).latest_location,
): Record<StatusTab, number> {
  const counts: Record<StatusTab, number> = {
    all: 0,
    live: 0,
    idle: 0,
    offline: 0,
    inactive: 0,
    'no-data': 0,
  };
  for (const item of items) {
    counts.all += 1;
    counts[vehicleStatus(latestOf(item), now)] += 1;
  }
  return counts;
}

/** The label of a status tab in a locale ('Live', 'مباشر', ...). */
export function statusLabel(tab: StatusTab, locale = 'en-US'): string {
  return translate(locale, `status.${tab}`);
}

/** 'Your vehicle has been inactive for over a month.' (shown for an inactive vehicle). */
export function inactiveMessage(locale = 'en-US'): string {
  return translate(locale, 'status.inactiveMessage');
}
