import type { Queryable } from '../../../storage/db';
import type { Trip, TripDetection } from '../../trips/trips';
import {
  writeChangedStops,
  writeChangedTrips,
  type StopRowArrays,
  type WriteBatch,
} from '../../incremental/write-changed';
import type { VehicleRow } from './results';

/** One device-day of trips, stops and idling to write. */
export interface TripDayWrite {
  readonly ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null };
  readonly date: string;
  readonly detection: TripDetection;
}

/** The device rows a flush of trips needs, by device uuid ({@link tripDevices}). */
export interface DeviceRow {
  readonly id: number;
  readonly uuid: string;
  readonly imei: string;
  readonly company_id: number;
}

/** The device rows of these device-days (read before the writes: they only write). */
export async function tripDevices(
  db: Queryable,
  trips: readonly TripDayWrite[],
): Promise<Map<string, DeviceRow>> {
  const deviceUuids = [...new Set(trips.map((t) => t.ref.deviceUuid))];
  if (deviceUuids.length === 0) return new Map();
  const rows = await db.query<DeviceRow>(
    'SELECT id, uuid, imei, company_id FROM devices WHERE uuid = ANY($1::uuid[])',
    [deviceUuids],
  );
  return new Map(rows.map((d) => [d.uuid, d]));
}

/**
 * Replaces the trips, stops and idling of these device-days, on the connection (transaction) of the
 * flush (results.ts): the stored rows end equal to these, but only the rows that changed are written
 * (incremental/write-changed.ts; `batch` is the embedded server's memory of what it wrote).
 *
 * device_trips rows hold trips only; the contract fields (deviceTripSchema) go in `data` with the
 * device-day they belong to (`data.day`), which is what a recompute replaces. Stops and idling periods
 * are rows of device_stops (migration 0030), one per period with the same device-day: the open idle
 * period of an idling vehicle changes at every flush and is one short row updated in place. They were
 * JSON arrays in the day's first trip row, which was rewritten with the whole day's periods at every
 * flush while a vehicle idled (the trip INSERT's time grew 7x over bench:soak's day).
 */
export async function writeTripDays(
  db: Queryable,
  trips: readonly TripDayWrite[],
  vehicles: ReadonlyMap<string, VehicleRow>,
  devices: ReadonlyMap<string, DeviceRow>,
  batch?: WriteBatch,
): Promise<void> {
  const del = { dev: [] as number[], day: [] as string[] };
  const ins = {
    company: [] as number[],
    vehicle: [] as (number | null)[],
    dev: [] as number[],
    start: [] as number[],
    end: [] as number[],
    dist: [] as number[],
    data: [] as string[],
  };
  const stops: StopRowArrays = {
    company: [],
    vehicle: [],
    dev: [],
    day: [],
    kind: [],
    start: [],
    end: [],
    minutes: [],
    lat: [],
    lon: [],
  };
  for (const { ref, date, detection: det } of trips) {
    const dev = devices.get(ref.deviceUuid);
    if (!dev) throw new Error(`Unknown device ${ref.deviceUuid}`);
    const vehicleId = ref.vehicleUuid ? (vehicles.get(ref.vehicleUuid)?.id ?? null) : null;
    del.dev.push(dev.id);
    del.day.push(date);
    for (const [kind, periods] of [
      ['stop', det.stops],
      ['idle', det.idles],
    ] as const) {
      for (const p of periods) {
        stops.company.push(dev.company_id);
        stops.vehicle.push(vehicleId);
        stops.dev.push(dev.id);
        stops.day.push(date);
        stops.kind.push(kind);
        stops.start.push(p.startTime);
        stops.end.push(p.endTime);
        stops.minutes.push(p.minutes);
        stops.lat.push(p.place.lat);
        stops.lon.push(p.place.lon);
      }
    }
    for (const t of det.trips) {
      const json = tripRowJson(t, date, dev.imei);
      ins.company.push(dev.company_id);
      ins.vehicle.push(vehicleId);
      ins.dev.push(dev.id);
      ins.start.push(t.startTime);
      ins.end.push(t.endTime);
      ins.dist.push(t.distanceM);
      ins.data.push(json);
    }
  }
  // Only the rows that changed are written (incremental/write-changed.ts).
  await writeChangedTrips(db, del, ins, batch);
  await writeChangedStops(db, del, stops, batch);
}

/**
 * JSON of a trip row's fields, cached per trip: a flush sends the whole day of every device that
 * moved, and the closed trips of the day are the same objects flush after flush (the folds never
 * change them; incremental/trip-fold.ts), so only the open trip and what closed since are
 * stringified. Without it the text built per flush grew with the day's trips: part of the cost per
 * record that rose through bench:soak's day.
 */
const tripJsonCache = new WeakMap<Trip, { date: string; imei: string; json: string }>();

const place = (p: { lat: number; lon: number }) => ({ latitude: p.lat, longitude: p.lon, address: null });

/** The `data` of a trip row: the contract fields with the device-day. */
export function tripRowJson(t: Trip, date: string, imei: string): string {
  const hit = tripJsonCache.get(t);
  if (hit && hit.date === date && hit.imei === imei) return hit.json;
  const json = JSON.stringify({
    day: date,
    device_imei: imei,
    start_location: place(t.start),
    end_location: place(t.end),
    distance_km: Math.round(t.distanceM) / 1000,
    distance_source: t.distanceSource,
    duration_seconds: Math.round(t.durationS),
    max_speed: t.maxSpeedKmh,
    average_speed: t.avgSpeedKmh,
    idle_seconds: Math.round(t.idleS),
    fuel_used_litres: null,
  });
  tripJsonCache.set(t, { date, imei, json });
  return json;
}
