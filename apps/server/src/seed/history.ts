import type { Storage, LocationInput } from '../storage/storage';
import { InProcessBus } from '../realtime/bus';
import { PipelineService } from '../pipeline/service/service';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import type { StoredLocation } from '../pipeline/service/ports';
import { loadSalik, type LoadedSalik } from '../pipeline/salik/load';
import { bearingDeg, destination, haversineM } from '../pipeline/common/geo';
import { prng } from '../pipeline/common/fixtures';
import { addDays, dayStartOf, localDate, weekdayOf } from '../pipeline/common/zoned-time';

/**
 * A month of demo history (issue 15), produced by the product's own pipeline.
 *
 * The seed writes no result rows. It scripts what the demo vehicles did over the last `days` days
 * (school runs and deliveries on working days, Friday and Saturday off as in the UAE, parking,
 * idling, refuels, a few fuel drops at night, highway legs through Salik gates, an occasional late
 * or missed school run) as raw tracker records, stores them in `locations` the way the gateway does
 * (`Storage.insertLocations`) and hands them, in time order, to a `PipelineService` whose clock is
 * the simulated time: trips, stops, idling, rollups, fuel events, geofence visits, Salik crossings
 * (charged by the tariff of their date and hour), overspeed and document-expiry notifications and
 * the scheduled-trip instances with their statuses all come out of the pipeline's folds and engines,
 * exactly as they would have live.
 *
 * Time is walked in slices (15 minutes between 05:00 and 18:00 local, one hour otherwise); each
 * slice stores the records of every vehicle in one multi-row insert, gives each device its batch,
 * then runs the clock work (`tick`) of each company at the slice's end, so scheduled trips go
 * delayed / missed on time. The folds are flushed once per simulated day.
 *
 * Deterministic (seeded PRNG per vehicle) apart from "now": the history ends at the start of the
 * current 15 minutes, so the live simulator goes on from there.
 *
 * Record rates (kept low so the first start stays under a minute on 2 cores): every 30 s while
 * driving, every 60 s while idling, one heartbeat every 4 hours while parked (trackers asleep with
 * the ignition off report that rarely). Each record that starts a new hour makes the incremental
 * pipeline snapshot the device's folds, which is most of the CPU time of the history.
 */

export interface HistoryOptions {
  days?: number;
  /** End of the history (default: now, rounded down to 15 minutes). */
  now?: number;
  timeZone?: string;
  salik?: LoadedSalik;
  log?: (line: string) => void;
}

export interface HistoryResult {
  records: number;
  vehicles: number;
  days: number;
  ms: number;
}

const DRIVE_STEP_S = 30;
const IDLE_STEP_S = 60;
const PARK_STEP_S = 4 * 3600;

interface Rec {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  ign: boolean;
  fuelL: number;
  odoM: number;
}

interface Place {
  lat: number;
  lon: number;
}

/** Vehicle as the history needs it. */
interface HistVehicle {
  idx: number;
  companyId: number;
  companyUuid: string;
  vehicleId: number;
  vehicleUuid: string;
  deviceId: number;
  deviceUuid: string;
  type: string;
  tank: number;
  per100: number;
  maxKmh: number;
  depot: Place;
  school: Place | null;
  /** Scheduled trip of the vehicle: stops in order and departure/return clock minutes. */
  trip: { stops: Place[]; departMin: number; returnMin: number } | null;
}

/** The scripted track of one vehicle; carries position, odometer and fuel from day to day. */
class Track {
  out: Rec[] = [];
  t: number;
  lat: number;
  lon: number;
  fuelL: number;
  odoM: number;
  private course = 0;

  constructor(
    readonly v: HistVehicle,
    start: number,
    private readonly rand: () => number,
  ) {
    this.t = start;
    this.lat = v.depot.lat;
    this.lon = v.depot.lon;
    this.fuelL = v.tank * (0.55 + 0.35 * rand());
    this.odoM = 20_000_000 + v.idx * 1_733_000;
  }

