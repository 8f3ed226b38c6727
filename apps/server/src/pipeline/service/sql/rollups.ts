import type { Queryable } from '../../../storage/db';
import type { FuelEvent } from '../../rollups/fuel';
import type { DayRollups, VehicleRollup } from '../../rollups/rollups';
import { writeChangedRollups, type WriteBatch } from '../../incremental/write-changed';
import type { VehicleRow } from './results';

/** One vehicle-day of rollups (daily + hourly rows, fuel events) to write. */
export interface RollupDayWrite {
  readonly ref: { companyUuid: string; vehicleUuid: string };
  readonly day: DayRollups;
}

/** The numeric fields of a rollup row, in the order of write-changed.ts's columns 4-28. */
const ROLLUP_FIELDS = [
  'distanceM',
  'drivingS',
  'idleS',
  'engineS',
  'records',
  'maxSpeedKmh',
  'trips',
  'violations',
  'fuelUsedL',
  'refuels',
  'refuelL',
  'drops',
  'dropL',
  'rpmMax',
  'rpmSecondsSum',
  'rpmSeconds',
  'overRevS',
  'tempMin',
  'tempMax',
  'tempSum',
  'tempCount',
  'startsAt',
  'overRevs',
  'fuelLevelPct',
  'fuelLevelL',
] as const satisfies readonly (keyof VehicleRollup)[];

/** Tyre readings as JSON, cached per readings object (the folds keep it until a new reading comes). */
const tyreJson = new WeakMap<object, string>();
function tyresJson(t: VehicleRollup['tyres']): string | null {
  if (!t) return null;
  let json = tyreJson.get(t);
  if (json === undefined) tyreJson.set(t, (json = JSON.stringify(t)));
  return json;
}

/**
 * Replaces the rollups of these vehicle-days (`vehicle_rollups`, migration 0007_reports.sql: the daily
 * row and the hourly rows with records) and the day's refuels and drops (`fuel_events`): one DELETE and
 * one multi-row INSERT (unnest) per table, on the connection (transaction) of the flush (results.ts).
 */
export async function writeRollupDays(
  db: Queryable,
  rollups: readonly RollupDayWrite[],
  vehicles: ReadonlyMap<string, VehicleRow>,
  batch?: WriteBatch,
): Promise<void> {
  const rows: { company: number; vehicle: number; day: string; r: VehicleRollup }[] = [];
  const del = { vehicle: [] as number[], day: [] as string[] };
  const ev: { company: number; vehicle: number; day: string; e: DayRollups['fuelEvents'][number] }[] = [];
  // One vehicle-day can come twice in a flush (two devices of one vehicle; seen in bench:soak on
  // PostgreSQL, where the duplicate daily row failed every later flush with vehicle_rollups_pkey).
  // Written one by one, the later write replaced the earlier: keep that, the last one.
  const last = new Map<string, (typeof rollups)[number]>();
  for (const w of rollups) last.set(`${w.ref.vehicleUuid}|${w.day.daily.date}`, w);
  for (const { ref, day } of last.values()) {
    const v = vehicles.get(ref.vehicleUuid);
    if (!v) throw new Error(`Unknown vehicle ${ref.vehicleUuid}`);
    del.vehicle.push(v.id);
    del.day.push(day.daily.date);
    for (const r of [day.daily, ...day.hourly.filter((h) => h.records > 0)])
      rows.push({ company: v.company_id, vehicle: v.id, day: day.daily.date, r });
    for (const e of day.fuelEvents) ev.push({ company: v.company_id, vehicle: v.id, day: day.daily.date, e });
  }
  // Only the rows that changed are written (incremental/write-changed.ts); a column is read off the
  // rows only for those.
  await writeChangedRollups(
    db,
    del,
    {
      n: rows.length,
      value: (c, i) => {
        const x = rows[i]!;
        if (c === 0) return x.company;
        if (c === 1) return x.vehicle;
        if (c === 2) return x.day;
        if (c === 3) return x.r.hour ?? -1;
        if (c === ROLLUP_FIELDS.length + 4) return tyresJson(x.r.tyres);
        return x.r[ROLLUP_FIELDS[c - 4]!];
      },
    },
    batch,
  );
  // Refuels and drops of the days (place and time) for the fuel report: a vehicle-day's events are
  // replaced when they differ from what this process last wrote of it (all of them, when it has no
  // memory of the day). A day has a few events that rarely change, and every vehicle-day a flush
  // touched was deleted and inserted again: a thousand index probes per flush and, in bench:soak's
  // PGlite day, an 11 MB table for 474 events by the evening (dead rows between maintenance passes).
  const fuelDel = { vehicle: [] as number[], day: [] as string[] };
  const fuelEv = batch ? [] : ev;
  for (const { ref, day } of last.values()) {
    const v = vehicles.get(ref.vehicleUuid)!;
    if (batch) {
      const key = `${v.id}|${day.daily.date}`;
      const was = batch.memo.fuel.get(key);
      if (was && sameEvents(was, day.fuelEvents)) continue;
      batch.stageFuel(key, day.fuelEvents);
      for (const e of day.fuelEvents)
        fuelEv.push({ company: v.company_id, vehicle: v.id, day: day.daily.date, e });
    }
    fuelDel.vehicle.push(v.id);
    fuelDel.day.push(day.daily.date);
  }
  if (fuelDel.vehicle.length > 0)
    await db.query(
      `DELETE FROM fuel_events f USING unnest($1::int[], $2::date[]) AS u(v, d)
       WHERE f.vehicle_id = u.v AND f.day = u.d`,
      [fuelDel.vehicle, fuelDel.day],
    );
  if (fuelEv.length > 0) {
    const ev = fuelEv;
    await db.query(
      `INSERT INTO fuel_events (company_id, vehicle_id, day, kind, litres, at, ended_at, latitude, longitude,
         level_before_l, level_after_l)
       SELECT c, v, dy::date, k, l, to_timestamp(a / 1000.0), to_timestamp(b / 1000.0), la, lo, lb, lf
       FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[],
         $8::float8[], $9::float8[], $10::float8[], $11::float8[]) AS u(c, v, dy, k, l, a, b, la, lo, lb, lf)`,
      [
        ev.map((x) => x.company),
        ev.map((x) => x.vehicle),
        ev.map((x) => x.day),
        ev.map((x) => x.e.kind),
        ev.map((x) => x.e.litres),
        ev.map((x) => x.e.startTime),
        ev.map((x) => x.e.endTime),
        ev.map((x) => x.e.lat),
        ev.map((x) => x.e.lon),
        ev.map((x) => x.e.levelBeforeL),
        ev.map((x) => x.e.levelAfterL),
      ],
    );
  }
}

