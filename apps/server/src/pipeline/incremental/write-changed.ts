import type { Queryable } from '../../storage/db';
import type { FuelEvent } from '../rollups/fuel';
import type { IdlePeriod, Stop, Trip } from '../trips/trips';

/**
 * Writing the flush's results so that only rows that changed are written (issue 13, session 8).
 *
 * What was measured (bench:soak, PGlite, 50 devices x 24 h, per-statement timing with
 * `--query-stats`): the flush replaced every dirty device-day's trips and every dirty vehicle-day's
 * rollups with `DELETE` + `INSERT` of all their rows. A vehicle-day has up to 25 rollup rows (daily +
 * hourly) and a device-day ~20 trip rows, the first of which carries the day's stops and idling
 * periods as JSON, so the rows rewritten per flush grow with the hour of the day although only the
 * current hour, the daily row and the open trip move. Over the simulated day the time PGlite spent in
 * the rollup INSERT grew 6x (191 -> 1,163 ms per 20 s of wall time, same number of calls) and in the
 * trip INSERT 10x (101 -> 1,337 ms), while the locations insert stayed flat: those two statements were
 * the growth of the cost per record. Every rewritten row also left a dead tuple behind (PGlite has no
 * autovacuum between maintenance passes), and the trips got new uuids on every flush.
 *
 * Now the result set of a device-day / vehicle-day is still the whole set (so what is stored after a
 * flush is exactly what it was before), but the database keeps what is already there:
 *  - rollups: rows of the vehicle-days that are not in the new set are deleted; the new set is
 *    upserted on the primary key with `ON CONFLICT ... DO UPDATE ... WHERE (old) IS DISTINCT FROM
 *    (new)`, so an unchanged hour writes nothing (no new tuple, no index entry);
 *  - trips: rows of the device-days that no new row equals (all stored columns compared, `data` as
 *    jsonb) are deleted, then the new rows that no stored row equals are inserted.
 * No memory of what was written is kept here: the comparison is with the stored rows, in the same
 * transaction, so it stays right when another node wrote the day meanwhile (failover) or a write
 * failed. The rows are still sent (and their JSON built) on every flush; that part is linear in the
 * day's trips but small next to the writes it replaces.
 */

/** Column order of the rollup arrays, as the flush builds them (sql-store.ts). */
const ROLLUP_COLUMNS = [
  'company_id',
  'vehicle_id',
  'day',
  'hour',
  'distance_m',
  'driving_s',
  'idle_s',
  'engine_s',
  'records',
  'max_speed_kmh',
  'trips',
  'violations',
  'fuel_used_l',
  'refuels',
  'refuel_l',
  'drops',
  'drop_l',
  'rpm_max',
  'rpm_seconds_sum',
  'rpm_seconds',
  'over_rev_s',
  'temp_min',
  'temp_max',
  'temp_sum',
  'temp_count',
  'starts_at',
  'over_revs',
  'fuel_level_pct',
  'fuel_level_l',
  'tyres',
] as const;
const KEY = new Set(['company_id', 'vehicle_id', 'day', 'hour']);
const VALUES = ROLLUP_COLUMNS.filter((c) => !KEY.has(c));

