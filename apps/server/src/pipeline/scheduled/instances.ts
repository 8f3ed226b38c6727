import { haversineM } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { addDays, parseClock, parseDate, weekdayOf, zonedTimeToEpoch } from '../common/zoned-time';

/**
 * Scheduled (school) trips: daily instances and their status.
 *
 * A scheduled trip (one way or round) produces one instance per leg per active day: the departure leg
 * visits the stops in order between the departure start and end time; a round trip adds a return leg
 * over the stops in reverse between the return start and end time.
 *
 * Status (the spec names the statuses; the transitions are a design decision):
 *   pending  -> started    the assigned vehicle moves (>= movingKmh) from `startEarlyMin` before the start
 *   pending  -> delayed    not started `delayGraceMin` after the planned start (tick)
 *   delayed  -> started    starts late (the instance keeps `late: true`)
 *   pending/delayed -> missed   not started by the planned end (tick)
 *   started  -> completed  the last stop is reached, or `completeGraceMin` after the planned end (then
 *                          `incomplete: true` with the stops reached so far)
 *   any open -> cancelled  by a user, or for a date listed in the trip's cancelled dates
 * While started, each stop reached within `stopRadiusM` is recorded, and the next stop gets one
 * "nearing" event when the vehicle comes within `nearingRadiusM` (for guardians of its passengers).
 */

export type TripStatus = 'pending' | 'started' | 'completed' | 'delayed' | 'missed' | 'cancelled';
export type TripLeg = 'departure' | 'return';

export interface ScheduledStop {
  readonly id: string;
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  readonly passengerIds: readonly string[];
}

export interface ScheduledTripDef {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly type: 'one_way' | 'round';
  readonly departure: { readonly startTime: string; readonly endTime: string };
  readonly return?: { readonly startTime: string; readonly endTime: string };
  /** 0 = Sunday ... 6 = Saturday; default every day */
  readonly days?: readonly number[];
  readonly validFrom?: string;
  readonly validTo?: string;
  readonly cancelledDates?: readonly string[];
  readonly stops: readonly ScheduledStop[];
  readonly vehicleId?: string;
  readonly driverId?: string;
  readonly passengerIds?: readonly string[];
}

export interface TripInstance {
  readonly id: string;
  readonly tripId: string;
  readonly companyId: string;
  readonly name: string;
  readonly leg: TripLeg;
  readonly date: string;
  readonly plannedStart: number;
  readonly plannedEnd: number;
  readonly vehicleId?: string;
  readonly driverId?: string;
  readonly stops: readonly ScheduledStop[];
  readonly status: TripStatus;
  readonly late: boolean;
  readonly incomplete: boolean;
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** stop id -> time reached */
  readonly reached: Readonly<Record<string, number>>;
  readonly nearingSent: readonly string[];
}

export type TripInstanceEvent =
  | {
      readonly kind: 'status';
      readonly instanceId: string;
      readonly from: TripStatus;
      readonly to: TripStatus;
      readonly time: number;
      readonly minutesLate?: number;
    }
  | {
      readonly kind: 'stop_reached';
      readonly instanceId: string;
      readonly stopId: string;
      readonly time: number;
    }
  | {
      readonly kind: 'nearing_stop';
      readonly instanceId: string;
      readonly stopId: string;
      readonly stopName: string;
      readonly passengerIds: readonly string[];
      readonly distanceM: number;
      readonly etaMinutes: number | null;
      readonly time: number;
    };

export interface ScheduleConfig {
  readonly timeZone: string;
  readonly stopRadiusM: number;
  readonly nearingRadiusM: number;
  readonly movingKmh: number;
  readonly startEarlyMin: number;
  readonly delayGraceMin: number;
  readonly completeGraceMin: number;
}

export const defaultScheduleConfig: ScheduleConfig = {
  timeZone: 'Asia/Dubai',
  stopRadiusM: 150,
  nearingRadiusM: 1000,
  movingKmh: 5,
  startEarlyMin: 30,
  delayGraceMin: 10,
  completeGraceMin: 120,
};

