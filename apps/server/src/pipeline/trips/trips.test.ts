import { describe, expect, it } from 'vitest';
import { HOUR, prng, shuffle } from '../common/fixtures';
import { TrackBuilder } from '../common/track-builder';
import type { PositionRecord } from '../common/types';
import { affectedDays, dayWindow, defaultTripConfig, detectTrips, tripsForDay, type Trip } from './trips';

const T0 = Date.UTC(2026, 0, 5, 4, 0); // 08:00 in Dubai
const TZ = 'Asia/Dubai';

function commute(opts: { odometer?: boolean; ignitionLine?: boolean } = {}) {
  return new TrackBuilder(T0, 25.2, 55.3, opts)
    .park(300)
    .idle(180)
    .drive(600, 60, 45) // 10 km
    .idle(60)
    .park(600);
}

describe('detectTrips (ignition mode)', () => {
  it('detects one trip with times, places, distance, speeds and idle time', () => {
    const det = detectTrips(commute().records());
    expect(det.mode).toBe('ignition');
    expect(det.trips).toHaveLength(1);
    const trip = det.trips[0]!;
    expect(trip.startTime).toBe(T0 + 300_000);
    // ends at the first ignition-off record after 3 min idle + 10 min drive + 1 min idle
    expect(trip.endTime).toBe(T0 + 300_000 + 840_000);
    expect(trip.distanceSource).toBe('gps');
    expect(trip.distanceM).toBeGreaterThan(9_990);
    expect(trip.distanceM).toBeLessThan(10_010);
    expect(trip.durationS).toBe(840);
    expect(trip.maxSpeedKmh).toBe(60);
    expect(trip.avgSpeedKmh).toBeCloseTo((10_000 / 840) * 3.6, 0);
    expect(trip.idleS).toBe(240);
    expect(trip.start).toEqual({ lat: 25.2, lon: 55.3 });
    expect(trip.end.lat).toBeGreaterThan(25.26);
  });

  it('prefers the odometer difference when the device reports IO 16', () => {
    const trip = detectTrips(commute({ odometer: true }).records()).trips[0]!;
    expect(trip.distanceSource).toBe('odometer');
    expect(trip.distanceM).toBe(10_000);
  });

  it('falls back to the GPS distance when the odometer went backwards', () => {
    const rs = commute({ odometer: true }).records();
    const last = rs.length - 1;
    const broken = rs.map((r, i) => (i > last - 70 ? { ...r, io: { ...r.io, 16: 5 } } : r));
    expect(detectTrips(broken).trips[0]!.distanceSource).toBe('gps');
  });

  it.each([
    ['too short in time (50 s)', 50, 100, 0],
    ['too short in distance (150 m)', 600, 0.9, 0],
    ['long enough', 120, 60, 1],
  ])('minimum duration and distance: %s', (_name, seconds, speed, expected) => {
    const rs = new TrackBuilder(T0, 25.2, 55.3).park(300).drive(seconds, speed, 0).park(600).records();
    expect(detectTrips(rs).trips).toHaveLength(expected);
  });

  it('a no-data gap longer than 30 minutes ends a trip', () => {
    const rs = new TrackBuilder(T0, 25.2, 55.3)
      .drive(600, 60, 0)
      .gap(31 * 60)
      .drive(600, 60, 0)
      .park(600)
      .records();
    const det = detectTrips(rs);
    expect(det.trips).toHaveLength(2);
    expect(det.trips[0]!.endTime).toBe(T0 + 590_000);
  });

  it('a 29 minute gap does not end a trip', () => {
    const rs = new TrackBuilder(T0, 25.2, 55.3)
      .drive(600, 60, 0)
      .gap(29 * 60)
      .drive(600, 60, 0)
      .park(600)
      .records();
    expect(detectTrips(rs).trips).toHaveLength(1);
  });

  it('merges a short ignition-off stop, splits on a long one and reports the stop', () => {
    const short = new TrackBuilder(T0, 25.2, 55.3).drive(600, 60, 0).park(120).drive(600, 60, 0).park(600);
    expect(detectTrips(short.records()).trips).toHaveLength(1);
    const long = new TrackBuilder(T0, 25.2, 55.3).drive(600, 60, 0).park(900).drive(600, 60, 0).park(600);
    const det = detectTrips(long.records());
    expect(det.trips).toHaveLength(2);
    expect(det.stops).toHaveLength(1);
    expect(det.stops[0]!.startTime).toBe(T0 + 600_000);
    expect(det.stops[0]!.endTime).toBe(T0 + 1_500_000);
    expect(det.stops[0]!.minutes).toBe(15);
    expect(det.stops[0]!.place).toEqual(det.trips[0]!.end);
  });

  it('reports idling periods (ignition on, not moving) with minutes', () => {
    const det = detectTrips(commute().records());
    expect(det.idles.map((i) => [i.startTime - T0, i.minutes])).toEqual([[300_000, 3]]);
    // the final one-minute idle is below the two-minute minimum
  });

  it('an ignition-on parked vehicle gives an idle period but no trip', () => {
    const det = detectTrips(new TrackBuilder(T0, 25.2, 55.3).park(60).idle(1200).park(60).records());
    expect(det.trips).toHaveLength(0);
    expect(det.idles).toHaveLength(1);
    expect(det.idles[0]!.minutes).toBe(20);
  });
});

