import type { LiveVehicle, LiveVehiclesResponse, LocationRecord } from '@fleet/api-client';
import { mergeLocation, vehicleStatus, type StatusTab, type VehicleStatus } from '@fleet/core';

/** A live update as it arrives on the socket (a location record naming its vehicle). */
export type LiveUpdate = Partial<LocationRecord> & { vehicle_uuid?: string | null };

/**
 * The cached live list with one vehicle's location merged by core's rule (old coordinates kept when
 * the new ones are empty); the same object when the vehicle is not in the list.
 */
export function applyLiveUpdate(
  cache: LiveVehiclesResponse | undefined,
  vehicleUuid: string,
  update: LiveUpdate,
): LiveVehiclesResponse | undefined {
  if (!cache) return cache;
  const index = cache.data.findIndex((v) => v.uuid === vehicleUuid);
  if (index < 0) return cache;
  const vehicle = cache.data[index] as LiveVehicle;
  const merged = mergeLocation<Partial<LocationRecord>>(vehicle.location, update);
  // A first update without a timestamp cannot be placed in time: keep what we had.
  if (!merged.created_at) return cache;
  const data = cache.data.slice();
  data[index] = { ...vehicle, location: merged as LocationRecord };
  return { ...cache, data };
}

/**
 * Applies many updates (one animation frame's worth) with one copy of the list. `onlyNewer` (updates
 * held during a resync, see resync.ts) skips an update whose time is before the cached location's.
 */
export function applyLiveUpdates(
  cache: LiveVehiclesResponse | undefined,
  updates: ReadonlyMap<string, LiveUpdate>,
  onlyNewer = false,
): LiveVehiclesResponse | undefined {
  if (!cache || updates.size === 0) return cache;
  let data: LiveVehicle[] | null = null;
  cache.data.forEach((vehicle, index) => {
    const update = updates.get(vehicle.uuid);
    if (!update) return;
    if (onlyNewer && isOlder(update.created_at, vehicle.location?.created_at)) return;
    const merged = mergeLocation<Partial<LocationRecord>>(vehicle.location, update);
    if (!merged.created_at) return;
    data ??= cache.data.slice();
    data[index] = { ...vehicle, location: merged as LocationRecord };
  });
  return data ? { ...cache, data } : cache;
}

function isOlder(update: string | null | undefined, cached: string | null | undefined): boolean {
  if (!update || !cached) return false;
  const a = Date.parse(update);
  const b = Date.parse(cached);
  return Number.isFinite(a) && Number.isFinite(b) && a < b;
}

export type StatusCounts = Record<StatusTab, number>;

/**
 * Live status of each vehicle and the tab counts (both core rules), recomputed from the merged cache
 * so that tabs follow live updates rather than the counts of the first answer.
 */
export function liveStatuses(
  vehicles: readonly LiveVehicle[],
  now: number,
): { statusOf: Map<string, VehicleStatus>; counts: StatusCounts } {
  const statusOf = new Map<string, VehicleStatus>();
  // Tallied from the statuses just computed (cached per location) instead of core's
  // vehicleStatusCounts, which would evaluate the rule again for all vehicles on every frame; the
  // test checks both give the same counts.
  const counts: StatusCounts = { all: 0, live: 0, idle: 0, offline: 0, inactive: 0, 'no-data': 0 };
  for (const vehicle of vehicles) {
    const status = statusAt(vehicle.location, now);
    statusOf.set(vehicle.uuid, status);
    counts.all += 1;
    counts[status] += 1;
  }
  return { statusOf, counts };
}

const statusCache = new WeakMap<object, { now: number; status: VehicleStatus }>();

/**
 * Core's vehicleStatus, remembered per location object and time: a live update replaces the location
 * object, so unchanged vehicles are not re-evaluated on every frame.
 */
export function statusAt(location: LocationRecord | null, now: number): VehicleStatus {
  if (!location) return vehicleStatus(location, now);
  const hit = statusCache.get(location);
  if (hit && hit.now === now) return hit.status;
  const status = vehicleStatus(location, now);
  statusCache.set(location, { now, status });
  return status;
}
