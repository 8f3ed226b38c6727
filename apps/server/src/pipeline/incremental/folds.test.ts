import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortAndDedupe, type PositionRecord } from '../common/types';
import { addDays, localDate } from '../common/zoned-time';
import { computeDayRollups, defaultRollupOptions, rollupWindow } from '../rollups/rollups';
import { dayWindow, defaultTripConfig, tripsForDay } from '../trips/trips';
import { newRollupFold, rollupFoldPush, rollupFoldResult } from './rollup-fold';
import { newTripFold, tripFoldPush, tripFoldResult, tripFoldSettledKey } from './trip-fold';
import { randomStream } from './streams';

/**
 * Property: the folds give exactly what the batch functions (the oracle: tripsForDay and
 * computeDayRollups, which the pipeline used to run on every flush) give for the same records, after
 * every prefix of a stream, for random streams over several days (midnights inside trips, gaps,
 * ignition flapping, GPS jumps, invalid fixes, odometer resets, fuel levels with refuels and drops).
 * Deterministic: fixed fast-check seed, and each stream comes from its own integer seed.
 */

const ZONES = ['Asia/Dubai', 'Europe/London', 'America/New_York'];

/** What the compared results held (so a run that compares only empty days cannot pass unnoticed). */
const seen = { trips: 0, stops: 0, idles: 0, fuelEvents: 0, fuelUsed: 0, midnightTrips: 0 };

function days(records: readonly PositionRecord[], tz: string): string[] {
  const first = localDate(records[0]!.time, tz);
  const last = localDate(records[records.length - 1]!.time, tz);
  const out = [addDays(first, -1)];
  for (let d = first; d <= addDays(last, 1); d = addDays(d, 1)) out.push(d);
  return out;
}

function check(seed: number, zoneIdx: number, hours: number, cuts: number, ignitionAfterH?: number): void {
  const tz = ZONES[zoneIdx % ZONES.length]!;
  // 2026-03-28 crosses the European and (a fortnight earlier) the US DST change: start near it.
  const start = Date.UTC(2026, 2, 27, 18, 0) + (seed % 5) * 3_600_000;
  const ignitionFrom = ignitionAfterH === undefined ? undefined : start + ignitionAfterH * 3_600_000;
  const stream = sortAndDedupe(randomStream(seed, { start, hours, ignitionFrom }));
  if (stream.length === 0) return;
  const opts = { ...defaultRollupOptions, timeZone: tz };
  const ds = days(stream, tz);
  const trips = new Map(ds.map((d) => [d, newTripFold(d, tz)]));
  const rollups = new Map(ds.map((d) => [d, newRollupFold('veh-1', d, opts)]));
  const cutAt = new Set<number>();
  for (let k = 1; k <= cuts; k++) cutAt.add(Math.floor((stream.length * k) / (cuts + 1)));
  cutAt.add(stream.length);
  for (let i = 0; i < stream.length; i++) {
    const r = stream[i]!;
    for (const f of trips.values()) tripFoldPush(f, r);
    for (const f of rollups.values()) rollupFoldPush(f, r, opts);
    if (!cutAt.has(i + 1)) continue;
    const prefix = stream.slice(0, i + 1);
    for (const d of ds) {
      const w = dayWindow(d, tz);
      const want = tripsForDay(
        prefix.filter((x) => x.time >= w.from && x.time < w.to),
        d,
        tz,
      );
      seen.trips += want.trips.length;
      seen.stops += want.stops.length;
      seen.idles += want.idles.length;
      seen.midnightTrips += want.trips.filter((t) => localDate(t.endTime, tz) !== d).length;
      expect(tripFoldResult(trips.get(d)!), `trips ${tz} ${d} seed ${seed} prefix ${i + 1}`).toEqual(want);
      const rw = rollupWindow(d, opts);
      const wantR = computeDayRollups(
        'veh-1',
        prefix.filter((x) => x.time >= rw.from && x.time < rw.to),
        d,
        opts,
      );
      seen.fuelEvents += wantR.fuelEvents.length;
      if (wantR.daily.fuelUsedL > 0) seen.fuelUsed++;
      expect(
        rollupFoldResult(rollups.get(d)!, opts),
        `rollups ${tz} ${d} seed ${seed} prefix ${i + 1}`,
      ).toEqual(wantR);
    }
  }
}