  private push(speed: number, ign: boolean): void {
    const prev = this.out[this.out.length - 1];
    if (prev && prev.t >= this.t) this.t = prev.t + 5_000; // one record per fix time
    this.out.push({
      t: this.t,
      lat: Number(this.lat.toFixed(6)),
      lon: Number(this.lon.toFixed(6)),
      speed: Math.round(speed),
      course: Math.round(this.course),
      ign,
      fuelL: this.fuelL,
      odoM: Math.round(this.odoM),
    });
  }

  /** Parked with the ignition off until `until` (a heartbeat every hour). */
  parkUntil(until: number): this {
    if (until <= this.t) return this;
    this.push(0, false);
    let next = this.t + PARK_STEP_S * 1000;
    while (next < until) {
      this.t = next;
      this.push(0, false);
      next += PARK_STEP_S * 1000;
    }
    this.t = until;
    return this;
  }

  /** Engine running, standing still, for `seconds`. */
  idle(seconds: number): this {
    for (let s = 0; s < seconds; s += IDLE_STEP_S) {
      this.push(0, true);
      this.t += IDLE_STEP_S * 1000;
      this.fuelL = Math.max(0, this.fuelL - (this.v.per100 / 100) * 0.012 * IDLE_STEP_S);
    }
    return this;
  }

  /** Drives in a straight line to `to` at about `kmh`. */
  driveTo(to: Place, kmh: number): this {
    this.push(0, true);
    this.t += 20_000;
    let left = haversineM(this.lat, this.lon, to.lat, to.lon);
    while (left > 1) {
      const v = Math.min(this.v.maxKmh + 25, Math.max(12, kmh * (0.85 + 0.3 * this.rand())));
      const step = Math.min(left, (v / 3.6) * DRIVE_STEP_S);
      this.course = bearingDeg(this.lat, this.lon, to.lat, to.lon);
      const p = destination(this.lat, this.lon, this.course, step);
      this.lat = p.lat;
      this.lon = p.lon;
      left -= step;
      this.odoM += step;
      this.fuelL = Math.max(0, this.fuelL - (this.v.per100 * step) / 100_000);
      this.t += (step / (v / 3.6)) * 1000;
      this.t = Math.round(this.t / 1000) * 1000;
      this.push(left > 1 ? v : 3, true);
    }
    this.lat = to.lat;
    this.lon = to.lon;
    return this;
  }

  /** Ignition off at a pump: the level rises over a few records. */
  refuel(litres: number): this {
    this.push(0, false);
    for (let i = 0; i < 4; i++) {
      this.t += 90_000;
      this.fuelL = Math.min(this.v.tank, this.fuelL + litres / 4);
      this.push(0, false);
    }
    this.t += 60_000;
    return this;
  }

  /** A sudden loss while parked (siphoning or a leak): what the fuel-drop report exists for. */
  drop(litres: number): this {
    this.push(0, false);
    for (let i = 0; i < 3; i++) {
      this.t += 120_000;
      this.fuelL = Math.max(0, this.fuelL - litres / 3);
      this.push(0, false);
    }
    return this;
  }

  at(dayStart: number, minutes: number): number {
    return dayStart + Math.round(minutes * 60_000);
  }
}

const near = (p: Place, dLat: number, dLon: number): Place => ({ lat: p.lat + dLat, lon: p.lon + dLon });

/**
 * One local day of a vehicle. `workday` = Sunday-Thursday. The school runs follow the scheduled trip
 * of the vehicle when it has one; deliveries visit customers around the depot, some through a Salik
 * gate on the highway.
 */
