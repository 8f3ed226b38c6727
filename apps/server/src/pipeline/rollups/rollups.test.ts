import { describe, expect, it } from 'vitest';
import { prng, shuffle } from '../common/fixtures';
import { TrackBuilder } from '../common/track-builder';
import type { PositionRecord } from '../common/types';
import { dashboard, perVehicleTotals, periodRange, totals } from './dashboard';
import { analyseFuelLevel, counterConsumption, fuelLevelL, median5 } from './fuel';
import {
  computeDayRollups,
  emptyRollup,
  rollupAffectedDays,
  rollupWindow,
  withCounts,
  type VehicleRollup,
} from './rollups';

// 2026-01-05 08:00 Dubai = 04:00Z
const T0 = Date.UTC(2026, 0, 5, 4, 0);

function workday(): PositionRecord[] {
  return new TrackBuilder(T0, 25.2, 55.3, { stepS: 10 })
    .park(600, false, { 25: 3000 })
    .idle(600, { 85: 800, 25: 3200 })
    .drive(3600, 60, 90, { 85: 2000, 25: 4000 })
    .drive(600, 100, 90, { 85: 4000, 25: 4400 })
    .park(600)
    .records();
}

describe('computeDayRollups', () => {
  const day = computeDayRollups('v1', workday(), '2026-01-05');

  it('sums distance, driving, idle and engine time for the day', () => {
    expect(day.daily.distanceM).toBeGreaterThan(76_600);
    expect(day.daily.distanceM).toBeLessThan(76_800); // 60 km + 16.7 km
    expect(day.daily.drivingS).toBe(4200);
    expect(day.daily.idleS).toBe(600);
    expect(day.daily.engineS).toBe(4800);
    expect(day.daily.maxSpeedKmh).toBe(100);
    expect(day.daily.records).toBe(600);
  });

  it('splits into local hours by the interval start', () => {
    const h = (n: number) => day.hourly[n]!;
    expect(h(8).idleS).toBe(600);
    expect(h(8).drivingS).toBe(2400); // 08:20-09:00
    expect(h(9).drivingS).toBe(1800); // 09:00-09:30 (60 km/h 09:00-09:20, 100 km/h after)
    expect(h(7).records + h(10).records).toBe(0);
    expect(day.hourly.reduce((s, x) => s + x.distanceM, 0)).toBeCloseTo(day.daily.distanceM, 0);
  });

  it('engine RPM, over-revving and temperature statistics', () => {
    expect(day.daily.rpmMax).toBe(4000);
    expect(day.daily.overRevS).toBe(600);
    expect(day.daily.rpmSecondsSum / day.daily.rpmSeconds).toBeCloseTo(
      (800 * 600 + 2000 * 3600 + 4000 * 600) / 4800,
      3,
    );
    expect([day.daily.tempMin, day.daily.tempMax]).toEqual([30, 44]);
    // One continuous burst above 3,500 rpm is one over-revving episode, in the hour it starts.
    expect(day.daily.overRevs).toBe(1);
    expect(day.hourly[9]!.overRevs).toBe(1);
  });

  it('bucket starts, last fuel level and tyre readings per bucket', () => {
    expect(day.daily.startsAt).toBe(Date.UTC(2026, 0, 4, 20, 0));
    expect(day.hourly[8]!.startsAt).toBe(T0);
    expect(day.hourly[23]!.startsAt).toBe(Date.UTC(2026, 0, 5, 19, 0));
    const rs = new TrackBuilder(T0, 25.2, 55.3, { stepS: 60 })
      .drive(1800, 50, 0, { 89: 60, 84: 300, 11001: 230, 11101: 31 })
      .drive(1800, 50, 0, { 89: 55, 84: 275, 11001: 228, 11002: 240 })
      .records();
    const d = computeDayRollups('v1', rs, '2026-01-05');
    expect(d.daily.fuelLevelPct).toBe(55);
    expect(d.daily.fuelLevelL).toBe(27.5);
    expect(d.hourly[8]!.tyres).toEqual({
      FL: { p: 228, t: null, at: T0 + 59 * 60_000 },
      FR: { p: 240, t: null, at: T0 + 59 * 60_000 },
    });
    expect(day.daily.tyres).toBeNull();
  });

  it('is the same whatever the record order, and only counts records of the day', () => {
    const rand = prng(9);
    const other = new TrackBuilder(T0 + 86_400_000, 25.2, 55.3).drive(600, 60, 0).records();
    expect(computeDayRollups('v1', shuffle([...workday(), ...other], rand), '2026-01-05')).toEqual(day);
  });

  it('motion-only devices count moving time as engine time', () => {
    const rs = new TrackBuilder(T0, 25.2, 55.3, { ignitionLine: false })
      .park(300)
      .drive(600, 50, 0)
      .park(300)
      .records();
    const d = computeDayRollups('v1', rs, '2026-01-05');
    expect([d.daily.engineS, d.daily.idleS, d.daily.drivingS]).toEqual([600, 0, 600]);
  });

  it('windows and affected days', () => {
    const w = rollupWindow('2026-01-05');
    expect(w.from).toBe(Date.UTC(2026, 0, 4, 19, 0));
    expect(rollupAffectedDays([Date.UTC(2026, 0, 4, 20, 30)])).toEqual(['2026-01-04', '2026-01-05']);
  });

  it('withCounts adds trips and violations of the day', () => {
    const out = withCounts(
      day,
      [{ startTime: T0 + 600_000 }, { startTime: T0 + 86_400_000 }],
      [{ time: T0 + 3_700_000 }],
    );
    expect([out.daily.trips, out.daily.violations, out.hourly[8]!.trips, out.hourly[9]!.violations]).toEqual([
      1, 1, 1, 1,
    ]);
  });
});