describe('incremental folds equal the batch computation', () => {
  it('on random multi-day streams, after every checked prefix', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.nat(2),
        fc.integer({ min: 6, max: 50 }),
        (seed, z, h) => check(seed, z, h, 3),
      ),
      { seed: 20261125, numRuns: 20 },
    );
  }, 300_000);

  it('after many prefixes of a long stream of one device', () => {
    check(7, 0, 26, 60);
  }, 300_000);

  // The fold lets the motion mode go once a record has an ignition reading (trip-fold.ts,
  // stepAccepted): a device that starts reporting ignition within the stream, after motion trips,
  // stops and a midnight, must still give the batch result on every day before and after the turn.
  it('when the device reports ignition only from some hour of the stream on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.nat(2),
        fc.integer({ min: 2, max: 40 }),
        (seed, z, turn) => check(seed, z, 48, 4, turn),
      ),
      { seed: 20261128, numRuns: 12 },
    );
  }, 300_000);

  it('compared non-trivial results', () => {
    for (const v of Object.values(seen)) expect(v).toBeGreaterThan(0);
  });
});

/**
 * The flush skips a trip day while its settled key stays the same (tripFoldSettledKey): after every
 * record of random streams, a key equal to the one last seen must mean an equal result. Also counts
 * how often a key was there to skip with, so a key that is never given cannot pass.
 */
describe('the settled key of a trip fold', () => {
  it('stands for an unchanged result, after every record of random streams', () => {
    let skipped = 0;
    let computed = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.nat(2),
        fc.integer({ min: 6, max: 60 }),
        (seed, z, h) => {
          const tz = ZONES[z % ZONES.length]!;
          const start = Date.UTC(2026, 2, 27, 18, 0) + (seed % 5) * 3_600_000;
          const stream = sortAndDedupe(randomStream(seed, { start, hours: h }));
          if (stream.length === 0) return;
          const ds = days(stream, tz);
          const folds = new Map(ds.map((d) => [d, newTripFold(d, tz)]));
          const last = new Map<string, { key: string; result: ReturnType<typeof tripFoldResult> }>();
          for (const r of stream) {
            for (const d of ds) {
              const f = folds.get(d)!;
              tripFoldPush(f, r);
              const key = tripFoldSettledKey(f);
              const prev = last.get(d);
              if (key !== null && prev?.key === key) {
                skipped++;
                expect(tripFoldResult(f), `${tz} ${d} seed ${seed} at ${r.time}`).toEqual(prev.result);
                continue;
              }
              computed++;
              if (key === null) last.delete(d);
              else last.set(d, { key, result: tripFoldResult(f) });
            }
          }
        },
      ),
      { seed: 20261127, numRuns: 40 },
    );
    expect(skipped).toBeGreaterThan(computed);
  }, 300_000);
});

/**
 * A fixed mode follows only itself (stepAccepted): the fold with `mode: 'ignition'` or `'motion'` must
 * still give what the batch function gives with the same setting, on streams with and without
 * ignition readings.
 */
describe('a trip fold with a fixed mode', () => {
  it.each(['ignition', 'motion'] as const)('%s equals the batch result', (mode) => {
    const cfg = { ...defaultTripConfig, mode };
    const tz = 'Asia/Dubai';
    let compared = 0;
    for (const seed of [3, 11, 29, 47, 83, 101]) {
      const stream = sortAndDedupe(randomStream(seed, { start: Date.UTC(2026, 2, 27, 18, 0), hours: 50 }));
      const ds = days(stream, tz);
      const folds = ds.map((d) => newTripFold(d, tz, cfg));
      for (const r of stream) for (const f of folds) tripFoldPush(f, r, cfg);
      for (const [k, d] of ds.entries()) {
        const w = dayWindow(d, tz, cfg);
        const want = tripsForDay(
          stream.filter((x) => x.time >= w.from && x.time < w.to),
          d,
          tz,
          cfg,
        );
        expect(tripFoldResult(folds[k]!, cfg), `${mode} seed ${seed} ${d}`).toEqual(want);
        compared += want.trips.length;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('what a trip fold keeps', () => {
  it('only closed items of its own day, and the last trip (the stop before the next one starts at its end)', () => {
    const tz = 'Asia/Dubai';
    let kept = 0;
    for (const seed of [5, 21, 77]) {
      const stream = sortAndDedupe(randomStream(seed, { start: Date.UTC(2026, 2, 27, 18, 0), hours: 72 }));
      const ds = days(stream, tz);
      const folds = ds.map((d) => newTripFold(d, tz));
      for (const r of stream) for (const f of folds) tripFoldPush(f, r);
      for (const f of folds) {
        const on = (x: { startTime: number }) => x.startTime >= f.dayStart && x.startTime < f.dayEnd;
        // In auto mode, once ignition was seen the motion mode is let go (stepAccepted).
        if (f.hasIgnition)
          expect(f.mot).toEqual({ cand: null, after: [], afterGapFree: true, trips: [], stops: [] });
        for (const m of [f.ign, f.mot]) {
          expect(m.stops.every(on)).toBe(true);
          expect(m.trips.slice(0, -1).every(on)).toBe(true);
          kept += m.trips.length + m.stops.length;
        }
        expect(f.idles.every(on)).toBe(true);
      }
    }
    expect(kept).toBeGreaterThan(0);
  });
});
