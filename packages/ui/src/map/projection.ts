/**
 * Web Mercator maths shared by the canvas layers. Leaflet's EPSG:3857 CRS projects a point to
 * `256 * 2^zoom * (u, v)` pixels where (u, v) are the normalised coordinates computed here, so a
 * vehicle is projected once (zoom-independent) and scaled per frame with one multiply, instead of
 * calling `map.latLngToContainerPoint` ten thousand times per redraw.
 */

/** Leaflet clamps latitudes to this value (the square world of Web Mercator). */
export const MAX_LATITUDE = 85.0511287798;
export const TILE_SIZE = 256;
const EARTH_RADIUS_M = 6371008.8;

export interface LatLng {
  lat: number;
  lng: number;
}

/** True when both numbers are finite and inside the usual WGS84 ranges. */
export function isValidLatLng(lat: unknown, lng: unknown): boolean {
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180
  );
}

/** Normalised Web Mercator coordinates in [0, 1] (x grows east, y grows south). */
export function projectNormalized(lat: number, lng: number): { x: number; y: number } {
  return { x: projectX(lng), y: projectY(lat) };
}

/**
 * The x half of {@link projectNormalized}. The store's hot loops call the two halves directly so
 * projecting 10,000 vehicles allocates nothing (cold, not-yet-optimised code cannot elide the
 * temporary object).
 */
export function projectX(lng: number): number {
  return 0.5 + lng / 360;
}

/** The y half of {@link projectNormalized} (latitude clamped to the Mercator square). */
export function projectY(lat: number): number {
  const clamped = lat > MAX_LATITUDE ? MAX_LATITUDE : lat < -MAX_LATITUDE ? -MAX_LATITUDE : lat;
  const sin = Math.sin((clamped * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

/** Inverse of {@link projectNormalized}. */
export function unprojectNormalized(x: number, y: number): LatLng {
  const lng = (x - 0.5) * 360;
  const lat = (Math.atan(Math.sinh((0.5 - y) * 2 * Math.PI)) * 180) / Math.PI;
  return { lat, lng };
}

/** World size in pixels at a zoom level. */
export function worldSize(zoom: number): number {
  return TILE_SIZE * Math.pow(2, zoom);
}

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const toRad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRad;
  const dLng = (b.lng - a.lng) * toRad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRad) * Math.cos(b.lat * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