function scriptDay(
  tr: Track,
  v: HistVehicle,
  date: string,
  dayStart: number,
  dayIndex: number,
  rand: () => number,
  gates: readonly { lat: number; lon: number; bearing: number }[],
): void {
  const wd = weekdayOf(date);
  const workday = wd !== 5 && wd !== 6;
  const jitter = (m: number) => (rand() - 0.5) * 2 * m;
  // A day in the workshop now and then (a school run of that day is missed).
  const workshop = (v.idx * 7 + dayIndex * 3) % 41 === 0;
  if (!workday || workshop) {
    if (!workday && (v.type === 'car' || v.type === 'truck') && rand() < 0.3) {
      tr.parkUntil(tr.at(dayStart, 10 * 60 + jitter(60)));
      const shop = near(v.depot, 0.02 + rand() * 0.02, -0.01 - rand() * 0.02);
      tr.driveTo(shop, 45).parkUntil(tr.t + (40 + rand() * 60) * 60_000);
      tr.driveTo(v.depot, 45);
    }
    nightly(tr, v, dayIndex, dayStart, rand);
    return;
  }
  if (v.type === 'bus') {
    const stops = v.trip?.stops ?? [
      near(v.depot, 0.006, 0.005),
      near(v.depot, 0.011, 0.009),
      near(v.depot, 0.016, 0.012),
    ];
    const school = v.school ?? near(v.depot, 0.01, 0.01);
    const area = near(stops[0]!, 0.012, -0.018);
    const late = (v.idx + dayIndex) % 9 === 0 ? 22 : 0;
    const depart = (v.trip?.departMin ?? 6 * 60 + 20) - 8 + late + jitter(3);
    tr.parkUntil(tr.at(dayStart, depart));
    tr.idle(240 + rand() * 120); // warming up in the depot
    tr.driveTo(area, 50);
    for (const s of stops) tr.driveTo(s, 35).idle(90 + rand() * 60);
    tr.driveTo(school, 35).idle(180 + rand() * 120);
    tr.driveTo(v.depot, (v.idx + dayIndex) % 13 === 0 ? v.maxKmh + 12 : 55);
    const back = (v.trip?.returnMin ?? 14 * 60 + 45) - 22 + jitter(4);
    tr.parkUntil(tr.at(dayStart, back));
    tr.driveTo(school, 50).idle(600 + rand() * 420); // waiting for the bell: idling
    for (const s of [...stops].reverse()) tr.driveTo(s, 35).idle(60 + rand() * 60);
    tr.driveTo(area, 45).driveTo(v.depot, 50);
    nightly(tr, v, dayIndex, dayStart, rand);
    return;
  }
  // Deliveries.
  const start = 7 * 60 + 30 + jitter(30) + (v.type === 'motorcycle' ? 60 : 0);
  tr.parkUntil(tr.at(dayStart, start));
  tr.idle(120 + rand() * 120);
  const legs = v.type === 'motorcycle' ? 6 : 3 + Math.floor(rand() * 3);
  const viaSalik = v.type === 'truck' || (v.type === 'car' && (dayIndex + v.idx) % 2 === 0);
  const gate = gates.length
    ? gates.reduce((best, g) =>
        haversineM(v.depot.lat, v.depot.lon, g.lat, g.lon) <
        haversineM(v.depot.lat, v.depot.lon, best.lat, best.lon)
          ? g
          : best,
      )
    : null;
  const reach = v.type === 'motorcycle' ? 0.03 : 0.08;
  for (let leg = 0; leg < legs; leg++) {
    if (leg === 1 && viaSalik && gate) {
      // Highway leg through the nearest gate, in the charged direction of travel.
      const before = destination(gate.lat, gate.lon, gate.bearing + 180, 1500);
      const after = destination(gate.lat, gate.lon, gate.bearing, 4000);
      tr.driveTo(before, 60).driveTo(after, v.type === 'truck' ? 90 : v.maxKmh + 8);
    }
    const customer = near(v.depot, (rand() - 0.5) * reach, (rand() - 0.5) * reach);
    tr.driveTo(customer, v.type === 'truck' ? 50 : 55);
    if (rand() < 0.35) tr.idle(360 + rand() * 420);
    else tr.parkUntil(tr.t + (15 + rand() * 30) * 60_000);
    if (leg === 1) tr.parkUntil(Math.max(tr.t, tr.at(dayStart, 12 * 60 + 30 + jitter(20))) + 40 * 60_000);
  }
  tr.driveTo(v.depot, 50);
  nightly(tr, v, dayIndex, dayStart, rand);
}

