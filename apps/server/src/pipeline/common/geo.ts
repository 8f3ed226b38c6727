/**
 * Small geodesy helpers shared by the pipeline engines. Distances are in metres, bearings in degrees
 * clockwise from true north, speeds in km/h. Everything here is pure and allocation-light because it
 * runs once or more per incoming position.
 */

export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

/** Great-circle distance between two points in metres (haversine formula). */
export function haversineM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const s1 = Math.sin(dLat / 2);
  const s2 = Math.sin(dLon / 2);
  const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from point 1 to point 2, in [0, 360). */
export function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * RAD;
  const p2 = lat2 * RAD;
  const dl = (lon2 - lon1) * RAD;
  const y = Math.sin(dl) * Math.cos(p2);
  const x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
  return normalizeBearing(Math.atan2(y, x) / RAD);
}

export function normalizeBearing(deg: number): number {
  const d = deg % 360;
  return d < 0 ? d + 360 : d;
}

/** Smallest absolute angle between two bearings, in [0, 180]. */
export function bearingDelta(a: number, b: number): number {
  const d = Math.abs(normalizeBearing(a) - normalizeBearing(b));
  return d > 180 ? 360 - d : d;
}

/** Point reached from a start point after `distanceM` along `bearing` (spherical destination formula). */
export function destination(lat: number, lon: number, bearing: number, distanceM: number): LatLon {
  const d = distanceM / EARTH_RADIUS_M;
  const b = bearing * RAD;
  const p1 = lat * RAD;
  const l1 = lon * RAD;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 =
    l1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / RAD, lon: ((((l2 / RAD + 540) % 360) + 360) % 360) - 180 };
}

/**
 * Local planar projection (equirectangular around `originLat`), in metres east (x) and north (y).
 * Accurate to well under a metre over the few hundred metres the crossing tests look at.
 */
export function toLocalXY(originLat: number, originLon: number, lat: number, lon: number): [number, number] {
  const x = (lon - originLon) * RAD * EARTH_RADIUS_M * Math.cos(originLat * RAD);
  const y = (lat - originLat) * RAD * EARTH_RADIUS_M;
  return [x, y];
}

/**
 * Intersection of segment a (a1 -> a2) with segment b (b1 -> b2) in a plane. Returns the fraction `t`
 * along segment a where they meet, or null when they do not (parallel or collinear counts as no hit).
 */
export function segmentIntersection(
  a1x: number,
  a1y: number,
  a2x: number,
  a2y: number,
  b1x: number,
  b1y: number,
  b2x: number,
  b2y: number,
): number | null {
  const rx = a2x - a1x;
  const ry = a2y - a1y;
  const sx = b2x - b1x;
  const sy = b2y - b1y;
  const denom = rx * sy - ry * sx;
  if (denom === 0) return null;
  const qpx = b1x - a1x;
  const qpy = b1y - a1y;
  const t = (qpx * sy - qpy * sx) / denom;
  const u = (qpx * ry - qpy * rx) / denom;
  if (t < 0 || t > 1 || u < 0 || u > 1) return null;
  return t;
}

/** km/h implied by travelling `distanceM` in `durationMs` (durations under one second count as one second). */
export function impliedSpeedKmh(distanceM: number, durationMs: number): number {
  const seconds = Math.max(1, Math.abs(durationMs) / 1000);
  return (distanceM / seconds) * 3.6;
}