describe('fuel', () => {
  /** Level in 0.1 L units (IO 84): consumption while driving, a refuel parked, then a drop parked. */
  function fuelDay(): PositionRecord[] {
    const b = new TrackBuilder(T0, 25.2, 55.3, { stepS: 60 });
    let level = 50; // litres
    const at = (l: number) => ({ 84: Math.round(l * 10) });
    for (let k = 0; k < 60; k++) b.drive(60, 60, 90, at((level -= 0.2))); // 12 L over an hour
    b.park(600, false, at(level));
    for (let k = 0; k < 5; k++) b.park(60, false, at((level += 8))); // +40 L refuel
    b.park(600, false, at(level));
    for (let k = 0; k < 5; k++) b.park(60, false, at((level -= 2))); // -10 L drop
    b.park(1200, false, at(level));
    return b.records();
  }

  it('detects the refuel and the drop with litres, time and place, and consumption', () => {
    const a = analyseFuelLevel(fuelDay());
    expect(a.events.map((e) => [e.kind, e.litres])).toEqual([
      ['refuel', 40],
      ['drop', 10],
    ]);
    expect(a.events[0]!.lat).toBeCloseTo(25.2, 3);
    const used = a.consumption.reduce((s, c) => s + c.litres, 0);
    expect(used).toBeGreaterThan(11);
    expect(used).toBeLessThan(12.5);
  });

  it('day rollups carry fuel used, refuels and drops', () => {
    const d = computeDayRollups('v1', fuelDay(), '2026-01-05');
    expect([d.daily.refuels, d.daily.refuelL, d.daily.drops, d.daily.dropL]).toEqual([1, 40, 1, 10]);
    expect(d.fuelEvents).toHaveLength(2);
    expect(d.daily.fuelUsedL).toBeGreaterThan(11);
  });

  it('slosh noise is not a refuel', () => {
    const rand = prng(4);
    const b = new TrackBuilder(T0, 25.2, 55.3, { stepS: 30 });
    for (let k = 0; k < 200; k++) b.drive(30, 50, 0, { 84: Math.round(400 - k * 0.5 + (rand() - 0.5) * 30) });
    expect(analyseFuelLevel(b.records()).events).toEqual([]);
  });

  it('the IO 83 counter wins over levels and survives a reset', () => {
    const b = new TrackBuilder(T0, 25.2, 55.3, { stepS: 60 });
    for (const v of [1000, 1010, 1030, 5, 25]) b.drive(60, 50, 0, { 83: v, 84: 500 });
    const c = counterConsumption(b.records())!;
    expect(c.reduce((s, x) => s + x.litres, 0)).toBeCloseTo(5, 5);
    expect(counterConsumption(workday())).toBeUndefined();
    expect(computeDayRollups('v1', b.records(), '2026-01-05').daily.fuelUsedL).toBe(5);
  });

  it('percent levels need the tank capacity', () => {
    const r = new TrackBuilder(T0, 25.2, 55.3).park(10, false, { 89: 50 }).records()[0]!;
    expect(fuelLevelL(r)).toBeUndefined();
    expect(fuelLevelL(r, { ...analyseDefaults(), tankCapacityL: 80 })).toBe(40);
    expect(median5([5, 1, 9, 2, 7], 2)).toBe(5);
  });
});

