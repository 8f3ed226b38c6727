import { describe, expect, it } from 'vitest';
import type { LiveVehicle, LiveVehiclesResponse, LocationRecord } from '@fleet/api-client';
import { vehicleStatusCounts } from '@fleet/core';
import { applyLiveUpdate, applyLiveUpdates, liveStatuses } from './merge';

const NOW = Date.parse('2026-11-21T08:00:00Z');

function location(over: Partial<LocationRecord> = {}): LocationRecord {
  return {
    created_at: '2026-11-21T07:59:00Z',
    ignition: 1,
    is_idle: false,
    latitude: 25.2,
    longitude: 55.3,
    speed: 40,
    io_elements: {},
    digital_output1: 0,
    digital_output2: 0,
    ...over,
  };
}

function vehicle(uuid: string, loc: LocationRecord | null): LiveVehicle {
  return {
    uuid,
    license_plate_number: uuid.toUpperCase(),
    license_plate_state_code: 'DXB',
    license_plate_category: 'A',
    type: 'bus',
    make: null,
    model: null,
    status: 'active',
    device_imei: null,
    gps_device_imei: null,
    driver: null,
    location: loc,
  } as LiveVehicle;
}

function cache(...vehicles: LiveVehicle[]): LiveVehiclesResponse {
  return {
    data: vehicles,
    total: vehicles.length,
    current_page: 1,
    last_page: 1,
    per_page: 1000,
    counts: { all: 0, live: 0, idle: 0, offline: 0, inactive: 0, 'no-data': 0 },
  };
}

describe('applyLiveUpdate', () => {
  it('moves the vehicle to the new coordinates', () => {
    const next = applyLiveUpdate(
      cache(vehicle('a', location())),
      'a',
      location({ latitude: 25.3, longitude: 55.4 }),
    );
    expect(next?.data[0]?.location).toMatchObject({ latitude: 25.3, longitude: 55.4 });
  });

  it('keeps the old coordinates when the update has none (spec §4)', () => {
    const next = applyLiveUpdate(
      cache(vehicle('a', location())),
      'a',
      location({ latitude: null, longitude: null, speed: 0, created_at: '2026-11-21T07:59:30Z' }),
    );
    expect(next?.data[0]?.location).toMatchObject({ latitude: 25.2, longitude: 55.3, speed: 0 });
  });

  it('leaves the cache untouched for an unknown vehicle', () => {
    const before = cache(vehicle('a', location()));
    expect(applyLiveUpdate(before, 'zzz', location())).toBe(before);
  });

  it('gives a vehicle without data its first location', () => {
    const next = applyLiveUpdate(cache(vehicle('a', null)), 'a', location());
    expect(next?.data[0]?.location?.latitude).toBe(25.2);
  });

  it('ignores a first update without a timestamp', () => {
    const before = cache(vehicle('a', null));
    expect(applyLiveUpdate(before, 'a', { latitude: 1, longitude: 2 })).toBe(before);
  });
});

describe('applyLiveUpdates', () => {
  it('applies a batch with one copy and keeps untouched vehicles identical', () => {
    const b = vehicle('b', location());
    const before = cache(vehicle('a', location()), b);
    const next = applyLiveUpdates(before, new Map([['a', location({ latitude: 1, longitude: 2 })]]));
    expect(next?.data[0]?.location?.latitude).toBe(1);
    expect(next?.data[1]).toBe(b);
    expect(applyLiveUpdates(before, new Map())).toBe(before);
  });

  it('onlyNewer (updates held during a resync) never moves a vehicle back in time', () => {
    const fetched = cache(vehicle('a', location({ created_at: '2026-11-21T07:59:30Z', latitude: 3 })));
    const stale = new Map([['a', location({ created_at: '2026-11-21T07:59:10Z', latitude: 1 })]]);
    expect(applyLiveUpdates(fetched, stale, true)).toBe(fetched);
    // The ordinary stream path applies it (the stream is in order; this rule is for the resync only).
    expect(applyLiveUpdates(fetched, stale)?.data[0]?.location?.latitude).toBe(1);
    const fresh = new Map([['a', location({ created_at: '2026-11-21T07:59:40Z', latitude: 4 })]]);
    expect(applyLiveUpdates(fetched, fresh, true)?.data[0]?.location?.latitude).toBe(4);
    // No location yet, or no time on the update: applied (nothing to compare).
    const empty = cache(vehicle('a', null));
    expect(applyLiveUpdates(empty, stale, true)?.data[0]?.location?.latitude).toBe(1);
  });
});

describe('liveStatuses', () => {
  it('counts every tab from the core status rule', () => {
    const { counts, statusOf } = liveStatuses(
      [
        vehicle('live', location()),
        vehicle('idle', location({ ignition: 0, is_idle: true })),
        vehicle('off', location({ created_at: '2026-11-21T05:00:00Z' })),
        vehicle('old', location({ created_at: '2026-09-01T00:00:00Z' })),
        vehicle('none', null),
      ],
      NOW,
    );
    expect(counts).toEqual({ all: 5, live: 1, idle: 1, offline: 1, inactive: 1, 'no-data': 1 });
    expect(statusOf.get('old')).toBe('inactive');
  });

  it('gives the same counts as core on a larger mixed fleet, also when asked again at a later time', () => {
    const fleet = Array.from({ length: 200 }, (_, i) =>
      vehicle(
        `v${i}`,
        i % 7 === 0
          ? null
          : location({
              created_at: new Date(NOW - (i % 5) * 40 * 60_000 - (i % 3) * 86_400_000 * 20).toISOString(),
              ignition: (i % 2) as 0 | 1,
              is_idle: i % 4 === 1,
            }),
      ),
    );
    for (const at of [NOW, NOW + 61 * 60_000]) {
      expect(liveStatuses(fleet, at).counts).toEqual(vehicleStatusCounts(fleet, at, (v) => v.location));
    }
  });
});
