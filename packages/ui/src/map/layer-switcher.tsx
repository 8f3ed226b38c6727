import { NativeSelect } from '../native-select';
import { cn } from '../lib/cn';

/** A tile source the user can pick (configured by the operator; names already in the reader's language). */
export interface MapBaseLayer {
  id: string;
  label: string;
  /** Leaflet URL template with {z}, {x}, {y} (and optionally {s}, {r}). */
  url: string;
  attribution?: string;
  maxZoom?: number;
  subdomains?: string;
}

/** The id of the bundled offline basemap in the switcher. */
export const OFFLINE_LAYER_ID = 'offline';

export interface MapLayerSwitcherProps {
  layers: readonly MapBaseLayer[];
  value: string;
  onChange: (id: string) => void;
  /** Accessible name of the select ("Base map"). */
  label: string;
  /** Name of the offline basemap choice. */
  offlineLabel: string;
  className?: string;
}

/**
 * The base-layer choice of a map: the configured tile sources plus the bundled offline basemap,
 * as the platform's own select (one tap on a phone, keyboard and screen readers for free). It sits
 * in the map's overlay at the logical bottom-start corner (the keyboard vehicle list opens at top-start).
 */
export function MapLayerSwitcher({ layers, value, onChange, label, offlineLabel, className }: MapLayerSwitcherProps) {
  return (
    <div data-slot="map-layer-switcher" className={cn('pointer-events-auto absolute bottom-2.5 start-2.5 z-[1000]', className)}>
      <NativeSelect
        size="sm"
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        options={[
          ...layers.map((l) => ({ value: l.id, label: l.label })),
          { value: OFFLINE_LAYER_ID, label: offlineLabel },
        ]}
        className="bg-surface shadow-sm rounded-md"
      />
    </div>
  );
}
