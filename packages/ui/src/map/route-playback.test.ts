import { describe, expect, it } from 'vitest';
import {
  advancePlayback,
  bearing,
  indexAt,
  normalizeRoute,
  positionAt,
  startPlayback,
  type RoutePoint,
} from './route-playback';

const route: RoutePoint[] = [
  { lat: 25, lng: 55, time: 1000, speed: 10 },
  { lat: 25, lng: 55.01, time: 2000, speed: 20 },
  { lat: 25.01, lng: 55.01, time: 4000, speed: 30 },
];

describe('normalizeRoute', () => {
  it('drops invalid records and sorts by time, stable for ties', () => {
    const r = normalizeRoute([
      { lat: 1, lng: 1, time: 30 },
      { lat: Number.NaN, lng: 1, time: 5 },
      { lat: 2, lng: 2, time: 10 },
      { lat: 3, lng: 3, time: 10 },
      { lat: 1, lng: 1, time: Number.NaN },
      { lat: 100, lng: 1, time: 1 },
    ]);
    expect(r.dropped).toBe(3);
    expect(r.points.map((p) => p.lat)).toEqual([2, 3, 1]);
  });
});

describe('bearing', () => {
  it.each([
    [{ lat: 0, lng: 0 }, { lat: 1, lng: 0 }, 0],
    [{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, 90],
    [{ lat: 1, lng: 0 }, { lat: 0, lng: 0 }, 180],
    [{ lat: 0, lng: 1 }, { lat: 0, lng: 0 }, 270],
  ])('%o -> %o = %s', (a, b, deg) => {
    expect(bearing(a, b)).toBeCloseTo(deg, 6);
  });
});

describe('indexAt', () => {
  it.each([
    [0, 0],
    [1000, 0],
    [1999, 0],
    [2000, 1],
    [3999, 1],
    [4000, 2],
    [9999, 2],
  ])('t=%s -> %s', (t, i) => {
    expect(indexAt(route, t)).toBe(i);
  });
  it('returns -1 on an empty route', () => {
    expect(indexAt([], 5)).toBe(-1);
  });
});

describe('positionAt', () => {
  it('interpolates between records with the segment heading and the record speed', () => {
    const p = positionAt(route, 1500)!;
    expect(p.lat).toBeCloseTo(25, 9);
    expect(p.lng).toBeCloseTo(55.005, 9);
    expect(p.heading).toBeCloseTo(90, 1);
    expect(p.speed).toBe(10);
    const q = positionAt(route, 3000)!;
    expect(q.lat).toBeCloseTo(25.005, 9);
    expect(q.heading).toBeCloseTo(0, 1);
  });

  it.each([
    [-100, 25, 55, 1000],
    [99999, 25.01, 55.01, 4000],
  ])('clamps t=%s to the ends', (t, lat, lng, time) => {
    const p = positionAt(route, t)!;
    expect([p.lat, p.lng, p.time]).toEqual([lat, lng, time]);
  });

  it('handles empty, single-point and stationary routes', () => {
    expect(positionAt([], 0)).toBeNull();
    expect(positionAt([{ lat: 1, lng: 2, time: 5 }], 10)).toMatchObject({ lat: 1, lng: 2, heading: null });
    const parked: RoutePoint[] = [
      { lat: 1, lng: 1, time: 0 },
      { lat: 1, lng: 2, time: 10 },
      { lat: 1, lng: 2, time: 20 },
    ];
    expect(positionAt(parked, 15)!.heading).toBeCloseTo(90, 0);
  });
});

describe('advancePlayback', () => {
  const range = { start: 1000, end: 4000 };
  it.each([
    { state: { time: 1000, playing: true, speed: 10 }, dt: 100, time: 2000, playing: true },
    { state: { time: 1000, playing: true, speed: 60 }, dt: 100, time: 4000, playing: false },
    { state: { time: 1000, playing: false, speed: 10 }, dt: 100, time: 1000, playing: false },
    { state: { time: 1500, playing: true, speed: 10 }, dt: -50, time: 1500, playing: true },
    { state: { time: 1500, playing: true, speed: 10 }, dt: Number.NaN, time: 1500, playing: true },
  ])('$state.time +$dt ms at $state.speed x', ({ state, dt, time, playing }) => {
    expect(advancePlayback(state, dt, range)).toMatchObject({ time, playing });
  });

  it('rewinds when play is pressed at the end', () => {
    expect(startPlayback({ time: 4000, playing: false, speed: 1 }, range)).toEqual({
      time: 1000,
      playing: true,
      speed: 1,
    });
    expect(startPlayback({ time: 2500, playing: false, speed: 1 }, range).time).toBe(2500);
  });
});
