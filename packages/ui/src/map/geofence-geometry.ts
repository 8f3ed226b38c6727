/**
 * Geofence shapes as the map edits them, in a GeoJSON-like form: polygons follow GeoJSON (`[lng, lat]`
 * positions, a closed outer ring); circles, which GeoJSON lacks, are `{ type: 'Circle', center, radius }`
 * with the radius in metres (the common extension used by geofence APIs). Pure functions only.
 */
import { distanceMeters, isValidLatLng, type LatLng } from './projection';

export type Position = [lng: number, lat: number];

export interface GeofencePolygon {
  type: 'Polygon';
  /** One closed outer ring (first position repeated last). Holes are not supported. */
  coordinates: [Position[]];
}

export interface GeofenceCircle {
  type: 'Circle';
  center: Position;
  /** Radius in metres. */
  radius: number;
}

export type GeofenceGeometry = GeofencePolygon | GeofenceCircle;
export const geofenceShapeTypes = ['polygon', 'circle'] as const;
export type GeofenceShapeType = (typeof geofenceShapeTypes)[number];

export interface GeofenceShape {
  id: string;
  name?: string;
  /** The geofence's own colour (an entity field chosen by the user); the primary token otherwise. */
  color?: string | null;
  geometry: GeofenceGeometry;
}

export type GeometryError =
  'tooFewVertices' | 'invalidCoordinate' | 'zeroArea' | 'selfIntersecting' | 'invalidRadius';

/** Smallest circle radius accepted, in metres. */
export const MIN_CIRCLE_RADIUS_M = 10;

const toPos = (p: LatLng): Position => [p.lng, p.lat];
const toLatLng = (p: Position): LatLng => ({ lat: p[1], lng: p[0] });

/** The open list of vertices of a polygon (the closing position dropped). */
export function polygonVertices(polygon: GeofencePolygon): LatLng[] {
  const ring = polygon.coordinates[0];
  const open =
    ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1]
      ? ring.slice(0, -1)
      : ring;
  return open.map(toLatLng);
}

/** Checks an open vertex list; null when it makes a valid simple polygon. */
export function validatePolygon(vertices: readonly LatLng[]): GeometryError | null {
  if (vertices.some((v) => !isValidLatLng(v.lat, v.lng))) return 'invalidCoordinate';
  if (vertices.length < 3) return 'tooFewVertices';
  if (selfIntersects(vertices)) return 'selfIntersecting';
  if (Math.abs(planarArea(vertices)) < 1e-12) return 'zeroArea';
  return null;
}

/** Builds a closed GeoJSON polygon; throws a descriptive error for invalid vertices. */
export function polygonFromVertices(vertices: readonly LatLng[]): GeofencePolygon {
  const error = validatePolygon(vertices);
  if (error) throw new Error(`Invalid geofence polygon: ${error}`);
  const ring = vertices.map(toPos);
  ring.push([...ring[0]!] as Position);
  return { type: 'Polygon', coordinates: [ring] };
}

export function validateCircle(center: LatLng, radius: number): GeometryError | null {
  if (!isValidLatLng(center.lat, center.lng)) return 'invalidCoordinate';
  if (!Number.isFinite(radius) || radius < MIN_CIRCLE_RADIUS_M) return 'invalidRadius';
  return null;
}

/** Circle through `edge` around `center`, radius rounded to whole metres. */
export function circleFromPoints(center: LatLng, edge: LatLng): GeofenceCircle {
  const radius = Math.round(distanceMeters(center, edge));
  const error = validateCircle(center, radius);
  if (error) throw new Error(`Invalid geofence circle: ${error}`);
  return { type: 'Circle', center: toPos(center), radius };
}

export function circleCenter(circle: GeofenceCircle): LatLng {
  return toLatLng(circle.center);
}

/** Returns a copy with vertex i moved. */
export function moveVertex(vertices: readonly LatLng[], index: number, to: LatLng): LatLng[] {
  if (index < 0 || index >= vertices.length) throw new RangeError(`No vertex ${index}`);
  return vertices.map((v, i) => (i === index ? { lat: to.lat, lng: to.lng } : v));
}

/** Returns a copy with a vertex inserted after `afterIndex` (wrapping after the last one). */
export function insertVertex(vertices: readonly LatLng[], afterIndex: number, at: LatLng): LatLng[] {
  if (afterIndex < 0 || afterIndex >= vertices.length) throw new RangeError(`No vertex ${afterIndex}`);
  const copy = vertices.slice();
  copy.splice(afterIndex + 1, 0, { lat: at.lat, lng: at.lng });
  return copy;
}

/** Returns a copy without vertex i; a triangle keeps its three vertices (returns the input copy). */
export function removeVertex(vertices: readonly LatLng[], index: number): LatLng[] {
  if (vertices.length <= 3) return vertices.slice();
  return vertices.filter((_, i) => i !== index);
}

/** Midpoint of each edge (i -> i+1, closing edge included), used as "add vertex" handles. */
export function edgeMidpoints(vertices: readonly LatLng[]): LatLng[] {
  return vertices.map((a, i) => {
    const b = vertices[(i + 1) % vertices.length]!;
    return { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 };
  });
}

/** Even-odd ray casting in lng/lat space (fine for geofence-sized polygons). */
export function pointInPolygon(point: LatLng, vertices: readonly LatLng[]): boolean {
  let inside = false;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = vertices[i]!;
    const b = vertices[j]!;
    if (a.lat > point.lat !== b.lat > point.lat) {
      const x = ((b.lng - a.lng) * (point.lat - a.lat)) / (b.lat - a.lat) + a.lng;
      if (point.lng < x) inside = !inside;
    }
  }
  return inside;
}

export function pointInCircle(point: LatLng, circle: GeofenceCircle): boolean {
  return distanceMeters(point, circleCenter(circle)) <= circle.radius;
}

/** Signed shoelace area in degree units (only its sign and zero-ness are used). */
function planarArea(v: readonly LatLng[]): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const a = v[i]!;
    const b = v[(i + 1) % v.length]!;
    sum += a.lng * b.lat - b.lng * a.lat;
  }
  return sum / 2;
}

function orientation(p: LatLng, q: LatLng, r: LatLng): number {
  const val = (q.lat - p.lat) * (r.lng - q.lng) - (q.lng - p.lng) * (r.lat - q.lat);
  return Math.abs(val) < 1e-15 ? 0 : val > 0 ? 1 : 2;
}

function onSegment(p: LatLng, q: LatLng, r: LatLng): boolean {
  return (
    q.lng <= Math.max(p.lng, r.lng) &&
    q.lng >= Math.min(p.lng, r.lng) &&
    q.lat <= Math.max(p.lat, r.lat) &&
    q.lat >= Math.min(p.lat, r.lat)
  );
}

function segmentsIntersect(p1: LatLng, q1: LatLng, p2: LatLng, q2: LatLng): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(p1, p2, q1)) return true;
  if (o2 === 0 && onSegment(p1, q2, q1)) return true;
  if (o3 === 0 && onSegment(p2, p1, q2)) return true;
  if (o4 === 0 && onSegment(p2, q1, q2)) return true;
  return false;
}

/** True when two non-adjacent edges cross (O(n^2); geofences have few vertices). */
export function selfIntersects(v: readonly LatLng[]): boolean {
  const n = v.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsIntersect(v[i]!, v[(i + 1) % n]!, v[j]!, v[(j + 1) % n]!)) return true;
    }
  }
  return false;
}
