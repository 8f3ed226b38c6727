import { describe, expect, it } from 'vitest';
import { TYRE_IO, type IoMap } from '../common/io';
import { sortAndDedupe, type PositionRecord } from '../common/types';
import { addDays, localDate } from '../common/zoned-time';
import {
  computeDayRollups,
  defaultRollupOptions,
  rollupAffectedDays,
  rollupWindow,
} from '../rollups/rollups';
import { affectedDays, dayWindow, defaultTripConfig, tripsForDay } from '../trips/trips';
import { DaysCovering, DeviceIncremental, FOLD_IO_IDS, foldRecord, newDeviceIncState } from './device';
import { newRollupFold, rollupFoldPush, rollupFoldResult } from './rollup-fold';
import { newTripFold, tripFoldPush, tripFoldResult } from './trip-fold';
import { randomStream } from './streams';

const ZONES = ['Asia/Dubai', 'Europe/London', 'America/New_York'];
/** Near the European and US daylight-saving changes of 2026 (local days of 23 and 25 hours). */
const START = Date.UTC(2026, 2, 27, 18, 0);

/** Random streams with tyre readings and IO the folds never read (what a Teltonika record carries). */
function richStream(seed: number, hours: number): PositionRecord[] {
  return sortAndDedupe(randomStream(seed, { start: START + (seed % 5) * 3_600_000, hours })).map((r, i) => {
    const io: Record<number, unknown> = { ...r.io };
    for (const id of [1, 9, 21, 66, 67, 68, 113, 179, 180, 200, 251, 10_500]) io[id] = (i * id) % 97;
    if (i % 3 === 0) {
      const t = Object.values(TYRE_IO)[i % Object.values(TYRE_IO).length]!;
      io[t.pressure] = { value: 700 + (i % 40) };
      io[t.temperature] = 20 + (i % 15);
    }
    return { ...r, io: io as IoMap };
  });
}

describe('the IO the folds keep', () => {
  it('is every element the folds and the batch functions read (records whose IO counts the reads)', () => {
    const read = new Set<string>();
    const counting = (r: PositionRecord): PositionRecord => ({
      ...r,
      io: new Proxy(r.io ?? {}, {
        get: (target, key) => {
          if (typeof key === 'string') read.add(key);
          return (target as Record<string, unknown>)[key as string];
        },
      }),
    });
    for (const seed of [3, 11, 29, 47]) {
      const tz = ZONES[seed % ZONES.length]!;
      const stream = richStream(seed, 40).map(counting);
      const opts = { ...defaultRollupOptions, timeZone: tz };
      const day = localDate(stream[Math.floor(stream.length / 2)]!.time, tz);
      const trip = newTripFold(day, tz);
      const roll = newRollupFold('veh-1', day, opts);
      for (const r of stream) {
        tripFoldPush(trip, r);
        rollupFoldPush(roll, r, opts);
      }
      tripFoldResult(trip);
      rollupFoldResult(roll, opts);
      const w = dayWindow(day, tz);
      tripsForDay(
        stream.filter((r) => r.time >= w.from && r.time < w.to),
        day,
        tz,
      );
      const rw = rollupWindow(day, opts);
      computeDayRollups(
        'veh-1',
        stream.filter((r) => r.time >= rw.from && r.time < rw.to),
        day,
        opts,
      );
    }
    expect(read.size).toBeGreaterThan(5);
    const kept = new Set(FOLD_IO_IDS.map(String));
    expect([...read].filter((k) => !kept.has(k))).toEqual([]);
  });

  it('cuts a record to those elements and leaves the rest of it as it was', () => {
    const r: PositionRecord = {
      id: 'r1',
      deviceId: 'd',
      time: 1,
      receivedAt: 2,
      lat: 25,
      lon: 55,
      speed: 3,
      ignition: null,
      io: { 16: 1000, 239: 1, 66: 12_000, 251: 0, 11001: { value: 720 } },
    };
    expect(foldRecord(r)).toEqual({ ...r, io: { 16: 1000, 239: 1, 11001: { value: 720 } } });
    const { io: _io, ...bare } = r;
    expect(foldRecord({ ...r, io: { 66: 1 } })).toEqual(bare);
    expect(foldRecord(bare)).toBe(bare);
  });

  it('gives the batch results from a device fed full records, and its saved state holds only them', () => {
    for (const seed of [5, 17]) {
      const tz = ZONES[seed % ZONES.length]!;
      const stream = richStream(seed, 50);
      const inc = new DeviceIncremental(newDeviceIncState('veh-1', 0), tz);
      const cut = Math.floor(stream.length * 0.7);
      for (const r of stream.slice(0, cut)) inc.push(r);
      const day = localDate(stream[cut - 1]!.time, tz);
      const opts = { ...defaultRollupOptions, timeZone: tz };
      const prefix = stream.slice(0, cut);
      for (const d of [addDays(day, -1), day]) {
        const w = dayWindow(d, tz);
        if (inc.hasTripDay(d))
          expect(inc.trips(d)).toEqual(
            tripsForDay(
              prefix.filter((r) => r.time >= w.from && r.time < w.to),
              d,
              tz,
            ),
          );
        const rw = rollupWindow(d, opts);
        if (inc.hasRollupDay(d))
          expect(inc.rollups(d)).toEqual(
            computeDayRollups(
              'veh-1',
              prefix.filter((r) => r.time >= rw.from && r.time < rw.to),
              d,
              opts,
            ),
          );
      }
      expect(inc.hasTripDay(day) && inc.hasRollupDay(day)).toBe(true);
      const ids = new Set<string>();
      JSON.stringify(inc.state, (key, value: unknown) => {
        if (key === 'io' && value && typeof value === 'object')
          for (const k of Object.keys(value)) ids.add(k);
        return value;
      });
      expect(ids.size).toBeGreaterThan(0);
      expect([...ids].filter((k) => !FOLD_IO_IDS.map(String).includes(k))).toEqual([]);
    }
  });
});