function validate(def: ScheduledTripDef): void {
  if (def.type !== 'one_way' && def.type !== 'round')
    throw new RangeError(`Scheduled trip ${def.id}: unknown type ${String(def.type)}`);
  if (def.type === 'round' && !def.return)
    throw new RangeError(`Scheduled trip ${def.id}: a round trip needs return times`);
  if (def.stops.length === 0) throw new RangeError(`Scheduled trip ${def.id}: needs at least one stop`);
  for (const leg of [def.departure, def.return]) {
    if (!leg) continue;
    parseClock(leg.startTime);
    parseClock(leg.endTime);
  }
}

/** The instances of the given trips on local date `date` (pending, or cancelled for cancelled dates). */
export function generateInstances(
  defs: readonly ScheduledTripDef[],
  date: string,
  cfg: ScheduleConfig = defaultScheduleConfig,
): TripInstance[] {
  const { year, month, day } = parseDate(date);
  const weekday = weekdayOf(date);
  const out: TripInstance[] = [];
  for (const def of defs) {
    validate(def);
    if (def.days && !def.days.includes(weekday)) continue;
    if (def.validFrom && date < def.validFrom) continue;
    if (def.validTo && date > def.validTo) continue;
    const legs: [TripLeg, { startTime: string; endTime: string }][] = [['departure', def.departure]];
    if (def.type === 'round' && def.return) legs.push(['return', def.return]);
    for (const [leg, times] of legs) {
      const at = (hhmm: string) => {
        const m = parseClock(hhmm);
        return zonedTimeToEpoch(year, month, day, Math.floor(m / 60), m % 60, cfg.timeZone);
      };
      const plannedStart = at(times.startTime);
      let plannedEnd = at(times.endTime);
      // An end time before the start means the leg runs past midnight.
      if (plannedEnd <= plannedStart) {
        const next = parseDate(addDays(date, 1));
        const m = parseClock(times.endTime);
        plannedEnd = zonedTimeToEpoch(
          next.year,
          next.month,
          next.day,
          Math.floor(m / 60),
          m % 60,
          cfg.timeZone,
        );
      }
      const cancelled = def.cancelledDates?.includes(date) ?? false;
      out.push({
        id: `${def.id}:${date}:${leg}`,
        tripId: def.id,
        companyId: def.companyId,
        name: def.name,
        leg,
        date,
        plannedStart,
        plannedEnd,
        ...(def.vehicleId ? { vehicleId: def.vehicleId } : {}),
        ...(def.driverId ? { driverId: def.driverId } : {}),
        stops: leg === 'departure' ? [...def.stops] : [...def.stops].reverse(),
        status: cancelled ? 'cancelled' : 'pending',
        late: false,
        incomplete: false,
        reached: {},
        nearingSent: [],
      });
    }
  }
  return out;
}

const OPEN: readonly TripStatus[] = ['pending', 'delayed', 'started'];

export interface Advance {
  readonly instance: TripInstance;
  readonly events: TripInstanceEvent[];
}

