import type L from 'leaflet';
import { createContext, useContext } from 'react';
import type { MapTheme } from './map-theme';
import type { MapMessages } from './messages.en';

export interface MapContextValue {
  map: L.Map;
  /** Page direction (the Leaflet container itself is always LTR). */
  dir: 'ltr' | 'rtl';
  /** Token colours resolved on the map container; refreshed when the theme changes. */
  theme: MapTheme;
  messages: MapMessages;
  /** Element for overlay controls, positioned over the map in the page direction. */
  overlay: HTMLElement | null;
}

export const MapContext = createContext<MapContextValue | null>(null);

/** The enclosing MapView's Leaflet map and theme; throws outside a MapView. */
export function useMapContext(): MapContextValue {
  const value = useContext(MapContext);
  if (!value) throw new Error('Map layers must be rendered inside <MapView>');
  return value;
}