describe('detectTrips (motion mode)', () => {
  it('uses movement when the device has no ignition line', () => {
    const det = detectTrips(commute({ ignitionLine: false }).records());
    expect(det.mode).toBe('motion');
    expect(det.trips).toHaveLength(1);
    expect(det.trips[0]!.startTime).toBe(T0 + 480_000);
    expect(det.trips[0]!.endTime).toBe(T0 + 1_080_000);
    expect(det.idles).toEqual([]);
  });

  it('an impossible jump does not start a trip', () => {
    const b = new TrackBuilder(T0, 25.2, 55.3, { ignitionLine: false }).park(300);
    b.raw({ lat: 25.6, speed: 120 }).park(300);
    const det = detectTrips(b.records());
    expect(det.trips).toEqual([]);
  });

  it('records with a bad coordinate or a future time are ignored', () => {
    const b = new TrackBuilder(T0, 25.2, 55.3, { ignitionLine: false }).park(300);
    b.raw({ lat: 0, lon: 0, speed: 80 })
      .raw({ lat: 95, speed: 80 })
      .raw({ speed: 80, time: T0 + 10 * HOUR, receivedAt: T0 })
      .park(300);
    expect(detectTrips(b.records()).trips).toEqual([]);
  });
});

describe('detectTrips input handling', () => {
  it('rejects records of several devices and bad configuration', () => {
    const rs = commute().records();
    expect(() => detectTrips([...rs, { ...rs[0]!, deviceId: 'other' }])).toThrow(/single device/);
    expect(() => detectTrips(rs, { ...defaultTripConfig, maxGapS: -1 })).toThrow(/maxGapS/);
  });

  it('returns nothing for no records', () => {
    expect(detectTrips([])).toEqual({ mode: 'motion', trips: [], stops: [], idles: [] });
  });
});

/** A two-day synthetic life of one vehicle with trips around midnight, gaps and odometer. */
function twoDays(): PositionRecord[] {
  const b = new TrackBuilder(Date.UTC(2026, 0, 5, 2, 0), 25.2, 55.3, { odometer: true, stepS: 15 });
  const rand = prng(7);
  for (let k = 0; k < 14; k++) {
    b.park(600 + Math.floor(rand() * 3000), false);
    b.idle(Math.floor(rand() * 400));
    b.drive(300 + Math.floor(rand() * 2400), 30 + Math.floor(rand() * 80), Math.floor(rand() * 360));
    if (rand() < 0.3) b.gap(1000 + Math.floor(rand() * 3000));
    b.park(30 + Math.floor(rand() * 300));
    b.drive(300 + Math.floor(rand() * 1200), 40, Math.floor(rand() * 360));
  }
  b.park(3600);
  return b.records();
}

const key = (t: Trip) => JSON.stringify(t);

describe('late and out-of-order records', () => {
  const records = twoDays();
  const batch = detectTrips(records);

  it('the data set is rich enough to mean something', () => {
    expect(batch.trips.length).toBeGreaterThan(10);
    expect(batch.stops.length).toBeGreaterThan(5);
    expect(batch.idles.length).toBeGreaterThan(3);
  });

  it.each([1, 2, 3, 4, 5])(
    'shuffled and partly duplicated input gives identical results (seed %i)',
    (seed) => {
      const rand = prng(seed);
      const dupes = records.filter(() => rand() < 0.1);
      expect(detectTrips(shuffle([...records, ...dupes], rand))).toEqual(batch);
    },
  );

  it.each([11, 12])(
    'streaming in random late batches with device-day recompute equals the batch result (seed %i)',
    (seed) => {
      const rand = prng(seed);
      // Buffered uploads: the stream is cut into chunks delivered in a scrambled order.
      const chunks: PositionRecord[][] = [];
      for (let i = 0; i < records.length;) {
        const n = 60 + Math.floor(rand() * 600);
        chunks.push(records.slice(i, i + n));
        i += n;
      }
      const arrival = shuffle(chunks, rand);
      const seen: PositionRecord[] = [];
      const stored = new Map<string, Trip[]>();
      for (const chunk of arrival) {
        seen.push(...shuffle(chunk, rand));
        for (const day of affectedDays(
          chunk.map((r) => r.time),
          TZ,
        )) {
          const { from, to } = dayWindow(day, TZ);
          stored.set(
            day,
            tripsForDay(
              seen.filter((r) => r.time >= from && r.time < to),
              day,
              TZ,
            ).trips,
          );
        }
      }
      const streamed = [...stored.keys()].sort().flatMap((d) => stored.get(d)!);
      expect(streamed.map(key)).toEqual(batch.trips.map(key));
    },
  );

  it('affectedDays covers the look-around on both sides', () => {
    expect(affectedDays([Date.UTC(2026, 0, 5, 8, 0)], TZ)).toEqual([
      '2026-01-04',
      '2026-01-05',
      '2026-01-06',
    ]);
    expect(affectedDays([Number.NaN], TZ)).toEqual([]);
  });
});
