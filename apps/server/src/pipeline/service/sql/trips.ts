import type { Queryable } from '../../../storage/db';
import type { TripDetection } from '../../trips/trips';
import { writeChangedTrips, type WriteBatch } from '../../incremental/write-changed';
import type { VehicleRow } from './results';

/** One device-day of trips, stops and idling to write. */
export interface TripDayWrite {
  readonly ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null };
  readonly date: string;
  readonly detection: TripDetection;
}

/**
 * Replaces the trips, stops and idling of these device-days, on the connection (transaction) of the
 * flush (results.ts): the stored rows end equal to these, but only the rows that changed are written
 * (incremental/write-changed.ts; `batch` is the embedded server's memory of what it wrote).
 *
 * device_trips rows hold trips only; the contract fields (deviceTripSchema) go in `data` with the
 * device-day they belong to (`data.day`), which is what a recompute replaces. Stops and idling periods
 * of the day are kept in `data.stops` / `data.idles` of that day's first trip row, so a day without a
 * trip has none stored (a device_stops table is the proper home; see the pipeline report).
 */
export async function writeTripDays(
  db: Queryable,
  trips: readonly TripDayWrite[],
  vehicles: ReadonlyMap<string, VehicleRow>,
  batch?: WriteBatch,
): Promise<void> {
  const deviceUuids = [...new Set(trips.map((t) => t.ref.deviceUuid))];
  const devices = new Map(
    (
      await db.query<{ id: number; uuid: string; imei: string; company_id: number }>(
        'SELECT id, uuid, imei, company_id FROM devices WHERE uuid = ANY($1::uuid[])',
        [deviceUuids],
      )
    ).map((d) => [d.uuid, d]),
  );
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
  const place = (p: { lat: number; lon: number }) => ({
    latitude: p.lat,
    longitude: p.lon,
    address: null,
  });
  for (const { ref, date, detection: det } of trips) {
    const dev = devices.get(ref.deviceUuid);
    if (!dev) throw new Error(`Unknown device ${ref.deviceUuid}`);
    const vehicleId = ref.vehicleUuid ? (vehicles.get(ref.vehicleUuid)?.id ?? null) : null;
    del.dev.push(dev.id);
    del.day.push(date);
    for (const [k, t] of det.trips.entries()) {
      const data = {
        day: date,
        device_imei: dev.imei,
        start_location: place(t.start),
        end_location: place(t.end),
        distance_km: Math.round(t.distanceM) / 1000,
        distance_source: t.distanceSource,
        duration_seconds: Math.round(t.durationS),
        max_speed: t.maxSpeedKmh,
        average_speed: t.avgSpeedKmh,
        idle_seconds: Math.round(t.idleS),
        fuel_used_litres: null,
        ...(k === 0 ? { stops: det.stops, idles: det.idles } : {}),
      };
      ins.company.push(dev.company_id);
      ins.vehicle.push(vehicleId);
      ins.dev.push(dev.id);
      ins.start.push(t.startTime);
      ins.end.push(t.endTime);
      ins.dist.push(t.distanceM);
      ins.data.push(JSON.stringify(data));
    }
  }
  // Only the rows that changed are written (incremental/write-changed.ts).
  await writeChangedTrips(db, del, ins, batch);
}
