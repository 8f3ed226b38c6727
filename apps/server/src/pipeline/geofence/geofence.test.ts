import { describe, expect, it } from 'vitest';
import { prng, rec } from '../common/fixtures';
import { destination } from '../common/geo';
import {
  containsPoint,
  pointInRing,
  shapeBBox,
  validateShape,
  type GeofenceShape,
  type Ring,
} from './geometry';
import { GeofenceGridIndex } from './grid-index';
import { GeofenceTracker, type Geofence } from './tracker';

const square: Ring = [
  [25.0, 55.0],
  [25.0, 55.1],
  [25.1, 55.1],
  [25.1, 55.0],
];
const hole: Ring = [
  [25.04, 55.04],
  [25.04, 55.06],
  [25.06, 55.06],
  [25.06, 55.04],
];
// Concave "U": the notch between the arms is outside.
const uShape: Ring = [
  [25.0, 55.0],
  [25.0, 55.3],
  [25.3, 55.3],
  [25.3, 55.2],
  [25.1, 55.2],
  [25.1, 55.1],
  [25.3, 55.1],
  [25.3, 55.0],
];

describe('geometry', () => {
  it.each([
    ['inside square', square, 25.05, 55.05, true],
    ['outside square', square, 25.15, 55.05, false],
    ['left of square', square, 25.05, 54.99, false],
    ['U left arm', uShape, 25.2, 55.05, true],
    ['U notch', uShape, 25.2, 55.15, false],
    ['U base', uShape, 25.05, 55.15, true],
    ['U right arm', uShape, 25.25, 55.25, true],
  ])('pointInRing: %s', (_n, ring, lat, lon, expected) => {
    expect(pointInRing(lat, lon, ring)).toBe(expected);
  });

  it('polygon holes are outside', () => {
    const shape: GeofenceShape = { kind: 'polygon', rings: [square, hole] };
    expect(containsPoint(shape, 25.05, 55.05)).toBe(false);
    expect(containsPoint(shape, 25.02, 55.02)).toBe(true);
  });

  it.each([
    ['999 m from centre', 999, true],
    ['1001 m from centre', 1001, false],
  ])('circle of 1000 m: %s', (_n, d, expected) => {
    const shape: GeofenceShape = { kind: 'circle', lat: 25.2, lon: 55.3, radiusM: 1000 };
    for (const bearing of [0, 90, 200]) {
      const p = destination(25.2, 55.3, bearing, d);
      expect(containsPoint(shape, p.lat, p.lon)).toBe(expected);
      const b = shapeBBox(shape);
      if (expected)
        expect(p.lat >= b.minLat && p.lat <= b.maxLat && p.lon >= b.minLon && p.lon <= b.maxLon).toBe(true);
    }
  });

  it.each([
    [{ kind: 'circle', lat: 25, lon: 55, radiusM: 0 }, /radius/],
    [{ kind: 'circle', lat: 95, lon: 55, radiusM: 10 }, /centre/],
    [{ kind: 'polygon', rings: [] }, /outer ring/],
    [
      {
        kind: 'polygon',
        rings: [
          [
            [25, 55],
            [25.1, 55],
          ],
        ],
      },
      /3 points/,
    ],
    [
      {
        kind: 'polygon',
        rings: [
          [
            [25, 55],
            [25.1, 55],
            [25, 200],
          ],
        ],
      },
      /valid coordinate/,
    ],
  ] as [GeofenceShape, RegExp][])('validateShape rejects %j', (shape, error) => {
    expect(() => validateShape(shape)).toThrow(error);
  });
});

describe('GeofenceGridIndex', () => {
  it('returns exactly what a linear scan returns, for many random fences and points', () => {
    const rand = prng(3);
    const fences = Array.from({ length: 600 }, (_, i) => {
      const lat = 25 + rand() * 0.3;
      const lon = 55 + rand() * 0.3;
      const shape: GeofenceShape =
        i % 3 === 0
          ? { kind: 'circle', lat, lon, radiusM: 50 + rand() * 2000 }
          : {
              kind: 'polygon',
              rings: [
                Array.from({ length: 6 }, (_, k) => {
                  const p = destination(lat, lon, k * 60 + rand() * 30, 100 + rand() * 1500);
                  return [p.lat, p.lon] as const;
                }),
              ],
            };
      return { id: `g${i}`, shape, data: undefined };
    });
    // a few very large zones that go to the "large" list
    fences.push({
      id: 'emirate',
      shape: { kind: 'circle', lat: 25.15, lon: 55.15, radiusM: 60_000 },
      data: undefined,
    });
    const index = new GeofenceGridIndex(fences);
    let hits = 0;
    for (let k = 0; k < 3000; k++) {
      const lat = 24.98 + rand() * 0.34;
      const lon = 54.98 + rand() * 0.34;
      const expected = fences.filter((f) => containsPoint(f.shape, lat, lon)).map((f) => f.id);
      const got = index.query(lat, lon).map((f) => f.id);
      expect(got).toEqual(expected);
      hits += got.length;
    }
    expect(hits).toBeGreaterThan(3000); // the points really fall into fences
  });

  it('rejects duplicate ids and invalid shapes with the fence id', () => {
    const shape: GeofenceShape = { kind: 'circle', lat: 25, lon: 55, radiusM: 10 };
    expect(
      () =>
        new GeofenceGridIndex([
          { id: 'a', shape, data: 1 },
          { id: 'a', shape, data: 2 },
        ]),
    ).toThrow(/Duplicate/);
    expect(() => new GeofenceGridIndex([{ id: 'bad', shape: { ...shape, radiusM: -1 }, data: 1 }])).toThrow(
      /Geofence bad: Circle radius/,
    );
  });

  it('an empty index answers nothing', () => {
    expect(new GeofenceGridIndex([]).query(25, 55)).toEqual([]);
  });
});

