import type { GeofenceGeometry as UiGeometry } from '@fleet/ui';

/** Geometry as the API carries it (@fleet/api-client geofence schema). */
export type ApiGeometry =
  | { shape: 'circle'; center: { latitude: number; longitude: number }; radius: number }
  | { shape: 'polygon'; points: { latitude: number; longitude: number }[] };

/** API geometry -> the map kit's GeoJSON-like geometry ([lng, lat], closed polygon ring). */
export function toUiGeometry(geometry: ApiGeometry): UiGeometry {
  if (geometry.shape === 'circle') {
    return {
      type: 'Circle',
      center: [geometry.center.longitude, geometry.center.latitude],
      radius: geometry.radius,
    };
  }
  const ring = geometry.points.map((p) => [p.longitude, p.latitude] as [number, number]);
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

/** The map kit's geometry -> API geometry (open list of points, the closing one dropped). */
export function toApiGeometry(geometry: UiGeometry): ApiGeometry {
  if (geometry.type === 'Circle') {
    return {
      shape: 'circle',
      center: { latitude: geometry.center[1], longitude: geometry.center[0] },
      radius: Math.round(geometry.radius),
    };
  }
  const ring = geometry.coordinates[0];
  const first = ring[0];
  const last = ring[ring.length - 1];
  const open =
    ring.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]
      ? ring.slice(0, -1)
      : ring;
  return { shape: 'polygon', points: open.map(([lng, lat]) => ({ latitude: lat, longitude: lng })) };
}

/** Centre of a geometry as [lat, lng] (map centring). */
export function geometryCenter(geometry: ApiGeometry): [number, number] {
  if (geometry.shape === 'circle') return [geometry.center.latitude, geometry.center.longitude];
  const n = geometry.points.length || 1;
  const lat = geometry.points.reduce((s, p) => s + p.latitude, 0) / n;
  const lng = geometry.points.reduce((s, p) => s + p.longitude, 0) / n;
  return [lat, lng];
}
