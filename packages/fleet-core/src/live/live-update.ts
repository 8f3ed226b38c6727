import { ioElementValue } from '../io-elements/decode';
import { IO_EMERGENCY_BUTTON } from '../io-elements/catalogue';
import { featureFlags, hasFeature, type TransportCompanyLike } from '../permissions/permissions';
import type { LocationLike } from '../status/location';

/** A usable coordinate (finite number or numeric string), else null for empty/null/''/NaN. */
export function toCoordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Both coordinates usable and within the valid latitude/longitude ranges. */
export function hasCoordinates(
  location: Pick<LocationLike, 'latitude' | 'longitude'> | null | undefined,
): boolean {
  const lat = toCoordinate(location?.latitude);
  const lng = toCoordinate(location?.longitude);
  return lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

/**
 * Merges a live location update into the stored one: every field of the update wins, except that the
 * old latitude/longitude are kept when the new ones are empty (missing, null, '', NaN, not numeric).
 * The pair is taken or kept together, so a half-empty update never produces a mixed position.
 */
export function mergeLocation<T extends Partial<LocationLike>>(
  previous: T | null | undefined,
  update: Partial<T> & Partial<LocationLike>,
): T {
  const merged = { ...(previous ?? {}), ...update } as T;
  const newLat = toCoordinate(update.latitude);
  const newLng = toCoordinate(update.longitude);
  if ((newLat === null || newLng === null) && previous) {
    merged.latitude = previous.latitude;
    merged.longitude = previous.longitude;
  }
  return merged;
}

/** A stored vehicle with its latest location under `latest_location` (the field the list and map read). */
export interface VehicleWithLocation {
  latest_location?: Partial<LocationLike> | null;
}

/** Returns a new vehicle with the live update merged into its latest location. */
export function mergeVehicleLiveUpdate<V extends VehicleWithLocation>(
  vehicle: V,
  update: Partial<LocationLike>,
): V {
  return { ...vehicle, latest_location: mergeLocation(vehicle.latest_location, update) };
}

/**
 * The emergency alert shows when the update's IO 251 (emergency button) is 1 and the selected
 * company has emergency_driver_alert_enabled on.
 */
export function shouldShowEmergencyAlert(
  update: Pick<LocationLike, 'io_elements'> | null | undefined,
  company: TransportCompanyLike | null | undefined,
): boolean {
  const value = ioElementValue(update?.io_elements, IO_EMERGENCY_BUTTON);
  const pressed = value === 1 || value === true || value === '1';
  return pressed && hasFeature(company, featureFlags.emergencyDriverAlert);
}