/** Back at the depot: refuel when low, now and then a drop at night, then parked until tomorrow. */
function nightly(tr: Track, v: HistVehicle, dayIndex: number, dayStart: number, rand: () => number): void {
  if (tr.fuelL < v.tank * 0.4) tr.refuel(v.tank * (0.85 + 0.1 * rand()) - tr.fuelL);
  if ((v.idx * 11 + dayIndex * 5) % 97 === 0 && tr.fuelL > 25) {
    tr.parkUntil(tr.at(dayStart, 23 * 60 + 10));
    tr.drop(Math.min(tr.fuelL * 0.4, 30));
  }
}

const PER_100: Record<string, number> = { bus: 32, truck: 19, car: 9, motorcycle: 3.5 };

async function loadVehicles(storage: Storage): Promise<HistVehicle[]> {
  const rows = await storage.db.query<{
    company_id: number;
    company_uuid: string;
    vehicle_id: number;
    vehicle_uuid: string;
    device_id: number;
    device_uuid: string;
    type: string | null;
    data: Record<string, unknown>;
    depot: { latitude?: number; longitude?: number } | null;
    school: { location?: { latitude?: number; longitude?: number } } | null;
  }>(
    `SELECT c.id AS company_id, c.uuid AS company_uuid, v.id AS vehicle_id, v.uuid AS vehicle_uuid,
            d.id AS device_id, d.uuid AS device_uuid, v.type, v.data, b.location AS depot, s.data AS school
     FROM vehicles v
     JOIN transport_companies c ON c.id = v.company_id
     JOIN devices d ON d.imei = v.device_imei AND d.company_id = v.company_id
     LEFT JOIN branches b ON b.id = v.branch_id
     LEFT JOIN schools s ON s.id = v.school_id
     ORDER BY v.id`,
  );
  const trips = await storage.db.query<{
    vehicle_id: number;
    departure_time: string;
    return_time: string | null;
    stops: { latitude: number; longitude: number }[];
  }>(
    `SELECT t.vehicle_id, t.departure_time::text, t.return_time::text,
            (SELECT json_agg(json_build_object('latitude', st.latitude, 'longitude', st.longitude) ORDER BY st.position)
               FROM scheduled_trip_stops st WHERE st.scheduled_trip_id = t.id) AS stops
     FROM scheduled_trips t WHERE t.vehicle_id IS NOT NULL`,
  );
  const clock = (s: string | null) => {
    if (!s) return 14 * 60 + 45;
    const [h, m] = s.split(':').map(Number);
    return h! * 60 + m!;
  };
  return rows.map((r, idx) => {
    const type = r.type ?? 'car';
    const tank = Number(r.data.fuel_tank_capacity) || (type === 'bus' ? 200 : 60);
    const trip = trips.find((t) => t.vehicle_id === r.vehicle_id);
    const base = {
      lat: r.depot?.latitude ?? 25.2 + (idx % 7) * 0.01,
      lon: r.depot?.longitude ?? 55.3 + (idx % 5) * 0.01,
    };
    // Each vehicle has its own bay in the depot (inside the depot's 400 m geofence).
    const depot = near(base, ((idx % 5) - 2) * 0.0004, ((Math.floor(idx / 5) % 5) - 2) * 0.0004);
    const sl = r.school?.location;
    return {
      idx,
      companyId: r.company_id,
      companyUuid: r.company_uuid,
      vehicleId: r.vehicle_id,
      vehicleUuid: r.vehicle_uuid,
      deviceId: r.device_id,
      deviceUuid: r.device_uuid,
      type,
      tank,
      per100: PER_100[type] ?? 10,
      maxKmh: Number(r.data.speed_limit) || (type === 'bus' ? 80 : 100),
      depot,
      school: sl?.latitude != null && sl.longitude != null ? { lat: sl.latitude, lon: sl.longitude } : null,
      trip:
        trip && trip.stops?.length
          ? {
              stops: trip.stops.map((s) => ({ lat: Number(s.latitude), lon: Number(s.longitude) })),
              departMin: clock(trip.departure_time),
              returnMin: clock(trip.return_time),
            }
          : null,
    };
  });
}

