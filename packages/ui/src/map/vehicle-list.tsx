import type L from 'leaflet';
import { useId, useState, type KeyboardEvent } from 'react';
import { format } from '../i18n/locale';
import type { MapMessages } from './messages.en';
import type { VehicleCanvasLayer } from './vehicle-canvas-layer';
import type { VehicleMarker } from './vehicle-index';

export interface VehicleKeyboardListProps {
  vehicles: readonly VehicleMarker[];
  selectedId: string | null;
  onSelect?: ((id: string | null) => void) | undefined;
  layer: VehicleCanvasLayer | null;
  map: L.Map;
  clusterMaxZoom: number;
  messages: MapMessages;
}

/** Keys that move the active vehicle, as an offset from the current index (Home/End handled apart). */
const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };

/**
 * The keyboard and screen-reader way into a canvas of vehicles (a canvas has no per-marker DOM).
 * One focusable listbox that holds only the active option (`aria-activedescendant`, with
 * `aria-setsize`/`aria-posinset` telling "3 of 10,000"), so 10,000 vehicles cost one DOM node:
 * the arrows, Page Up/Down, Home and End move the active vehicle, draw a focus ring around it on the
 * canvas and centre the map on it (zooming past the cluster levels); Enter or Space selects it (which
 * opens its popup), Escape clears the selection. The selection made with the mouse becomes the active
 * vehicle too. Visually hidden until focused; then it shows as a small panel at the map's top-start
 * corner with the vehicle and a hint, so sighted keyboard users see where focus is.
 */
export function VehicleKeyboardList({
  vehicles,
  selectedId,
  onSelect,
  layer,
  map,
  clusterMaxZoom,
  messages,
}: VehicleKeyboardListProps) {
  const baseId = useId();
  const [activeId, setActiveId] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  // A vehicle picked on the map becomes the keyboard's position as well.
  const [lastSelected, setLastSelected] = useState(selectedId);
  if (selectedId !== lastSelected) {
    setLastSelected(selectedId);
    if (selectedId !== null) setActiveId(selectedId);
  }
  const n = vehicles.length;
  if (n === 0) return null;
  const found = activeId === null ? -1 : vehicles.findIndex((v) => v.id === activeId);
  const index = found >= 0 ? found : 0;
  const active = vehicles[index]!;
  const optionId = `${baseId}-option`;
  const hintId = `${baseId}-hint`;

  const moveTo = (next: number) => {
    const target = vehicles[Math.max(0, Math.min(n - 1, next))]!;
    setActiveId(target.id);
    layer?.setActive(target.id);
    // Live positions come through the layer's store (updatePositions), not the props.
    const at = layer?.store.get(target.id) ?? target;
    const zoom = map.getZoom() <= clusterMaxZoom ? clusterMaxZoom + 1 : map.getZoom();
    map.setView([at.lat, at.lng], zoom, { animate: !!map.options.zoomAnimation });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key in steps) moveTo(index + steps[e.key]!);
    else if (e.key === 'Home') moveTo(0);
    else if (e.key === 'End') moveTo(n - 1);
    else if (e.key === 'Enter' || e.key === ' ') onSelect?.(active.id);
    else if (e.key === 'Escape' && selectedId !== null) onSelect?.(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const label = active.label ?? active.id;
  const position = format(messages.vehiclePosition, { index: index + 1, count: n });
  return (
    <div data-slot="vehicle-list" className="absolute start-2 top-2 max-w-80">
      <div
        role="listbox"
        tabIndex={0}
        aria-label={messages.vehicleList}
        aria-describedby={hintId}
        aria-activedescendant={optionId}
        data-slot="vehicle-list-box"
        onKeyDown={onKeyDown}
        onFocus={() => {
          setFocused(true);
          layer?.setActive(active.id);
        }}
        onBlur={() => {
          setFocused(false);
          layer?.setActive(null);
        }}
        className="peer pointer-events-auto sr-only rounded-t-md border border-border bg-surface-raised px-3 py-2 text-sm text-foreground shadow-md outline-2 outline-offset-2 outline-focus-ring focus:not-sr-only focus:block"
      >
        <div
          role="option"
          id={optionId}
          aria-selected={active.id === selectedId}
          aria-setsize={n}
          aria-posinset={index + 1}
          data-vehicle-id={active.id}
          className="flex items-baseline gap-2"
        >
          <bdi className="font-semibold">{label}</bdi>
          <span aria-hidden="true" className="text-xs text-foreground-muted">
            {position}
          </span>
        </div>
      </div>
      <p
        id={hintId}
        className={
          focused
            ? 'rounded-b-md border border-t-0 border-border bg-surface-raised px-3 pb-2 text-xs text-foreground-muted shadow-md'
            : 'sr-only'
        }
      >
        {messages.vehicleListHint}
      </p>
    </div>
  );
}
