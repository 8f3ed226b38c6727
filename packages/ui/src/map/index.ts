export { MapView, mapViewVariants, mapViewSizes, defaultMapTiles, tilesOfLayer } from './map-view';
export type { MapViewProps, MapViewSize, MapTiles } from './map-view';
export { useMapContext, type MapContextValue } from './map-context';
export { VehicleLayer } from './vehicle-layer';
export type { VehicleLayerProps, VehicleLayerHandle } from './vehicle-layer';
export { VehicleCanvasLayer } from './vehicle-canvas-layer';
export type { VehicleCanvasLayerOptions, DrawStats } from './vehicle-canvas-layer';
export { RouteLayer, RoutePlayback, routePlaybackVariants } from './route-layer';
export type { RouteLayerProps, RoutePlaybackProps } from './route-layer';
export { GeofenceLayer, geofenceToolbarVariants } from './geofence-layer';
export type { GeofenceLayerProps } from './geofence-layer';
export { TollGateLayer } from './toll-gate-layer';
export type { TollGate, TollGateLayerProps } from './toll-gate-layer';
export { LocalTileLayer } from './local-tiles';
export { OfflineBasemapLayer, mercatorPixel, type OfflineBasemapOptions } from './offline-basemap';
export { MapLayerSwitcher, OFFLINE_LAYER_ID, type MapBaseLayer, type MapLayerSwitcherProps } from './layer-switcher';
export { readMapTheme, type MapTheme } from './map-theme';
export {
  VehicleStore,
  HitGrid,
  layoutVehicles,
  vehicleMarkerKinds,
  markerTones,
  type VehicleMarker,
  type VehicleMarkerKind,
  type MarkerTone,
  type VehiclePositionUpdate,
  type DrawnItem,
} from './vehicle-index';
export {
  normalizeRoute,
  positionAt,
  playbackSpeeds,
  type RoutePoint,
  type PlaybackSpeed,
} from './route-playback';
export {
  polygonFromVertices,
  polygonVertices,
  circleFromPoints,
  validatePolygon,
  validateCircle,
  pointInPolygon,
  pointInCircle,
  geofenceShapeTypes,
  type GeofenceShape,
  type GeofenceGeometry,
  type GeofencePolygon,
  type GeofenceCircle,
  type GeofenceShapeType,
} from './geofence-geometry';
export { projectNormalized, distanceMeters, type LatLng } from './projection';
export { mapMessagesEn, type MapMessages } from './messages.en';
export { mapMessagesAr } from './messages.ar';
export { toVehicleMarker, type VehicleLike } from './vehicle-marker';
export { FollowVehicle, FollowVehicleButton } from './follow-vehicle';
export type { FollowVehicleProps, FollowVehicleButtonProps } from './follow-vehicle';
export { VehiclePopup, vehiclePopupVariants, type VehiclePopupProps } from './vehicle-popup';
