import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../../test/db';
import type { Storage } from '../../storage/storage';
import {
  writeChangedRollups as rollupsPlain,
  writeChangedStops as stopsPlain,
  writeChangedTrips as tripsPlain,
  WrittenRows,
  type StopRowArrays,
  type TripRowArrays,
  type WriteBatch,
} from './write-changed';

/**
 * The flush's writes keep the rows that did not change (same physical row: `ctid`, and for trips the
 * uuid) and leave exactly the new set, as the DELETE + INSERT they replace did.
 */
let storage: Storage;
let company: number;
let device: number;
let vehicle: number;
beforeAll(async () => {
  storage = await openTestStorage('write_changed');
  const db = storage.db;
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Acme') RETURNING id`,
  );
  company = c!.id;
  const [d] = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042441099', 'teltonika') RETURNING id`,
    [company],
  );
  device = d!.id;
  const [v] = await db.query<{ id: number }>(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, 'W 1', '356307042441099') RETURNING id`,
    [company],
  );
  vehicle = v!.id;
});
afterAll(async () => {
  await storage.close();
});

const DAY = '2026-06-02';
const T = Date.UTC(2026, 5, 2, 4, 0);
const trip = (k: number, endMin: number, extra: Record<string, unknown> = {}) => ({
  start: T + k * 3_600_000,
  end: T + k * 3_600_000 + endMin * 60_000,
  dist: 1000 * endMin,
  data: JSON.stringify({ day: DAY, n: k, ...extra }),
});
const arrays = (ts: ReturnType<typeof trip>[]): TripRowArrays => ({
  company: ts.map(() => company),
  vehicle: ts.map(() => vehicle),
  dev: ts.map(() => device),
  start: ts.map((t) => t.start),
  end: ts.map((t) => t.end),
  dist: ts.map((t) => t.dist),
  data: ts.map((t) => t.data),
});
const storedTrips = () =>
  storage.db.query<{ ctid: string; uuid: string; n: number; ended: number; dist: number }>(
    `SELECT ctid::text, uuid::text, (data->>'n')::int AS n, (extract(epoch FROM ended_at) * 1000)::float8 AS ended,
            distance_m AS dist
     FROM device_trips WHERE device_id = $1 AND data->>'day' = $2 ORDER BY started_at`,
    [device, DAY],
  );

const period = (kind: 'stop' | 'idle', k: number, endMin: number, day = DAY) => ({
  kind,
  day,
  start: T + k * 3_600_000,
  end: T + k * 3_600_000 + endMin * 60_000,
  minutes: endMin,
});
const stopArrays = (ps: ReturnType<typeof period>[]): StopRowArrays => ({
  company: ps.map(() => company),
  vehicle: ps.map(() => vehicle),
  dev: ps.map(() => device),
  day: ps.map((p) => p.day),
  kind: ps.map((p) => p.kind),
  start: ps.map((p) => p.start),
  end: ps.map((p) => p.end),
  minutes: ps.map((p) => p.minutes),
  lat: ps.map(() => 25.2),
  lon: ps.map(() => 55.3),
});
const storedStops = () =>
  storage.db.query<{
    ctid: string;
    id: number;
    kind: string;
    day: string;
    start: number;
    end: number;
    minutes: number;
  }>(
    `SELECT ctid::text, id::int, kind, day::text, (extract(epoch FROM started_at) * 1000)::float8 AS start,
            (extract(epoch FROM ended_at) * 1000)::float8 AS "end", minutes
     FROM device_stops WHERE device_id = $1 ORDER BY day, kind, started_at`,
    [device],
  );

/** 30 rollup arrays in the order writeChangedRollups takes them (only a few columns vary here). */
const rollupColumns = (rows: { hour: number; distance: number }[]) => {
  const n = rows.length;
  const fill = (v: unknown) => Array.from({ length: n }, () => v);
  return [
    fill(company),
    fill(vehicle),
    fill(DAY),
    rows.map((r) => r.hour),
    rows.map((r) => r.distance),
    ...Array.from({ length: 20 }, () => fill(0)), // driving_s .. temp_count (temp_min/max 0 too)
    fill(T),
    fill(0),
    fill(null),
    fill(null),
    fill(null),
  ];
};
const storedRollups = () =>
  storage.db.query<{ ctid: string; hour: number; distance: number }>(
    `SELECT ctid::text, hour, distance_m AS distance FROM vehicle_rollups WHERE vehicle_id = $1 AND day = $2 ORDER BY hour`,
    [vehicle, DAY],
  );

// Each case runs twice: comparing with the stored rows (worker role), and with this process's memo of
// what it wrote (embedded), the batch committed after each write as the store does after its transaction.
describe.each([
  ['compared with the stored rows', null],
  ['with the memo of what was written', new WrittenRows()],
] as const)('writing only the rows that changed (%s)', (_name, memo) => {
  const withBatch = async (fn: (batch: WriteBatch | undefined) => Promise<void>) => {
    const batch = memo?.begin();
    await fn(batch);
    batch?.commit();
  };
  const writeChangedRollups = (
    db: Storage['db'],
    del: { vehicle: number[]; day: string[] },
    cols: readonly (readonly unknown[])[],
  ) => withBatch((b) => rollupsPlain(db, del, cols, b));
  it('rollups: unchanged hours are not rewritten, changed ones updated, missing ones deleted', async () => {
    const del = { vehicle: [vehicle], day: [DAY] };
    await writeChangedRollups(
      storage.db,
      del,
      rollupColumns([
        { hour: -1, distance: 30 },
        { hour: 7, distance: 10 },
        { hour: 8, distance: 20 },
      ]),
    );
    const first = await storedRollups();
    expect(first.map((r) => [r.hour, r.distance])).toEqual([
      [-1, 30],
      [7, 10],
      [8, 20],
    ]);
    await writeChangedRollups(
      storage.db,
      del,
      rollupColumns([
        { hour: -1, distance: 35 },
        { hour: 8, distance: 25 },
        { hour: 9, distance: 0 },
      ]),
    );
    const second = await storedRollups();
    expect(second.map((r) => [r.hour, r.distance])).toEqual([
      [-1, 35],
      [8, 25],
      [9, 0],
    ]);
    // Same set again: nothing written (the physical rows are the same).
    await writeChangedRollups(
      storage.db,
      del,
      rollupColumns([
        { hour: -1, distance: 35 },
        { hour: 8, distance: 25 },
        { hour: 9, distance: 0 },
      ]),
    );
    expect((await storedRollups()).map((r) => r.ctid)).toEqual(second.map((r) => r.ctid));
    // A null that becomes 0 (fuel level) and tyre readings that come are changes, and are written.
    const daily = async () =>
      (
        await storage.db.query<{ pct: number | null; tyres: unknown }>(
          `SELECT fuel_level_pct AS pct, tyres FROM vehicle_rollups WHERE vehicle_id = $1 AND day = $2 AND hour = -1`,
          [vehicle, DAY],
        )
      )[0];
    const cols = rollupColumns([{ hour: -1, distance: 35 }]);
    await writeChangedRollups(storage.db, del, cols);
    cols[27] = [0];
    await writeChangedRollups(storage.db, del, cols);
    expect(await daily()).toEqual({ pct: 0, tyres: null });
    cols[29] = ['{"FL":{"p":240,"t":30,"at":1}}'];
    await writeChangedRollups(storage.db, del, cols);
    expect(await daily()).toEqual({ pct: 0, tyres: { FL: { p: 240, t: 30, at: 1 } } });
    await writeChangedRollups(storage.db, del, rollupColumns([]));
    expect(await storedRollups()).toEqual([]);
  });
});

// Trips and stops compared with the stored rows: the worker role, and a device-day the embedded
// server has no memory of (its memo path is tested with the folds' items in service/sql/trips-write.test.ts).
describe('writing only the trips and stops that changed', () => {
  const writeChangedTrips = tripsPlain;
  const writeChangedStops = stopsPlain;

  it('stops and idles: a closed period stays, the open one is updated in place, others come and go', async () => {
    const del = { dev: [device], day: [DAY] };
    // A row of another day of the device is never touched by this day's writes.
    await writeChangedStops(
      storage.db,
      { dev: [device], day: ['2026-06-01'] },
      stopArrays([period('stop', -20, 30, '2026-06-01')]),
    );
    await writeChangedStops(storage.db, del, stopArrays([period('stop', 0, 40), period('idle', 1, 5)]));
    const first = await storedStops();
    expect(first.map((s) => [s.day, s.kind, s.start, s.end, s.minutes])).toEqual([
      ['2026-06-01', 'stop', T - 20 * 3_600_000, T - 20 * 3_600_000 + 30 * 60_000, 30],
      [DAY, 'idle', T + 3_600_000, T + 3_600_000 + 5 * 60_000, 5],
      [DAY, 'stop', T, T + 40 * 60_000, 40],
    ]);
    // The open idle period grew: the same row (id) with its new end; the stop is not written at all.
    await writeChangedStops(storage.db, del, stopArrays([period('stop', 0, 40), period('idle', 1, 7.5)]));
    const second = await storedStops();
    expect(second.map((s) => [s.id, s.end, s.minutes])).toEqual([
      [first[0]!.id, first[0]!.end, 30],
      [first[1]!.id, T + 3_600_000 + 7.5 * 60_000, 7.5],
      [first[2]!.id, first[2]!.end, 40],
    ]);
    expect(second[2]!.ctid).toBe(first[2]!.ctid);
    // Same set again: nothing written.
    await writeChangedStops(storage.db, del, stopArrays([period('stop', 0, 40), period('idle', 1, 7.5)]));
    expect((await storedStops()).map((s) => s.ctid)).toEqual(second.map((s) => s.ctid));
    // The idle period vanished (a recompute found it too short), a new stop came; twice the same key
    // in one set keeps the last.
    await writeChangedStops(
      storage.db,
      del,
      stopArrays([period('stop', 0, 40), period('stop', 2, 10), period('stop', 2, 12)]),
    );
    expect((await storedStops()).map((s) => [s.day, s.kind, s.start, s.minutes])).toEqual([
      ['2026-06-01', 'stop', T - 20 * 3_600_000, 30],
      [DAY, 'stop', T, 40],
      [DAY, 'stop', T + 2 * 3_600_000, 12],
    ]);
    // A day without periods any more: all of that day gone, the other day kept.
    await writeChangedStops(storage.db, del, stopArrays([]));
    expect((await storedStops()).map((s) => s.day)).toEqual(['2026-06-01']);
    await writeChangedStops(storage.db, { dev: [device], day: ['2026-06-01'] }, stopArrays([]));
    expect(await storedStops()).toEqual([]);
  });

  it('trips: unchanged rows stay, a changed one is replaced, a gone one deleted, a new one added', async () => {
    const del = { dev: [device], day: [DAY] };
    await writeChangedTrips(storage.db, del, arrays([trip(0, 20), trip(1, 30), trip(2, 10)]));
    const first = await storedTrips();
    expect(first.map((t) => t.n)).toEqual([0, 1, 2]);
    // Trip 2 grew, trip 1 vanished (e.g. merged), trip 3 is new; trip 0 is the same.
    await writeChangedTrips(storage.db, del, arrays([trip(0, 20), trip(2, 15), trip(3, 5)]));
    const second = await storedTrips();
    expect(second.map((t) => [t.n, t.ended, t.dist])).toEqual([
      [0, T + 20 * 60_000, 20_000],
      [2, T + 2 * 3_600_000 + 15 * 60_000, 15_000],
      [3, T + 3 * 3_600_000 + 5 * 60_000, 5_000],
    ]);
    expect(second[0]!.ctid).toBe(first[0]!.ctid);
    expect(second[0]!.uuid).toBe(first[0]!.uuid);
    expect(second[1]!.uuid).not.toBe(first[2]!.uuid);
    // Only the JSON changed (stops of the day on the first trip): that row is rewritten.
    await writeChangedTrips(storage.db, del, arrays([trip(0, 20, { stops: [1] }), trip(2, 15), trip(3, 5)]));
    const third = await storedTrips();
    expect(third[0]!.uuid).not.toBe(second[0]!.uuid);
    expect(third.slice(1).map((t) => t.uuid)).toEqual(second.slice(1).map((t) => t.uuid));
    // A day without trips any more: all gone.
    await writeChangedTrips(storage.db, del, arrays([]));
    expect(await storedTrips()).toEqual([]);
  });
});

// The memo keeps a signature per row (write-changed.ts, `RollupMemo`): a change in any one value column
// must send the row, and what the old value-by-value comparison called equal must not. The statements
// are recorded, not run: the upsert's parameters are the rows sent.
describe('the rollup memo', () => {
  const sent = async (memo: WrittenRows, cols: readonly (readonly unknown[])[]) => {
    const upserts: unknown[][] = [];
    const db = {
      query: async (text: string, params?: readonly unknown[]) => {
        if (text.startsWith('INSERT INTO vehicle_rollups')) upserts.push([...(params![3] as unknown[])]);
        return [];
      },
    };
    const batch = memo.begin();
    await rollupsPlain(db, { vehicle: [1], day: [DAY] }, cols, batch);
    batch.commit();
    return upserts.flat(); // the hours of the rows sent
  };
  const base = (): unknown[][] => [
    [5, 5],
    [1, 1],
    [DAY, DAY],
    [-1, 7],
    ...Array.from({ length: 25 }, (_, c) => [c + 0.5, c * 3]),
    ['{"FL":{"p":240}}', null],
  ];
  const variants = (v: unknown): unknown[] => {
    if (v === null) return [0, Number.NaN, '{}'];
    if (typeof v === 'string') return [null, `${v} `, v.replace('240', '241')];
    const n = v as number;
    return [null, n + 1, n + Number.EPSILON * Math.max(1, Math.abs(n)) * 4, -n - 1, Number.NaN];
  };

  it('sends a row when any one of its values changes, and only that row', async () => {
    for (let c = 4; c < 30; c++)
      for (const row of [0, 1])
        for (const v of variants(base()[c]![row])) {
          const memo = new WrittenRows();
          expect(await sent(memo, base())).toEqual([-1, 7]);
          expect(await sent(memo, base())).toEqual([]);
          const cols = base();
          cols[c]![row] = v;
          expect(await sent(memo, cols), `column ${c}, row ${row}, ${String(v)}`).toEqual([row ? 7 : -1]);
          expect(await sent(memo, cols)).toEqual([]);
        }
  });

  it('sends nothing for the same values: -0 as 0, NaN as NaN, a tyre text equal by its characters', async () => {
    const memo = new WrittenRows();
    const cols = base();
    cols[6] = [Number.NaN, 0];
    await sent(memo, cols);
    const again = base();
    again[6] = [Number.NaN, -0];
    again[29] = [['{"FL":', '{"p":240}}'].join(''), null];
    expect(await sent(memo, again)).toEqual([]);
  });

  it('finds the rows by company and hour when they come in another order, and deletes a missing one', async () => {
    const memo = new WrittenRows();
    await sent(memo, base());
    const swapped = base().map((col) => [...col].reverse());
    const statements: string[] = [];
    const db = {
      query: async (text: string) => {
        statements.push(text.trim().split(/\s+/, 1)[0]!);
        return [];
      },
    };
    let batch = memo.begin();
    await rollupsPlain(db, { vehicle: [1], day: [DAY] }, swapped, batch);
    batch.commit();
    expect(statements).toEqual([]);
    batch = memo.begin();
    await rollupsPlain(
      db,
      { vehicle: [1], day: [DAY] },
      base().map((col) => col.slice(0, 1)),
      batch,
    );
    batch.commit();
    expect(statements).toEqual(['DELETE']);
  });
});