const SLICE_DAY_MS = 15 * 60_000;

/**
 * Writes `days` days of history for every vehicle with a device, through the pipeline. Call once,
 * right after the demo seed, on a database with no positions yet.
 */
export async function seedHistory(storage: Storage, opts: HistoryOptions = {}): Promise<HistoryResult> {
  const started = performance.now();
  const tz = opts.timeZone ?? 'Asia/Dubai';
  const days = opts.days ?? 30;
  const end = Math.floor((opts.now ?? Date.now()) / SLICE_DAY_MS) * SLICE_DAY_MS;
  const today = localDate(end, tz);
  const firstDay = addDays(today, -days);
  const salik = opts.salik ?? loadSalik();
  const gates = salik.gates
    .filter((g) => g.charged.length > 0)
    .map((g) => ({
      lat: g.lat,
      lon: g.lon,
      bearing: g.charged.includes('forward') ? g.roadBearingDeg : g.roadBearingDeg + 180,
    }));
  const vehicles = await loadVehicles(storage);
  if (vehicles.length === 0) return { records: 0, vehicles: 0, days, ms: 0 };
  // Messages the history's trips and alerts queue (guardian bus-approaching/delayed mails, alert
  // mails) are about the past: nobody is told of them. Everything queued after this mark is dropped
  // at the end (the invitations of the seed itself were queued before it).
  const [mark] = await storage.db.query<{ id: string | null }>(
    `SELECT max(id)::text AS id FROM message_outbox`,
  );
  let simNow = dayStartOf(firstDay, tz);
  const pipeline = new PipelineService({
    store: new SqlPipelineStore(storage.db),
    bus: new InProcessBus(),
    salik,
    timeZone: tz,
    now: () => simNow,
    flushDelayMs: 0,
    repairIntervalMs: 0,
  });
  const companies = [...new Set(vehicles.map((v) => v.companyUuid))];
  const tracks = vehicles.map((v) => new Track(v, simNow, prng(1000 + v.idx)));
  const rands = vehicles.map((v) => prng(7000 + v.idx));
  const cursor = vehicles.map(() => 0);
  let records = 0;

  // Vehicles with a scheduled trip get their records slice by slice between the clock ticks (their
  // instances go started / delayed / missed by positions and ticks in time order); the others get a
  // whole day in one batch (nothing in their results depends on the clock).
  const clocked = new Set(vehicles.filter((v) => v.trip).map((v) => v.idx));
  for (let d = 0; d <= days; d++) {
    const date = addDays(firstDay, d);
    const dayStart = dayStartOf(date, tz);
    const dayEnd = Math.min(dayStartOf(addDays(date, 1), tz), end);
    if (dayEnd <= dayStart) break;
    const inputs: LocationInput[] = [];
    // Script the whole day of every vehicle, then cut what lies beyond the end of the history.
    for (const [i, tr] of tracks.entries()) {
      tr.out = [];
      cursor[i] = 0;
      scriptDay(tr, vehicles[i]!, date, dayStart, d, rands[i]!, gates);
      tr.parkUntil(dayStartOf(addDays(date, 1), tz));
      tr.out = tr.out.filter((r) => r.t < dayEnd);
      for (const r of tr.out) inputs.push(toInput(vehicles[i]!, r));
    }
    // Stored first, as the gateway does before it publishes.
    for (let k = 0; k < inputs.length; k += 5_000) await storage.insertLocations(inputs.slice(k, k + 5_000));
    records += inputs.length;
    for (const t of tickTimes(dayStart, dayEnd)) {
      for (const [i, tr] of tracks.entries()) {
        if (!clocked.has(i)) continue;
        const recs: Rec[] = [];
        while (cursor[i]! < tr.out.length && tr.out[cursor[i]!]!.t < t) recs.push(tr.out[cursor[i]!++]!);
        if (recs.length === 0) continue;
        simNow = recs[recs.length - 1]!.t;
        await feed(pipeline, vehicles[i]!, recs);
      }
      simNow = t;
      for (const c of companies) await pipeline.tick(c);
    }
    simNow = dayEnd;
    for (const [i, tr] of tracks.entries()) {
      const recs = tr.out.slice(cursor[i]);
      if (recs.length) await feed(pipeline, vehicles[i]!, recs);
    }
    await pipeline.flush();
    opts.log?.(`demo history: ${date} (${records} records so far)`);
  }
  simNow = end;
  for (const c of companies) await pipeline.tick(c);
  await pipeline.flush();
  // The notifications were stored at the real clock: they take the simulated time they were raised
  // at, and what is older than a day reads as seen (the bell starts with the last day's alerts).
  await storage.db.query(
    `UPDATE notifications SET created_at = device_created_at,
            read_at = CASE WHEN device_created_at < $1::timestamptz THEN device_created_at END
     WHERE device_created_at IS NOT NULL AND device_created_at < created_at`,
    [new Date(end - 86_400_000).toISOString()],
  );
  await storage.db.query(`DELETE FROM message_outbox WHERE status = 'queued' AND id > $1::bigint`, [
    mark?.id ?? '0',
  ]);
  return { records, vehicles: vehicles.length, days, ms: performance.now() - started };
}