const ROLLUP_UPSERT = `INSERT INTO vehicle_rollups (${ROLLUP_COLUMNS.join(', ')})
  SELECT c, v, dy::date, h, d, dr, i, e, rc, ms, tr, vi, fu, rf, rfl, dp, dpl, rx, rss, rs, ors, tmin, tmax, tsum,
         tcnt, to_timestamp(sa / 1000.0), orv, flp, fll, ty::jsonb
  FROM unnest($1::int[], $2::int[], $3::text[], $4::smallint[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
    $9::int[], $10::real[], $11::int[], $12::int[], $13::float8[], $14::int[], $15::float8[], $16::int[], $17::float8[],
    $18::real[], $19::float8[], $20::float8[], $21::float8[], $22::real[], $23::real[], $24::float8[], $25::int[],
    $26::float8[], $27::int[], $28::real[], $29::real[], $30::text[])
    AS u(c, v, dy, h, d, dr, i, e, rc, ms, tr, vi, fu, rf, rfl, dp, dpl, rx, rss, rs, ors, tmin, tmax, tsum, tcnt, sa,
         orv, flp, fll, ty)
  ON CONFLICT (company_id, day, vehicle_id, hour) DO UPDATE SET
    ${VALUES.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
  WHERE (${VALUES.map((c) => `vehicle_rollups.${c}`).join(', ')})
    IS DISTINCT FROM (${VALUES.map((c) => `EXCLUDED.${c}`).join(', ')})`;

/**
 * The rollup rows of a flush: `n` rows, `value(c, i)` the value of column `c` ({@link ROLLUP_COLUMNS}
 * order) of row `i`. sql/rollups.ts reads them off the flush's objects, so a column is only built for
 * the rows that are sent; {@link rollupColumnsSource} wraps ready-made column arrays.
 */
export interface RollupSource {
  readonly n: number;
  value(c: number, i: number): unknown;
}

/** A {@link RollupSource} over 30 column arrays in {@link ROLLUP_COLUMNS} order. */
export const rollupColumnsSource = (columns: readonly (readonly unknown[])[]): RollupSource => {
  if (columns.length !== ROLLUP_COLUMNS.length) throw new Error('rollup columns out of step');
  return { n: columns[0]!.length, value: (c, i) => columns[c]![i] };
};

/**
 * What the memo keeps of a vehicle-day's written rollup rows: per row, its key (company and hour, one
 * integer: {@link rowKey}), a 53-bit signature of its numbers (columns 4-28, {@link rowSignature}) and
 * its tyre JSON,
 * in two arrays of doubles in the order the rows were written. ~650 bytes for a vehicle-day of 25 rows.
 *
 * It kept each row's 25 values before (an array of doubles, compared value by value): ~7 KB per
 * vehicle-day, ~7 MB of live heap at 1,000 vehicles by the evening (heap snapshot of bench:soak's
 * PGlite day), twice that at 23:00 when the next day's rows start. Before that it kept a JSON text
 * signature of every row, and before that nothing (every row was sent).
 *
 * Two rows with different values get the same signature with a chance of about 2^-53; the flush would
 * then skip that change. The current hour's row and the daily row change again with the next record
 * (their `records` count) and are written then; another row would stay as written until its
 * vehicle-day is written without the memo (a restart, another node). At 1,000 vehicles a flush compares
 * ~10^5 rows a minute: one such skip in ~10^5 years of running.
 */
interface RollupMemo {
  readonly keys: number[];
  readonly sigs: number[];
  /**
   * The tyre JSON as written, compared as text (the text is sql/rollups.ts's cached string of the
   * readings, so this holds a reference, not a copy): hashing it would read every character of every
   * row with tyre sensors at each flush.
   */
  readonly tyres: unknown[];
}
const FIRST_VALUE = 4;
const TYRES = ROLLUP_COLUMNS.length - 1;

