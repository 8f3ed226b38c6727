import { MapView as KitMapView, type MapViewProps } from '@fleet/ui';
import { useMapLayers } from './use-map-layers';

/**
 * The kit's MapView with the portal's base layers: the server-configured tile sources, a switcher
 * when there are any, the user's remembered choice, and the offline basemap otherwise. Every map
 * page uses this one, so a configured tile server reaches them all.
 */
export function MapView(props: Omit<MapViewProps, 'baseLayers' | 'baseLayerId' | 'onBaseLayerChange'>) {
  const layers = useMapLayers();
  return <KitMapView {...props} {...layers} />;
}
