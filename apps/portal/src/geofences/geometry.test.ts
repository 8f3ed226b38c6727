import { describe, expect, it } from 'vitest';
import { geometryCenter, toApiGeometry, toUiGeometry, type ApiGeometry } from './geometry';

const square: ApiGeometry = {
  shape: 'polygon',
  points: [
    { latitude: 25, longitude: 55 },
    { latitude: 25, longitude: 55.1 },
    { latitude: 25.1, longitude: 55.1 },
  ],
};

describe('geofence geometry conversion', () => {
  it('closes the polygon ring for the map and opens it again for the API', () => {
    const ui = toUiGeometry(square);
    expect(ui).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [55, 25],
          [55.1, 25],
          [55.1, 25.1],
          [55, 25],
        ],
      ],
    });
    expect(toApiGeometry(ui)).toEqual(square);
  });

  it('round-trips a circle with a whole-metre radius', () => {
    const circle: ApiGeometry = { shape: 'circle', center: { latitude: 25.2, longitude: 55.3 }, radius: 250 };
    expect(toApiGeometry(toUiGeometry(circle))).toEqual(circle);
    expect(toApiGeometry({ type: 'Circle', center: [55.3, 25.2], radius: 249.6 })).toMatchObject({
      radius: 250,
    });
  });

  it('centres on the circle centre or the polygon mean', () => {
    expect(geometryCenter({ shape: 'circle', center: { latitude: 1, longitude: 2 }, radius: 10 })).toEqual([
      1, 2,
    ]);
    const [lat, lng] = geometryCenter(square);
    expect(lat).toBeCloseTo(25.0333, 3);
    expect(lng).toBeCloseTo(55.0667, 3);
  });
});