describe('GeofenceTracker', () => {
  const depot: Geofence = {
    id: 'depot',
    shape: { kind: 'polygon', rings: [square] },
    tracking: ['entry', 'exit'],
  };
  const school: Geofence = {
    id: 'school',
    shape: { kind: 'circle', lat: 25.3, lon: 55.3, radiusM: 500 },
    tracking: ['entry'],
  };
  const t = (m: number) => Date.UTC(2026, 0, 5, 6, m);

  it('emits entry and exit with dwell time, honouring tracking rules', () => {
    const tracker = new GeofenceTracker([depot, school]);
    const out = [
      tracker.update('v1', rec({ time: t(0), lat: 24.9, lon: 55.05 })),
      tracker.update('v1', rec({ time: t(1), lat: 25.05, lon: 55.05 })),
      tracker.update('v1', rec({ time: t(2), lat: 25.06, lon: 55.05 })),
      tracker.update('v1', rec({ time: t(12), lat: 25.2, lon: 55.05 })),
      tracker.update('v1', rec({ time: t(20), lat: 25.3, lon: 55.3 })),
      tracker.update('v1', rec({ time: t(30), lat: 25.4, lon: 55.3 })),
    ];
    expect(out.map((evs) => evs.map((e) => `${e.kind}:${e.geofenceId}`))).toEqual([
      [],
      ['entry:depot'],
      [],
      ['exit:depot'],
      ['entry:school'],
      [], // school tracks entry only
    ]);
    expect(out[3]![0]).toMatchObject({ enteredAt: t(1), dwellS: 660, vehicleId: 'v1', time: t(12) });
  });

  it('first position sets state silently; ignored and late positions are skipped', () => {
    const tracker = new GeofenceTracker([depot]);
    expect(tracker.update('v1', rec({ time: t(0), lat: 25.05, lon: 55.05 }))).toEqual([]);
    expect(tracker.update('v1', rec({ time: t(5), lat: 26, lon: 55.05, ignored: true }))).toEqual([]);
    expect(tracker.update('v1', rec({ time: t(-5), lat: 26, lon: 55.05 }))).toEqual([]);
    const exit = tracker.update('v1', rec({ time: t(10), lat: 26, lon: 55.05 }));
    expect(exit).toMatchObject([{ kind: 'exit', dwellS: 600 }]);
  });

  it('keeps vehicles apart and survives a snapshot/restore', () => {
    const a = new GeofenceTracker([depot]);
    a.update('v1', rec({ time: t(0), lat: 24.9, lon: 55.05 }));
    a.update('v2', rec({ time: t(0), lat: 25.05, lon: 55.05 }));
    a.update('v1', rec({ time: t(1), lat: 25.05, lon: 55.05 }));
    const b = new GeofenceTracker([depot]);
    b.restore(JSON.parse(JSON.stringify(a.snapshot())));
    expect(b.update('v1', rec({ time: t(3), lat: 24.9, lon: 55.05 }))).toMatchObject([
      { kind: 'exit', dwellS: 120 },
    ]);
    expect(b.update('v2', rec({ time: t(3), lat: 24.9, lon: 55.05 }))).toMatchObject([
      { kind: 'exit', dwellS: 180 },
    ]);
  });

  it('setGeofences swaps the set; a removed fence closes without an exit', () => {
    const tracker = new GeofenceTracker([depot]);
    tracker.update('v1', rec({ time: t(0), lat: 25.05, lon: 55.05 }));
    tracker.setGeofences([]);
    expect(tracker.update('v1', rec({ time: t(1), lat: 24.9, lon: 55.05 }))).toEqual([]);
    expect(tracker.fencesAt(25.05, 55.05)).toEqual([]);
  });
});
