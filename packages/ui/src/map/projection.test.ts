import { describe, expect, it } from 'vitest';
import {
  distanceMeters,
  isValidLatLng,
  projectNormalized,
  unprojectNormalized,
  worldSize,
} from './projection';

describe('projectNormalized', () => {
  it.each([
    { lat: 0, lng: 0, x: 0.5, y: 0.5 },
    { lat: 0, lng: 180, x: 1, y: 0.5 },
    { lat: 0, lng: -180, x: 0, y: 0.5 },
    { lat: 85.0511287798, lng: 0, x: 0.5, y: 0 },
    { lat: -85.0511287798, lng: 0, x: 0.5, y: 1 },
    { lat: 89.9, lng: 0, x: 0.5, y: 0 },
  ])('projects $lat,$lng', ({ lat, lng, x, y }) => {
    const p = projectNormalized(lat, lng);
    expect(p.x).toBeCloseTo(x, 9);
    expect(p.y).toBeCloseTo(y, 6);
  });

  it('matches Leaflet pixel coordinates for Dubai at zoom 10', () => {
    // Independent form: x = (lng + 180) / 360, y = (1 - ln(tan(lat) + sec(lat)) / pi) / 2, times 256 * 2^z.
    const p = projectNormalized(25.2048, 55.2708);
    expect(p.x * worldSize(10)).toBeCloseTo(171318.968, 2);
    expect(p.y * worldSize(10)).toBeCloseTo(112096.114, 2);
  });

  it.each([
    [25.2, 55.3],
    [-33.9, 151.2],
    [60, -120],
  ])('round-trips %s,%s', (lat, lng) => {
    const p = projectNormalized(lat, lng);
    const back = unprojectNormalized(p.x, p.y);
    expect(back.lat).toBeCloseTo(lat, 9);
    expect(back.lng).toBeCloseTo(lng, 9);
  });
});

describe('isValidLatLng', () => {
  it.each([
    [25, 55, true],
    [90, 180, true],
    [91, 0, false],
    [0, -181, false],
    [Number.NaN, 0, false],
    ['25', 55, false],
    [null, undefined, false],
  ])('%s,%s -> %s', (lat, lng, ok) => {
    expect(isValidLatLng(lat, lng)).toBe(ok);
  });
});

describe('distanceMeters', () => {
  it.each([
    { a: { lat: 0, lng: 0 }, b: { lat: 0, lng: 1 }, m: 111195 },
    { a: { lat: 25.2048, lng: 55.2708 }, b: { lat: 25.2048, lng: 55.2708 }, m: 0 },
    { a: { lat: 25.2048, lng: 55.2708 }, b: { lat: 24.4539, lng: 54.3773 }, m: 122890 },
  ])('distance $m', ({ a, b, m }) => {
    expect(Math.abs(distanceMeters(a, b) - m)).toBeLessThan(m * 0.001 + 1);
  });
});
