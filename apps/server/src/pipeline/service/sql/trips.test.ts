// The trip rows' `data` text (trips.ts) is built from a per-trip cache; it must be exactly what
// stringifying the row's object gives, and again when the same closed trips come back in a later flush
// with more of the day. (Stops and idling are rows of device_stops, not part of this text.)
import { describe, expect, it } from 'vitest';
import { sortAndDedupe } from '../../common/types';
import { localDate } from '../../common/zoned-time';
import { randomStream } from '../../incremental/streams';
import { newTripFold, tripFoldPush, tripFoldResult } from '../../incremental/trip-fold';
import type { TripDetection } from '../../trips/trips';
import { tripRowJson } from './trips';

const place = (p: { lat: number; lon: number }) => ({ latitude: p.lat, longitude: p.lon, address: null });
function plain(det: TripDetection, k: number, date: string, imei: string): string {
  const t = det.trips[k]!;
  return JSON.stringify({
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
}

describe('trip row data text', () => {
  it('equals the plain JSON of the row, flush after flush of a growing day', () => {
    const tz = 'Asia/Dubai';
    let rows = 0;
    for (const seed of [3, 17, 42, 99]) {
      const stream = sortAndDedupe(randomStream(seed, { start: Date.UTC(2026, 5, 1, 20, 0), hours: 30 }));
      const date = localDate(stream[Math.floor(stream.length / 2)]!.time, tz);
      const fold = newTripFold(date, tz);
      for (const [i, r] of stream.entries()) {
        tripFoldPush(fold, r);
        if (i % 40 !== 0 && i !== stream.length - 1) continue; // a "flush"
        const det = tripFoldResult(fold);
        for (let k = 0; k < det.trips.length; k++) {
          const imei = k % 2 ? '350000000000001' : '350000000000002';
          expect(tripRowJson(det.trips[k]!, date, imei)).toBe(plain(det, k, date, imei));
          // The same trip asked for another day or device is not served from the cache.
          expect(tripRowJson(det.trips[k]!, '2020-01-01', imei)).toBe(plain(det, k, '2020-01-01', imei));
          rows++;
        }
      }
    }
    expect(rows).toBeGreaterThan(50);
  });
});