/** A row's key (company id, hour -1..23) as one integer, or null when it is not one of those. */
function rowKey(src: RollupSource, i: number): number | null {
  const c = src.value(0, i);
  const h = src.value(3, i);
  if (typeof c !== 'number' || typeof h !== 'number' || !Number.isInteger(h) || h < -1 || h > 30) return null;
  const k = c * 32 + h + 1;
  return Number.isSafeInteger(k) && c >= 0 ? k : null;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
/** One 32-bit word into a lane of the signature (MurmurHash3's block step). */
function mixWord(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}
/** MurmurHash3's finaliser. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 53-bit signature of a row's numeric values (columns 4-28), equal for rows the old value-by-value
 * comparison called equal: null is its own value, every NaN is one value, -0 is 0. The tyre JSON is
 * kept and compared as text beside it (`RollupMemo.tyres`). Two lanes of MurmurHash3's mixing with different seeds, the second fed each value's
 * words the other way round; 32 bits of one and 21 of the other make the signature.
 */
function rowSignature(src: RollupSource, i: number): number {
  let a = 0x3c6ef372;
  let b = 0x7f4a7c15;
  for (let c = FIRST_VALUE; c < TYRES; c++) {
    const v = src.value(c, i);
    let lo: number;
    let hi: number;
    if (v === null || v === undefined) {
      lo = 0x6e756c6c; // "null"
      hi = 0x7ff00001; // a NaN payload no arithmetic produces
    } else {
      const n = Number(v);
      F64[0] = Number.isNaN(n) ? NaN : n === 0 ? 0 : n;
      lo = U32[0]!;
      hi = U32[1]!;
    }
    a = mixWord(mixWord(a, lo), hi);
    b = mixWord(mixWord(b, hi ^ c), lo);
  }
  return avalanche(a) + (avalanche(b) & 0x1fffff) * 0x1_0000_0000;
}

/**
 * Makes the stored rollup rows of the vehicle-days `del` equal to the rows of `src` (one set per
 * vehicle-day, at most one row per key), writing only the rows that differ. Same result as `DELETE` of
 * the vehicle-days + `INSERT` of the rows. `src` may be the 30 column arrays.
 */
export async function writeChangedRollups(
  db: Queryable,
  del: { vehicle: readonly number[]; day: readonly string[] },
  source: RollupSource | readonly (readonly unknown[])[],
  batch?: WriteBatch,
): Promise<void> {
  const src = Array.isArray(source)
    ? rollupColumnsSource(source as readonly (readonly unknown[])[])
    : (source as RollupSource);
  let send: number[] | null = null; // row indexes to upsert (null: all)
  let delIdx: number[] | null = null; // vehicle-days whose stored rows may include ones not in the set
  if (batch) {
    const rowsOf = new Map<string, number[]>();
    for (let i = 0; i < src.n; i++) {
      const vd = `${String(src.value(1, i))}|${String(src.value(2, i))}`;
      let idx = rowsOf.get(vd);
      if (!idx) rowsOf.set(vd, (idx = []));
      idx.push(i);
    }
    send = [];
    delIdx = [];
    for (let k = 0; k < del.vehicle.length; k++) {
      const vd = `${del.vehicle[k]}|${del.day[k]}`;
      const known = batch.memo.rollups.get(vd);
      const rows = rowsOf.get(vd) ?? [];
      const keys: number[] = [];
      const sigs: number[] = [];
      const tyres: unknown[] = [];
      let memoable = true;
      for (const i of rows) {
        const key = rowKey(src, i);
        if (key === null) memoable = false;
        const sig = rowSignature(src, i);
        const ty = src.value(TYRES, i) ?? null;
        const at = known && key !== null ? findKey(known.keys, key, keys.length) : -1;
        if (at < 0 || known!.sigs[at] !== sig || !Object.is(known!.tyres[at], ty)) send.push(i);
        keys.push(key ?? -1);
        sigs.push(sig);
        tyres.push(ty);
      }
      // Stored rows not in the set are deleted; with a memo, only when it knew a row the set has not.
      if (!known || !memoable || known.keys.some((key) => !keys.includes(key))) delIdx.push(k);
      batch.stageRollups(vd, memoable ? { keys, sigs, tyres } : null);
    }
  }
  if (delIdx === null || delIdx.length > 0) {
    const pick = <T>(xs: readonly T[]) => (delIdx ? delIdx.map((k) => xs[k]!) : xs);
    const key = (c: number) => Array.from({ length: src.n }, (_, i) => src.value(c, i));
    await db.query(
      `DELETE FROM vehicle_rollups r USING unnest($1::int[], $2::date[]) AS k(v, d)
       WHERE r.vehicle_id = k.v AND r.day = k.d
         AND NOT EXISTS (
           SELECT 1 FROM unnest($3::int[], $4::int[], $5::date[], $6::smallint[]) AS u(c, v, d, h)
           WHERE u.v = r.vehicle_id AND u.d = r.day AND u.h = r.hour AND u.c = r.company_id)`,
      [pick(del.vehicle), pick(del.day), key(0), key(1), key(2), key(3)],
    );
  }
  const idx = send ?? Array.from({ length: src.n }, (_, i) => i);
  if (idx.length > 0)
    await db.query(
      ROLLUP_UPSERT,
      ROLLUP_COLUMNS.map((_, c) => idx.map((i) => src.value(c, i))),
    );
}

/** The trip rows of a flush, column by column (sql-store.ts builds them). */
export interface TripRowArrays {
  company: readonly number[];
  vehicle: readonly (number | null)[];
  dev: readonly number[];
  start: readonly number[];
  end: readonly number[];
  dist: readonly number[];
  data: readonly string[];
}

const SAME_TRIP = `t.device_id = u.d AND t.started_at = to_timestamp(u.s / 1000.0) AND t.company_id = u.c
  AND t.vehicle_id IS NOT DISTINCT FROM u.v AND t.ended_at IS NOT DISTINCT FROM to_timestamp(u.e / 1000.0)
  AND t.distance_m IS NOT DISTINCT FROM u.m AND t.data = u.j::jsonb`;
const TRIP_ROWS = `unnest($1::int[], $2::int[], $3::int[], $4::float8[], $5::float8[], $6::float8[], $7::text[])
  AS u(c, v, d, s, e, m, j)`;

/**
 * Makes the stored trips of the device-days `del` (device id, `data.day`) equal to `ins`, comparing
 * with the stored rows in the database: the path for a device-day this process has no memory of (the
 * worker role, the first flush of a day after a start). Same result as `DELETE` of the device-days +
 * `INSERT` of the rows, except that an unchanged trip keeps its row (and uuid).
 */
export async function writeChangedTrips(
  db: Queryable,
  del: { dev: readonly number[]; day: readonly string[] },
  ins: TripRowArrays,
): Promise<void> {
  if (del.dev.length === 0) return;
  const rows = [ins.company, ins.vehicle, ins.dev, ins.start, ins.end, ins.dist, ins.data];
  await db.query(
    `DELETE FROM device_trips t USING unnest($8::int[], $9::text[]) AS k(dev, day)
     WHERE t.device_id = k.dev AND t.data->>'day' = k.day
       AND NOT EXISTS (SELECT 1 FROM ${TRIP_ROWS} WHERE ${SAME_TRIP})`,
    [...rows, del.dev, del.day],
  );
  if (ins.dev.length === 0) return;
  await db.query(
    `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
     SELECT c, v, d, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0), m, j::jsonb
     FROM ${TRIP_ROWS}
     WHERE NOT EXISTS (
       SELECT 1 FROM device_trips t
       WHERE t.device_id = u.d AND t.data->>'day' = u.j::jsonb->>'day' AND ${SAME_TRIP})`,
    rows,
  );
}

/**
 * The trip writes of device-days whose stored rows this process knows ({@link diffByStart}): the trips
 * keyed by (device, day, start) to delete (vanished or changed) and the rows to insert (new or changed).
 * By (device_id, started_at): a trip's start identifies it within its device (migration 0029). The day is
 * compared as `data->'day'` (jsonb), not `data->>'day'`, so the planner cannot take the
 * (device_id, data->>'day') index instead, which visits every trip of the device-day per key: it did
 * until the table was first analysed, and the statement's cost grew with the day's trips.
 */
export async function writeKnownTrips(
  db: Queryable,
  gone: { dev: readonly number[]; day: readonly string[]; start: readonly number[] },
  ins: TripRowArrays,
): Promise<void> {
  if (gone.dev.length > 0)
    await db.query(
      `DELETE FROM device_trips t USING unnest($1::int[], $2::text[], $3::float8[]) AS k(dev, day, s)
       WHERE t.device_id = k.dev AND t.started_at = to_timestamp(k.s / 1000.0) AND t.data->'day' = to_jsonb(k.day)`,
      [gone.dev, gone.day, gone.start],
    );
  if (ins.dev.length > 0)
    await db.query(
      `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
       SELECT c, v, d, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0), m, j::jsonb FROM ${TRIP_ROWS}`,
      [ins.company, ins.vehicle, ins.dev, ins.start, ins.end, ins.dist, ins.data],
    );
}

/** The stop and idle rows of a flush (device_stops, migration 0030), column by column (sql/trips.ts). */
export interface StopRowArrays {
  company: number[];
  vehicle: (number | null)[];
  dev: number[];
  /** The device-day whose detection holds the period. */
  day: string[];
  kind: ('stop' | 'idle')[];
  start: number[];
  end: number[];
  minutes: number[];
  lat: number[];
  lon: number[];
}

const STOP_ROWS = `unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::float8[],
    $8::float8[], $9::float8[], $10::float8[]) AS u(c, v, d, dy, k, s, e, mi, la, lo)`;
const STOP_UPSERT = `INSERT INTO device_stops (company_id, vehicle_id, device_id, day, kind, started_at, ended_at, minutes,
    latitude, longitude)
  SELECT c, v, d, dy::date, k, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0), mi, la, lo FROM ${STOP_ROWS}
  ON CONFLICT (device_id, day, kind, started_at) DO UPDATE SET company_id = EXCLUDED.company_id,
    vehicle_id = EXCLUDED.vehicle_id, ended_at = EXCLUDED.ended_at, minutes = EXCLUDED.minutes,
    latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude
  WHERE (device_stops.company_id, device_stops.vehicle_id, device_stops.ended_at, device_stops.minutes,
         device_stops.latitude, device_stops.longitude)
    IS DISTINCT FROM (EXCLUDED.company_id, EXCLUDED.vehicle_id, EXCLUDED.ended_at, EXCLUDED.minutes,
         EXCLUDED.latitude, EXCLUDED.longitude)`;

/**
 * Makes the stored stops and idling periods of the device-days `del` equal to `all`, comparing with the
 * stored rows in the database (a device-day this process has no memory of): a period is keyed by
 * (device, day, kind, start), so the open idle period of an idling vehicle is one row updated in place
 * at each flush (PostgreSQL can keep that update on its page: no indexed column changes) and a closed
 * one is not written again.
 */
export async function writeChangedStops(
  db: Queryable,
  del: { dev: readonly number[]; day: readonly string[] },
  all: StopRowArrays,
): Promise<void> {
  if (del.dev.length === 0) return;
  const cols = stopColumns(lastOfEachKey(all));
  await db.query(
    `DELETE FROM device_stops t USING unnest($11::int[], $12::text[]) AS x(dev, day)
     WHERE t.device_id = x.dev AND t.day = x.day::date
       AND NOT EXISTS (SELECT 1 FROM ${STOP_ROWS}
         WHERE u.d = t.device_id AND u.dy::date = t.day AND u.k = t.kind AND to_timestamp(u.s / 1000.0) = t.started_at)`,
    [...cols, del.dev, del.day],
  );
  if (cols[0].length > 0) await db.query(STOP_UPSERT, cols);
}

/**
 * The stop writes of device-days whose stored rows this process knows ({@link diffByStart}): the periods
 * keyed by (device, day, kind, start) that vanished, and the new or changed ones, upserted.
 */
export async function writeKnownStops(
  db: Queryable,
  gone: { dev: readonly number[]; day: readonly string[]; kind: readonly string[]; start: readonly number[] },
  rows: StopRowArrays,
): Promise<void> {
  if (gone.dev.length > 0)
    await db.query(
      `DELETE FROM device_stops t USING unnest($1::int[], $2::text[], $3::text[], $4::float8[]) AS x(dev, day, k, s)
       WHERE t.device_id = x.dev AND t.day = x.day::date AND t.kind = x.k AND t.started_at = to_timestamp(x.s / 1000.0)`,
      [gone.dev, gone.day, gone.kind, gone.start],
    );
  if (rows.dev.length > 0) await db.query(STOP_UPSERT, stopColumns(rows));
}

const stopColumns = (rows: StopRowArrays) =>
  [
    rows.company,
    rows.vehicle,
    rows.dev,
    rows.day,
    rows.kind,
    rows.start,
    rows.end,
    rows.minutes,
    rows.lat,
    rows.lon,
  ] as const;

/**
 * The rows with one per (device, day, kind, start), the last of each: a detection never holds two
 * periods of one kind starting together, but if it did, the upsert would fail the flush ("cannot affect
 * row a second time") at every retry.
 */
function lastOfEachKey(rows: StopRowArrays): StopRowArrays {
  const at = new Map<string, number>();
  for (let i = 0; i < rows.dev.length; i++)
    at.set(`${rows.dev[i]}|${rows.day[i]}|${rows.kind[i]}|${rows.start[i]}`, i);
  if (at.size === rows.dev.length) return rows;
  const keep = [...at.values()].sort((a, b) => a - b);
  const pick = <T>(xs: T[]) => keep.map((i) => xs[i]!);
  return {
    company: pick(rows.company),
    vehicle: pick(rows.vehicle),
    dev: pick(rows.dev),
    day: pick(rows.day),
    kind: pick(rows.kind),
    start: pick(rows.start),
    end: pick(rows.end),
    minutes: pick(rows.minutes),
    lat: pick(rows.lat),
    lon: pick(rows.lon),
  };
}

/**
 * What the memo keeps of a device-day's trips, stops and idling periods: the detection's items as they
 * were written (the objects themselves) and the row values shared by all of them.
 *
 * The folds never change an item once it is closed (incremental/trip-fold.ts): the next flush's
 * detection holds the very same objects for the day's closed trips and periods, and new objects only
 * for the open ones and what closed since. So {@link diffByStart} finds the unchanged items by identity,
 * one pointer comparison each, and builds rows only for the few after them. Before (session 14's
 * allocation profile at simulated hour 21 of bench:soak), each flush built every row of the device-day
 * with a text key and a text signature and compared them with the memo's: ~1 GB a minute, growing with
 * the day's trips and stops, and the main part of what the cost per record still grew through the day.
 */
export interface WrittenDay {
  readonly company: number;
  readonly vehicle: number | null;
  readonly imei: string;
  readonly trips: readonly Trip[];
  readonly stops: readonly Stop[];
  readonly idles: readonly IdlePeriod[];
}

/**
 * The difference between the items of a device-day as written (`was`) and as they are now (`now`), both
 * ordered by start time, an item identified by its start: `put` the new and changed items of `now`,
 * `changed` the written items they replace, `gone` the written items whose start is no longer there.
 * Items identical (the same object) at the same place are skipped without a look; items that are not
 * are compared with `same`. Null when `now` is not strictly ordered by start (two items could share a
 * key): the caller then writes the day by comparing with the stored rows.
 */
export function diffByStart<T extends { readonly startTime: number }>(
  was: readonly T[],
  now: readonly T[],
  same: (a: T, b: T) => boolean,
): { put: T[]; changed: T[]; gone: T[] } | null {
  let p = 0;
  while (p < was.length && p < now.length && was[p] === now[p]) p++;
  const put: T[] = [];
  const changed: T[] = [];
  const gone: T[] = [];
  let last = p > 0 ? now[p - 1]!.startTime : -Infinity;
  for (let j = p; j < now.length; j++) {
    if (!(now[j]!.startTime > last)) return null;
    last = now[j]!.startTime;
  }
  let i = p;
  let j = p;
  while (i < was.length || j < now.length) {
    const w = was[i];
    const n = now[j];
    if (n === undefined || (w !== undefined && w.startTime < n.startTime)) {
      gone.push(w!);
      i++;
    } else if (w === undefined || n.startTime < w.startTime) {
      put.push(n);
      j++;
    } else {
      if (w !== n && !same(w, n)) {
        put.push(n);
        changed.push(w);
      }
      i++;
      j++;
    }
  }
  return { put, changed, gone };
}

/**
 * What this process last wrote: each device-day's trips and periods ({@link WrittenDay}) and each
 * vehicle-day's rollup values per row, so a flush sends only the rows that changed. Only for a process
 * that is the one writer of those rows: the embedded server (in the scale-out worker role a partition
 * can move to another node and back, and what that node wrote would not be known here, so the worker
 * compares with the stored rows instead). Updated only after the flush's transaction committed
 * ({@link WriteBatch}); days more than {@link KEEP_DAYS} before the newest day written are forgotten.
 */
export class WrittenRows {
  /** By 'vehicle id|day'. */
  readonly rollups = new Map<string, RollupMemo>();
  /** By 'device id|day'. */
  readonly days = new Map<string, WrittenDay>();
  /** A vehicle-day's fuel events as written, by 'vehicle id|day' (sql/rollups.ts). */
  readonly fuel = new Map<string, readonly FuelEvent[]>();
  private newest = '';
  begin(): WriteBatch {
    return new WriteBatch(this);
  }
  /** @internal */
  apply(staged: readonly Staged[]): void {
    for (const st of staged) {
      if (st.kind === 'rollups') {
        if (st.set) this.rollups.set(st.key, st.set);
        else this.rollups.delete(st.key);
      } else if (st.kind === 'fuel') this.fuel.set(st.key, st.events);
      else if (st.day) this.days.set(st.key, st.day);
      else this.days.delete(st.key);
      const day = st.key.slice(st.key.indexOf('|') + 1);
      if (day > this.newest) {
        this.newest = day;
        this.prune();
      }
    }
  }
  private prune(): void {
    const cut = new Date(Date.parse(`${this.newest}T00:00:00Z`) - KEEP_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    for (const m of [this.rollups, this.days, this.fuel] as Map<string, unknown>[])
      for (const key of m.keys()) if (key.slice(key.indexOf('|') + 1) < cut) m.delete(key);
  }
}
export const KEEP_DAYS = 3;

/** Where `key` is in `keys` (rows come in the same order flush after flush: `hint` is tried first). */
function findKey(keys: readonly number[], key: number, hint: number): number {
  return keys[hint] === key ? hint : keys.indexOf(key);
}
type Staged =
  | { kind: 'rollups'; key: string; set: RollupMemo | null }
  | { kind: 'days'; key: string; day: WrittenDay | null }
  | { kind: 'fuel'; key: string; events: readonly FuelEvent[] };

/** The rows one flush wrote, applied to the memo once its transaction committed. */
export class WriteBatch {
  private readonly staged: Staged[] = [];
  constructor(readonly memo: WrittenRows) {}
  /** `set` null: the memo forgets the vehicle-day (its rows had keys it cannot keep). */
  stageRollups(key: string, set: RollupMemo | null): void {
    this.staged.push({ kind: 'rollups', key, set });
  }
  stageFuel(key: string, events: readonly FuelEvent[]): void {
    this.staged.push({ kind: 'fuel', key, events });
  }
  /** `day` null: the memo forgets the device-day (its next write compares with the stored rows). */
  stageDay(key: string, day: WrittenDay | null): void {
    this.staged.push({ kind: 'days', key, day });
  }
  commit(): void {
    this.memo.apply(this.staged);
  }
}
