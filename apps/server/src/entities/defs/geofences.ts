import { geofenceSchema } from '@fleet/api-client';
import type { EntityDef } from '../entity-def';
import { ruleDependent } from './notification-rules';

/** The bounding box stored beside a geofence's shape (min_lat, max_lat, min_lng, max_lng columns). */
function bbox(
  geometry:
    | { shape: 'circle'; center: { latitude: number; longitude: number }; radius: number }
    | { shape: 'polygon'; points: { latitude: number; longitude: number }[] },
) {
  if (geometry.shape === 'circle') {
    const dLat = geometry.radius / 111_320;
    const dLng =
      geometry.radius / (111_320 * Math.max(0.01, Math.cos((geometry.center.latitude * Math.PI) / 180)));
    return {
      min_lat: geometry.center.latitude - dLat,
      max_lat: geometry.center.latitude + dLat,
      min_lng: geometry.center.longitude - dLng,
      max_lng: geometry.center.longitude + dLng,
    };
  }
  const lats = geometry.points.map((p) => p.latitude);
  const lngs = geometry.points.map((p) => p.longitude);
  return {
    min_lat: Math.min(...lats),
    max_lat: Math.max(...lats),
    min_lng: Math.min(...lngs),
    max_lng: Math.max(...lngs),
  };
}

export const geofenceEntity: EntityDef = {
  name: 'geofences',
  table: 'geofences',
  label: 'geofence',
  permission: 'geofences',
  item: geofenceSchema,
  columns: ['name', 'type', 'geometry'],
  links: {
    vehicle_uuids: {
      table: 'geofence_vehicles',
      self: 'geofence_id',
      other: 'vehicle_id',
      otherTable: 'vehicles',
      label: 'Vehicle',
    },
  },
  search: ['e.name', "e.data->>'description'", "e.data->>'purpose'"],
  filters: { shape: 'e.shape = $?', purpose: "e.data->>'purpose' = $?" },
  sort: {
    name: 'lower(e.name)',
    type: 'e.type',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  dependents: [ruleDependent('geofences', 'geofence_uuids')],
  prepare: async (input) => {
    const g = input.geometry as Parameters<typeof bbox>[0];
    return { geometry: JSON.stringify(g), shape: g.shape, ...bbox(g) };
  },
};
