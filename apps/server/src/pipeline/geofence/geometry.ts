import { haversineM } from '../common/geo';

/**
 * Geofence shapes and exact containment tests. Polygon rings are arrays of [lat, lon] pairs; the first
 * ring is the outer boundary and any further rings are holes. Containment uses ray casting in the
 * lon/lat plane (fine at city scale; zones do not cross the antimeridian). Circles use haversine.
 */

export type Ring = readonly (readonly [number, number])[];

export type GeofenceShape =
  | { readonly kind: 'circle'; readonly lat: number; readonly lon: number; readonly radiusM: number }
  | { readonly kind: 'polygon'; readonly rings: readonly Ring[] };

export interface BBox {
  readonly minLat: number;
  readonly minLon: number;
  readonly maxLat: number;
  readonly maxLon: number;
}

/** Checks a shape and throws a RangeError naming the problem. */
export function validateShape(shape: GeofenceShape): void {
  const okLat = (v: number) => Number.isFinite(v) && Math.abs(v) <= 90;
  const okLon = (v: number) => Number.isFinite(v) && Math.abs(v) <= 180;
  if (shape.kind === 'circle') {
    if (!okLat(shape.lat) || !okLon(shape.lon))
      throw new RangeError('Circle centre is not a valid coordinate');
    if (!Number.isFinite(shape.radiusM) || shape.radiusM <= 0)
      throw new RangeError('Circle radius must be positive');
    return;
  }
  if (shape.kind !== 'polygon') throw new RangeError('Unknown geofence shape');
  if (shape.rings.length === 0) throw new RangeError('Polygon needs an outer ring');
  for (const ring of shape.rings) {
    if (ring.length < 3) throw new RangeError('Polygon ring needs at least 3 points');
    for (const [lat, lon] of ring) {
      if (!okLat(lat) || !okLon(lon)) throw new RangeError('Polygon point is not a valid coordinate');
    }
  }
}

/** Point-in-ring by ray casting (a point exactly on an edge may fall either way). */
export function pointInRing(lat: number, lon: number, ring: Ring): boolean {
  let inside = false;
  const n = ring.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const [yi, xi] = ring[i]!;
    const [yj, xj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function containsPoint(shape: GeofenceShape, lat: number, lon: number): boolean {
  if (shape.kind === 'circle') return haversineM(shape.lat, shape.lon, lat, lon) <= shape.radiusM;
  const [outer, ...holes] = shape.rings;
  if (!outer || !pointInRing(lat, lon, outer)) return false;
  for (const hole of holes) if (pointInRing(lat, lon, hole)) return false;
  return true;
}

const M_PER_DEG_LAT = 111_320;

export function shapeBBox(shape: GeofenceShape): BBox {
  if (shape.kind === 'circle') {
    // Slightly generous box so the exact haversine test is the only one that decides.
    const dLat = (shape.radiusM / M_PER_DEG_LAT) * 1.01;
    const cos = Math.max(0.01, Math.cos((shape.lat * Math.PI) / 180));
    const dLon = dLat / cos;
    return {
      minLat: shape.lat - dLat,
      maxLat: shape.lat + dLat,
      minLon: shape.lon - dLon,
      maxLon: shape.lon + dLon,
    };
  }
  let minLat = Infinity;
  let minLon = Infinity;
  let maxLat = -Infinity;
  let maxLon = -Infinity;
  for (const [lat, lon] of shape.rings[0] ?? []) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
  }
  return { minLat, minLon, maxLat, maxLon };
}
