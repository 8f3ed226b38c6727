/**
 * Turns a vehicle record with its latest location into what the canvas layer draws, using the
 * status rules of @fleet/core (live/idle/offline/inactive/no-data, violation, marker family), so the
 * portal does not re-implement them.
 */
import {
  isViolation,
  markerVehicleKind,
  statusTone,
  vehicleStatus,
  type LatestLocationLike,
  type VehicleStatus,
} from '@fleet/core';
import { isValidLatLng } from './projection';
import type { VehicleMarker } from './vehicle-index';

export interface VehicleLike {
  id: string;
  /** Vehicle type as stored (bus, car, truck, motorcycle, motor-bike ...). */
  type?: string | null;
  latest?: LatestLocationLike | null;
  /** Degrees clockwise from north, when known. */
  heading?: number | null;
  /** Plate or name for tooltips. */
  label?: string;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/**
 * The marker of a vehicle at `now`, with its status; null when the latest location has no usable
 * coordinates (such a vehicle cannot be placed on the map but still appears in the list). A caller that
 * has already computed the vehicle's status for this update (the portal's live view does, for its list
 * and tabs) hands it in as `status`, so the rule runs once per update; without it the rule runs here.
 */
export function toVehicleMarker(
  vehicle: VehicleLike,
  now: Date | number,
  known?: VehicleStatus,
): (VehicleMarker & { status: VehicleStatus }) | null {
  const lat = toNumber(vehicle.latest?.latitude);
  const lng = toNumber(vehicle.latest?.longitude);
  if (!isValidLatLng(lat, lng) || (lat === 0 && lng === 0)) return null;
  const status = known ?? vehicleStatus(vehicle.latest, now);
  return {
    id: vehicle.id,
    lat,
    lng,
    heading: vehicle.heading ?? null,
    kind: markerVehicleKind(vehicle.type),
    tone: statusTone(status),
    violation: isViolation(vehicle.latest, status),
    status,
    ...(vehicle.label !== undefined ? { label: vehicle.label } : {}),
  };
}