function analyseDefaults() {
  return { consumedScale: 0.1, litresScale: 0.1, refuelMinL: 5, dropMinL: 5, dropMaxS: 900, noiseL: 0.3 };
}

describe('dashboard', () => {
  const row = (
    vehicleId: string,
    date: string,
    km: number,
    extra: Partial<VehicleRollup> = {},
  ): VehicleRollup => ({
    ...emptyRollup(vehicleId, date, null),
    distanceM: km * 1000,
    drivingS: km * 60,
    trips: 1,
    ...extra,
  });
  const now = Date.UTC(2026, 0, 14, 10, 0); // 2026-01-14 in Dubai

  it.each([
    ['week', '2026-01-08', '2026-01-14'],
    ['month', '2025-12-16', '2026-01-14'],
    ['year', '2025-01-15', '2026-01-14'],
  ] as const)('%s covers the right dates', (period, from, to) => {
    expect(periodRange(period, now, 'Asia/Dubai')).toEqual({ from, to });
  });

  it('current vs previous week with change, from daily rows only', () => {
    const rows = [
      row('v1', '2026-01-14', 100, { violations: 2, fuelUsedL: 10, idleS: 3600 }),
      row('v2', '2026-01-08', 50),
      row('v1', '2026-01-07', 60),
      row('v3', '2026-01-01', 60),
      row('v1', '2025-12-31', 500), // outside both weeks
      { ...emptyRollup('v1', '2026-01-14', 9), distanceM: 999_000 }, // hourly rows are not double counted
      row('v4', '2026-01-10', 0, { trips: 0 }), // reported but not moving: not active
    ];
    const d = dashboard(rows, 'week', now);
    expect(d.current).toEqual({
      from: '2026-01-08',
      to: '2026-01-14',
      totals: {
        distanceKm: 150,
        drivingHours: 2.5,
        idleHours: 1,
        engineHours: 0,
        trips: 2,
        violations: 2,
        fuelUsedL: 10,
        activeVehicles: 2,
      },
    });
    expect(d.previous.from).toBe('2026-01-01');
    expect(d.previous.totals.distanceKm).toBe(120);
    expect(d.change.distanceKm).toBe(25);
    expect(d.change.violations).toBeNull();
    expect(
      perVehicleTotals(rows, '2026-01-08', '2026-01-14').map((t) => [t.vehicleId, t.distanceKm]),
    ).toEqual([
      ['v1', 100],
      ['v2', 50],
      ['v4', 0],
    ]);
    expect(totals([], '2026-01-01', '2026-01-31').activeVehicles).toBe(0);
  });
});
