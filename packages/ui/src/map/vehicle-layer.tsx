import L from 'leaflet';
import {
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { createPortal } from 'react-dom';
import { format } from '../i18n/locale';
import { useMapContext } from './map-context';
import { VehicleCanvasLayer, type DrawStats } from './vehicle-canvas-layer';
import { VehicleKeyboardList } from './vehicle-list';
import type { DrawnItem, VehicleMarker, VehiclePositionUpdate, VehicleStore } from './vehicle-index';

/** Imperative handle for the real-time path: apply socket updates without a React render. */
export interface VehicleLayerHandle {
  /** Applies position updates in place and schedules one canvas redraw; returns how many applied. */
  updatePositions(updates: readonly VehiclePositionUpdate[]): number;
  /** Paints synchronously (benchmarks, tests) and reports what was drawn. */
  redrawNow(): DrawStats;
  /** The layer's vehicle store (read-only use). */
  readonly store: VehicleStore;
  /** What the last frame drew, in container pixels. */
  drawnItems(): readonly DrawnItem[];
}

export interface VehicleLayerProps {
  /** Vehicles to draw. A new array is diffed by id; unchanged vehicles are not re-created. */
  vehicles: readonly VehicleMarker[];
  selectedId?: string | null;
  /** A marker was clicked (id) or the popup was closed (null). */
  onSelect?: (id: string | null) => void;
  onHover?: (id: string | null) => void;
  /** Cluster at or below this zoom (default 12); -1 disables clustering. */
  clusterMaxZoom?: number;
  /** Popup content for the selected vehicle (e.g. a PlateCard); no popup when omitted. */
  renderPopup?: (vehicle: VehicleMarker) => ReactNode;
  /** Marker radius in pixels (default 12). */
  markerRadius?: number;
  /** Above this many markers in view they are drawn as compact dots (default 1500). */
  detailLimit?: number;
  ref?: Ref<VehicleLayerHandle>;
}

/**
 * Vehicles on one canvas: sprite per type and tone, violation colour, heading arrow, grid clusters at
 * low zoom (click a cluster to zoom into it), hit-testing for click and hover, and a popup for the
 * selected vehicle. A canvas has no per-marker DOM, so the layer adds a focusable vehicle listbox
 * ({@link VehicleKeyboardList}) in the map's overlay: arrow keys walk the vehicles and centre the
 * map, Enter selects (opens the popup), Escape closes; the layer also announces the vehicle count.
 */
export function VehicleLayer({
  vehicles,
  selectedId = null,
  onSelect,
  onHover,
  clusterMaxZoom = 12,
  renderPopup,
  markerRadius = 12,
  detailLimit = 1500,
  ref,
}: VehicleLayerProps) {
  const { map, theme, messages, overlay, dir } = useMapContext();
  const handlers = useRef({ onSelect, onHover });
  useLayoutEffect(() => {
    handlers.current = { onSelect, onHover };
  });
  const [layer, setLayer] = useState<VehicleCanvasLayer | null>(null);

  useLayoutEffect(() => {
    const created = new VehicleCanvasLayer({
      clusterMaxZoom,
      markerRadius,
      detailLimit,
      onItemClick: (item) => {
        if (item.type === 'marker') {
          handlers.current.onSelect?.(item.vehicle.id);
          return;
        }
        const bounds = L.latLngBounds(item.members.map((m) => [m.lat, m.lng] as [number, number]));
        const target = Math.min(map.getMaxZoom(), Math.max(map.getZoom() + 2, clusterMaxZoom + 1));
        const animate = !!map.options.zoomAnimation;
        if (bounds.getNorthEast().equals(bounds.getSouthWest()))
          map.setView(bounds.getCenter(), target, { animate });
        else map.fitBounds(bounds.pad(0.2), { maxZoom: target, animate });
      },
      onItemHover: (item) =>
        handlers.current.onHover?.(item && item.type === 'marker' ? item.vehicle.id : null),
    });
    created.addTo(map);
    setLayer(created);
    return () => {
      created.remove();
      setLayer(null);
    };
  }, [map, clusterMaxZoom, markerRadius, detailLimit]);

  useLayoutEffect(() => {
    layer?.setVehicles(vehicles);
  }, [layer, vehicles]);

  useEffect(() => {
    layer?.refreshTheme();
  }, [layer, theme]);

  useEffect(() => {
    layer?.setSelected(selectedId);
  }, [layer, selectedId]);

  useImperativeHandle(
    ref,
    () => ({
      updatePositions: (updates) => layer?.updatePositions(updates) ?? 0,
      redrawNow: () =>
        layer?.redrawNow() ?? { drawn: 0, clusters: 0, ms: 0, layoutMs: 0, paintMs: 0, compact: false },
      get store() {
        if (!layer) throw new Error('VehicleLayer is not mounted');
        return layer.store;
      },
      drawnItems: () => layer?.drawnItems() ?? [],
    }),
    [layer],
  );

  // Popup for the selected vehicle, its content rendered by React into Leaflet's popup element.
  const selected = selectedId ? vehicles.find((v) => v.id === selectedId) : undefined;
  const hasPopup = !!renderPopup && !!selected;
  // One detached element per selection; Leaflet mounts it in the popup and React portals into it.
  const popupHost = useMemo(() => {
    if (!hasPopup || !selectedId || typeof document === 'undefined') return null;
    const host = document.createElement('div');
    host.dataset.slot = 'vehicle-popup';
    host.dir = dir;
    return host;
  }, [hasPopup, selectedId, dir]);
  const popupRef = useRef<L.Popup | null>(null);
  useEffect(() => {
    if (!popupHost || !selectedId) return;
    // Leaflet's auto-pan always animates, and its animation runs on Date.now(); with animations off
    // (reduced motion, screenshots with a pinned clock) the popup is brought into view instantly here.
    const animated = !!map.options.zoomAnimation;
    const popup = L.popup({
      offset: [0, -markerRadius],
      autoPan: animated,
      autoPanPadding: [24, 24],
      closeButton: true,
    });
    popup.setContent(popupHost);
    const start = layer?.store.get(selectedId);
    if (start) popup.setLatLng([start.lat, start.lng]);
    popupRef.current = popup;
    const onClose = (e: L.PopupEvent) => {
      if (e.popup === popup) handlers.current.onSelect?.(null);
    };
    map.on('popupclose', onClose);
    if (start) popup.openOn(map);
    if (start && !animated) panIntoView(map, popup, 24);
    const closeButton = popup.getElement()?.querySelector('.leaflet-popup-close-button');
    closeButton?.setAttribute('aria-label', messages.closePopup);
    // The content is React's: it can grow after the popup opened (a plate card's font, a share row),
    // and Leaflet measured it only once. Re-measure on every size change and bring the whole popup
    // into view again, so its top is never left outside the map.
    const resized =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (!map.hasLayer(popup)) return;
            popup.update();
            panIntoView(map, popup, 24);
          });
    resized?.observe(popupHost);
    return () => {
      resized?.disconnect();
      map.off('popupclose', onClose);
      popup.remove();
      popupRef.current = null;
    };
  }, [map, layer, popupHost, selectedId, markerRadius, messages.closePopup]);

  // Keep the popup on the moving vehicle.
  useEffect(() => {
    const popup = popupRef.current;
    if (popup && selected) popup.setLatLng([selected.lat, selected.lng]);
  }, [selected]);

  const count = format(messages.vehicleCount, { count: vehicles.length });
  return (
    <>
      {overlay
        ? createPortal(
            <>
              <p data-slot="vehicle-layer-status" role="status" className="sr-only">
                {count}
              </p>
              <VehicleKeyboardList
                vehicles={vehicles}
                selectedId={selectedId}
                onSelect={onSelect}
                layer={layer}
                map={map}
                clusterMaxZoom={clusterMaxZoom}
                messages={messages}
              />
            </>,
            overlay,
          )
        : null}
      {popupHost && selected && renderPopup ? createPortal(renderPopup(selected), popupHost) : null}
    </>
  );
}

/** Pans the map without animation so the popup sits `padding` px inside the map (when it can). */
function panIntoView(map: L.Map, popup: L.Popup, padding: number): void {
  const el = popup.getElement();
  if (!el) return;
  const box = map.getContainer().getBoundingClientRect();
  const r = el.getBoundingClientRect();
  const axis = (start: number, end: number, min: number, max: number) =>
    start < min + padding ? start - (min + padding) : end > max - padding ? end - (max - padding) : 0;
  const dx = axis(r.left, r.right, box.left, box.right);
  const dy = axis(r.top, r.bottom, box.top, box.bottom);
  if (dx || dy) map.panBy([Math.round(dx), Math.round(dy)], { animate: false });
}