/** Two lists of a vehicle-day's fuel events that give the same rows. */
function sameEvents(a: readonly FuelEvent[], b: readonly FuelEvent[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (
      x.kind !== y.kind ||
      x.litres !== y.litres ||
      x.startTime !== y.startTime ||
      x.endTime !== y.endTime ||
      x.lat !== y.lat ||
      x.lon !== y.lon ||
      x.levelBeforeL !== y.levelBeforeL ||
      x.levelAfterL !== y.levelAfterL
    )
      return false;
  }
  return true;
}

/**
 * Violation alerts of vehicles (stored notifications), for the rollups' violation counts. One alert
 * episode counts once (its dedupe key), at its device time.
 */
export class SqlViolations {
  constructor(private readonly db: Queryable) {}

  async violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (vehicleUuids.length === 0) return out;
    const rows = await this.db.query<{ v: string; t: number }>(
      `SELECT DISTINCT ON (n.vehicle_id, n.data->>'dedupe_key') v.uuid::text AS v,
              (extract(epoch FROM n.device_created_at) * 1000)::float8 AS t
       FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id
       WHERE v.uuid = ANY($1::uuid[]) AND n.type IN ('overspeed', 'violation_output', 'emergency_button')
         AND n.device_created_at >= to_timestamp($2 / 1000.0) AND n.device_created_at < to_timestamp($3 / 1000.0)`,
      [vehicleUuids, from, to],
    );
    for (const r of rows) {
      const list = out.get(r.v) ?? [];
      list.push(Math.round(r.t));
      out.set(r.v, list);
    }
    return out;
  }

  async violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]> {
    const rows = await this.db.query<{ t: number }>(
      `SELECT DISTINCT ON (n.data->>'dedupe_key') (extract(epoch FROM n.device_created_at) * 1000)::float8 AS t
       FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id
       WHERE v.uuid = $1 AND n.type IN ('overspeed', 'violation_output', 'emergency_button')
         AND n.device_created_at >= to_timestamp($2 / 1000.0) AND n.device_created_at < to_timestamp($3 / 1000.0)`,
      [vehicleUuid, from, to],
    );
    return rows.map((r) => Math.round(r.t));
  }
}