/** Applies a position of the assigned vehicle. */
export function applyPosition(
  inst: TripInstance,
  r: PositionRecord,
  cfg: ScheduleConfig = defaultScheduleConfig,
): Advance {
  if (r.ignored || !OPEN.includes(inst.status)) return { instance: inst, events: [] };
  if (r.time < inst.plannedStart - cfg.startEarlyMin * 60_000) return { instance: inst, events: [] };
  if (r.time > inst.plannedEnd + cfg.completeGraceMin * 60_000) return { instance: inst, events: [] };
  const events: TripInstanceEvent[] = [];
  let cur = inst;
  if (cur.status !== 'started') {
    if (r.speed < cfg.movingKmh && !nearAnyStop(cur, r, cfg)) return { instance: inst, events };
    if (r.time > cur.plannedEnd) return { instance: inst, events };
    events.push({ kind: 'status', instanceId: cur.id, from: cur.status, to: 'started', time: r.time });
    cur = { ...cur, status: 'started', startedAt: r.time, late: cur.status === 'delayed' };
  }
  const reached = { ...cur.reached };
  for (const s of cur.stops) {
    if (reached[s.id] !== undefined) continue;
    if (haversineM(s.lat, s.lon, r.lat, r.lon) <= cfg.stopRadiusM) {
      reached[s.id] = r.time;
      events.push({ kind: 'stop_reached', instanceId: cur.id, stopId: s.id, time: r.time });
    }
  }
  cur = { ...cur, reached };
  const next = cur.stops.find((s) => reached[s.id] === undefined);
  if (next && !cur.nearingSent.includes(next.id)) {
    const d = haversineM(next.lat, next.lon, r.lat, r.lon);
    if (d <= cfg.nearingRadiusM) {
      events.push({
        kind: 'nearing_stop',
        instanceId: cur.id,
        stopId: next.id,
        stopName: next.name,
        passengerIds: next.passengerIds,
        distanceM: Math.round(d),
        etaMinutes: r.speed >= cfg.movingKmh ? Math.max(1, Math.round((d / 1000 / r.speed) * 60)) : null,
        time: r.time,
      });
      cur = { ...cur, nearingSent: [...cur.nearingSent, next.id] };
    }
  }
  const last = cur.stops[cur.stops.length - 1]!;
  if (reached[last.id] !== undefined) {
    events.push({ kind: 'status', instanceId: cur.id, from: 'started', to: 'completed', time: r.time });
    cur = {
      ...cur,
      status: 'completed',
      endedAt: r.time,
      incomplete: cur.stops.some((s) => reached[s.id] === undefined),
    };
  }
  return { instance: cur, events };
}

function nearAnyStop(inst: TripInstance, r: PositionRecord, cfg: ScheduleConfig): boolean {
  // A vehicle already standing at the first stop at departure time has started boarding.
  const first = inst.stops[0]!;
  return r.time >= inst.plannedStart && haversineM(first.lat, first.lon, r.lat, r.lon) <= cfg.stopRadiusM;
}

/** Applies the passing of time (delayed, missed, completion after the grace period). */
export function applyTick(
  inst: TripInstance,
  now: number,
  cfg: ScheduleConfig = defaultScheduleConfig,
): Advance {
  const events: TripInstanceEvent[] = [];
  let cur = inst;
  if ((cur.status === 'pending' || cur.status === 'delayed') && now > cur.plannedEnd) {
    events.push({ kind: 'status', instanceId: cur.id, from: cur.status, to: 'missed', time: now });
    return { instance: { ...cur, status: 'missed', endedAt: now }, events };
  }
  if (cur.status === 'pending' && now > cur.plannedStart + cfg.delayGraceMin * 60_000) {
    const minutesLate = Math.floor((now - cur.plannedStart) / 60_000);
    events.push({
      kind: 'status',
      instanceId: cur.id,
      from: 'pending',
      to: 'delayed',
      time: now,
      minutesLate,
    });
    cur = { ...cur, status: 'delayed' };
  }
  if (cur.status === 'started' && now > cur.plannedEnd + cfg.completeGraceMin * 60_000) {
    events.push({ kind: 'status', instanceId: cur.id, from: 'started', to: 'completed', time: now });
    cur = {
      ...cur,
      status: 'completed',
      endedAt: now,
      incomplete: cur.stops.some((s) => cur.reached[s.id] === undefined),
    };
  }
  return { instance: cur, events };
}

/** Cancels an open instance (user action). */
export function cancelInstance(inst: TripInstance, now: number): Advance {
  if (!OPEN.includes(inst.status)) return { instance: inst, events: [] };
  return {
    instance: { ...inst, status: 'cancelled', endedAt: now },
    events: [{ kind: 'status', instanceId: inst.id, from: inst.status, to: 'cancelled', time: now }],
  };
}
