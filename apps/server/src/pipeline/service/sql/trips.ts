import type { Queryable } from '../../../storage/db';
import type { IdlePeriod, Stop, Trip, TripDetection } from '../../trips/trips';
import {
  diffByStart,
  writeChangedStops,
  writeChangedTrips,
  writeKnownStops,
  writeKnownTrips,
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
 * flush (results.ts): the stored rows end equal to these, but only the rows that changed are written.
 * A device-day this process wrote before (`batch`, the embedded server's memory of what it wrote) is
 * compared with that memory item by item and only the new, changed and vanished items are sent
 * ({@link diffByStart}); any other is sent whole and compared with the stored rows in the database
 * (incremental/write-changed.ts).
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
  // Compared in the database: device-days without a memory of them.
  const full = { del: { dev: [] as number[], day: [] as string[] }, trips: tripRows(), stops: stopRows() };
  // Known device-days: only what differs from the memory.
  const known = {
    tripsGone: { dev: [] as number[], day: [] as string[], start: [] as number[] },
    trips: tripRows(),
    stopsGone: { dev: [] as number[], day: [] as string[], kind: [] as string[], start: [] as number[] },
    stops: stopRows(),
  };
  for (const { ref, date, detection: det } of trips) {
    const dev = devices.get(ref.deviceUuid);
    if (!dev) throw new Error(`Unknown device ${ref.deviceUuid}`);
    const vehicleId = ref.vehicleUuid ? (vehicles.get(ref.vehicleUuid)?.id ?? null) : null;
    const row = { company: dev.company_id, vehicle: vehicleId, dev: dev.id, imei: dev.imei, date };
    const key = `${dev.id}|${date}`;
    const was = batch?.memo.days.get(key);
    const diff =
      was && was.company === row.company && was.vehicle === row.vehicle && was.imei === row.imei
        ? {
            trips: diffByStart(was.trips, det.trips, (a, b) => sameTrip(a, b, date, dev.imei)),
            stops: diffByStart(was.stops, det.stops, samePeriod),
            idles: diffByStart(was.idles, det.idles, samePeriod),
          }
        : null;
    if (diff?.trips && diff.stops && diff.idles) {
      for (const t of [...diff.trips.gone, ...diff.trips.changed]) {
        known.tripsGone.dev.push(dev.id);
        known.tripsGone.day.push(date);
        known.tripsGone.start.push(t.startTime);
      }
      for (const t of diff.trips.put) pushTrip(known.trips, row, t);
      for (const [kind, d] of [
        ['stop', diff.stops],
        ['idle', diff.idles],
      ] as const) {
        for (const p of d.gone) {
          known.stopsGone.dev.push(dev.id);
          known.stopsGone.day.push(date);
          known.stopsGone.kind.push(kind);
          known.stopsGone.start.push(p.startTime);
        }
        for (const p of d.put) pushPeriod(known.stops, row, kind, p);
      }
    } else {
      full.del.dev.push(dev.id);
      full.del.day.push(date);
      for (const t of det.trips) pushTrip(full.trips, row, t);
      for (const p of det.stops) pushPeriod(full.stops, row, 'stop', p);
      for (const p of det.idles) pushPeriod(full.stops, row, 'idle', p);
    }
    // Remembered only when its items are ordered by start (diffByStart cannot diff them otherwise).
    if (!batch) continue; // no memory to keep (worker role): the order check is not needed either
    const ordered = diff
      ? !!(diff.trips && diff.stops && diff.idles)
      : ([det.trips, det.stops, det.idles] as (readonly { startTime: number }[])[]).every(
          (xs) => diffByStart([], xs, () => true) !== null,
        );
    batch.stageDay(key, ordered ? { ...row, trips: det.trips, stops: det.stops, idles: det.idles } : null);
  }
  await writeKnownTrips(db, known.tripsGone, known.trips);
  await writeChangedTrips(db, full.del, full.trips);
  await writeKnownStops(db, known.stopsGone, known.stops);
  await writeChangedStops(db, full.del, full.stops);
}

interface RowRef {
  readonly company: number;
  readonly vehicle: number | null;
  readonly dev: number;
  readonly imei: string;
  readonly date: string;
}

const tripRows = () => ({
  company: [] as number[],
  vehicle: [] as (number | null)[],
  dev: [] as number[],
  start: [] as number[],
  end: [] as number[],
  dist: [] as number[],
  data: [] as string[],
});

const stopRows = (): StopRowArrays => ({
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
});

function pushTrip(ins: ReturnType<typeof tripRows>, row: RowRef, t: Trip): void {
  ins.company.push(row.company);
  ins.vehicle.push(row.vehicle);
  ins.dev.push(row.dev);
  ins.start.push(t.startTime);
  ins.end.push(t.endTime);
  ins.dist.push(t.distanceM);
  ins.data.push(tripRowJson(t, row.date, row.imei));
}

function pushPeriod(rows: StopRowArrays, row: RowRef, kind: 'stop' | 'idle', p: Stop | IdlePeriod): void {
  rows.company.push(row.company);
  rows.vehicle.push(row.vehicle);
  rows.dev.push(row.dev);
  rows.day.push(row.date);
  rows.kind.push(kind);
  rows.start.push(p.startTime);
  rows.end.push(p.endTime);
  rows.minutes.push(p.minutes);
  rows.lat.push(p.place.lat);
  rows.lon.push(p.place.lon);
}

/** Two trips with the same start give the same stored row (the columns, and `data` as text). */
const sameTrip = (a: Trip, b: Trip, date: string, imei: string) =>
  a.endTime === b.endTime &&
  a.distanceM === b.distanceM &&
  tripRowJson(a, date, imei) === tripRowJson(b, date, imei);

/** Two periods of one kind with the same start give the same stored row. */
const samePeriod = (a: Stop | IdlePeriod, b: Stop | IdlePeriod) =>
  a.endTime === b.endTime &&
  a.minutes === b.minutes &&
  a.place.lat === b.place.lat &&
  a.place.lon === b.place.lon;

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