describe('the days a time touches (DaysCovering)', () => {
  it('are what affectedDays and rollupAffectedDays give, record after record and around midnights', () => {
    for (const tz of ZONES) {
      const trips = new DaysCovering(defaultTripConfig.lookaroundS * 1000, tz);
      const rollups = new DaysCovering(3_600_000, tz);
      const opts = { ...defaultRollupOptions, timeZone: tz };
      // Every 7 minutes over five days across the DST change, then each local midnight +- a second
      // and +- the reach (the edges of the cached spans), in time order and then out of it.
      const times: number[] = [];
      for (let t = START - 2 * 86_400_000; t < START + 3 * 86_400_000; t += 7 * 60_000) times.push(t);
      for (
        let d = localDate(START - 2 * 86_400_000, tz);
        d < localDate(START + 3 * 86_400_000, tz);
        d = addDays(d, 1)
      ) {
        const midnight = rollupWindow(d, opts).from + 3_600_000;
        for (const reach of [0, 3_600_000, 86_400_000])
          for (const e of [-1000, -1, 0, 1, 1000]) times.push(midnight - reach + e, midnight + reach + e);
      }
      for (const t of [...times, ...[...times].reverse()]) {
        expect(trips.at(t), `${tz} ${t}`).toEqual(affectedDays([t], tz));
        expect(rollups.at(t), `${tz} ${t}`).toEqual(rollupAffectedDays([t], opts));
      }
    }
  });
});

describe('the rollups key (a day not begun yet)', () => {
  it('stands for the empty day with no trips on it, and is gone with the first record of the day', () => {
    let settled = 0;
    let opened = 0;
    for (const seed of [2, 13, 31, 44]) {
      const tz = ZONES[seed % ZONES.length]!;
      const opts = { ...defaultRollupOptions, timeZone: tz };
      const stream = richStream(seed, 60);
      const inc = new DeviceIncremental(newDeviceIncState('veh-1', 0), tz);
      const keys = new Map<string, string | null>();
      for (const r of stream) {
        if (inc.push(r) !== 'fed') continue;
        for (const day of Object.keys(inc.state.rollups)) {
          const key = inc.rollupsKey(day);
          const was = keys.get(day);
          keys.set(day, key);
          const dayStart = rollupWindow(day, opts).from + 3_600_000;
          expect(key === null, `${tz} ${day} at ${r.time}`).toBe(r.time >= dayStart);
          if (key === null) {
            if (was) opened++;
            continue;
          }
          settled++;
          if (was !== undefined) expect(key).toBe(was);
          expect(inc.rollups(day)).toEqual(computeDayRollups('veh-1', [], day, opts));
          if (inc.hasTripDay(day)) expect(inc.trips(day)!.trips).toEqual([]);
        }
      }
    }
    expect(settled).toBeGreaterThan(100);
    expect(opened).toBeGreaterThan(3);
  });

  it('changes when the state is rewound to a checkpoint', () => {
    // Kolkata (UTC+5:30): the next day's window opens at 17:30 UTC, so the checkpoint of 18:00 UTC
    // already holds a fold of the next day that has not begun.
    const tz = 'Asia/Kolkata';
    const at = (h: number, m: number) => Date.UTC(2026, 5, 2, h, m);
    const inc = new DeviceIncremental(newDeviceIncState('veh-1', 0), tz);
    for (let t = at(16, 30); t <= at(18, 20); t += 60_000)
      inc.push({ deviceId: 'd1', time: t, receivedAt: t, lat: 25.2, lon: 55.3, speed: 30 });
    const day = '2026-06-03';
    const before = inc.rollupsKey(day);
    expect(before).not.toBeNull();
    expect(inc.rewindTo(at(18, 10))).toBe(at(18, 0));
    const after = inc.rollupsKey(day);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
  });
});