function feed(pipeline: PipelineService, v: HistVehicle, recs: readonly Rec[]) {
  return pipeline.handleBatch({
    companyUuid: v.companyUuid,
    deviceUuid: v.deviceUuid,
    vehicleUuid: v.vehicleUuid,
    records: recs.map(toStored),
  });
}

/**
 * Clock ticks of a day: at midnight (the day's scheduled-trip instances are created), every 15
 * minutes around the school runs (05:45-09:00, 14:00-17:30: delayed / missed on time), hourly else.
 */
function tickTimes(dayStart: number, dayEnd: number): number[] {
  const out: number[] = [];
  for (let m = 0; m < 24 * 60;) {
    const t = dayStart + m * 60_000;
    if (t >= dayEnd) break;
    out.push(t);
    const busy = (m >= 5 * 60 + 45 && m < 9 * 60) || (m >= 14 * 60 && m < 17 * 60 + 30);
    m += busy ? 15 : m === 5 * 60 ? 45 : 60;
  }
  out.push(dayEnd);
  return out;
}

/**
 * The IO of a history record: ignition, odometer, fuel litres and supply voltage, and the engine's RPM
 * and temperature as the live simulator reports them (simulator/vehicle.ts: 750 rpm idling, 1,200 + 18 per
 * km/h moving; IO 25 in 0.01 °C, here 28-40 °C over the day, warmest at 14:00 UTC+4). Without the last two
 * the engine report's charts of a week or a month held only the minutes since the server started.
 */
function io(r: Rec): Record<string, { value: number }> {
  const dayPhase = Math.cos(((r.t / 3_600_000 + 4 - 14) / 24) * 2 * Math.PI);
  return {
    '239': { value: r.ign ? 1 : 0 },
    '16': { value: r.odoM },
    '84': { value: Math.round(r.fuelL * 10) },
    '66': { value: r.ign ? 27_600 : 25_100 },
    '85': { value: r.ign ? (r.speed > 0 ? 1_200 + Math.round(r.speed * 18) : 750) : 0 },
    '25': { value: Math.round(3_400 + 600 * dayPhase) },
  };
}

function toInput(v: HistVehicle, r: Rec): LocationInput {
  return {
    deviceId: v.deviceId,
    vehicleId: v.vehicleId,
    companyId: v.companyId,
    fixTime: new Date(r.t),
    latitude: r.lat,
    longitude: r.lon,
    speed: r.speed,
    course: r.course,
    satellites: 11,
    ignition: r.ign,
    isIdle: r.ign && r.speed < 5,
    ioElements: io(r),
    source: 'demo-history',
  };
}

function toStored(r: Rec): StoredLocation {
  return {
    fixTime: r.t,
    receivedAt: r.t,
    latitude: r.lat,
    longitude: r.lon,
    speed: r.speed,
    course: r.course,
    ignition: r.ign,
    isIdle: r.ign && r.speed < 5,
    ioElements: io(r),
  };
}
