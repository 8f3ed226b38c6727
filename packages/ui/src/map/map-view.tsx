import 'leaflet/dist/leaflet.css';
import './map-view.css';
import { cva, type VariantProps } from 'class-variance-authority';
import L from 'leaflet';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import { MapContext, type MapContextValue } from './map-context';
import { readMapTheme, type MapTheme } from './map-theme';
import { LocalTileLayer } from './local-tiles';
import { MapLayerSwitcher, OFFLINE_LAYER_ID, type MapBaseLayer } from './layer-switcher';
import { OfflineBasemapLayer } from './offline-basemap';
import type { MapMessages } from './messages.en';
import { useMapMessages } from './use-map-messages';

export const mapViewSizes = ['sm', 'md', 'lg', 'fill'] as const;
export type MapViewSize = (typeof mapViewSizes)[number];

export const mapViewVariants = cva(
  [
    'relative isolate overflow-hidden rounded-lg border border-border bg-surface-sunken',
    // Leaflet's own chrome, themed from the tokens (Tailwind cannot reach it otherwise).
    '[&_.leaflet-container]:bg-surface-sunken [&_.leaflet-container]:font-sans',
    '[&_.leaflet-bar]:border-border [&_.leaflet-bar]:shadow-sm',
    '[&_.leaflet-bar_a]:bg-surface [&_.leaflet-bar_a]:text-foreground [&_.leaflet-bar_a]:border-border',
    '[&_.leaflet-bar_a:hover]:bg-surface-sunken',
    '[&_.leaflet-bar_a:focus-visible]:outline-2 [&_.leaflet-bar_a:focus-visible]:outline-focus-ring',
    '[&_.leaflet-popup-content-wrapper]:bg-surface-raised [&_.leaflet-popup-content-wrapper]:text-foreground',
    '[&_.leaflet-popup-tip]:bg-surface-raised [&_.leaflet-popup-close-button]:text-foreground-muted',
    '[&_.leaflet-control-attribution]:bg-surface [&_.leaflet-control-attribution]:text-foreground-muted',
    '[&_.leaflet-control-attribution_a]:text-primary',
    '[&_.leaflet-tooltip]:bg-surface-raised [&_.leaflet-tooltip]:text-foreground [&_.leaflet-tooltip]:border-border',
  ],
  {
    variants: {
      size: { sm: 'h-64', md: 'h-96', lg: 'h-[36rem]', fill: 'h-full min-h-64' },
    },
    defaultVariants: { size: 'md' },
  },
);

/**
 * Where tiles come from: a URL template (the operator's tile server), the bundled offline basemap
 * (vector data of the region drawn on canvas, no network), or the plain test grid ('local', for
 * stories and benchmarks that must not depend on map data).
 */
export type MapTiles =
  | { kind: 'url'; url: string; attribution?: string; maxZoom?: number; subdomains?: string }
  | { kind: 'offline' }
  | { kind: 'local' };

/**
 * Without configuration a map shows the offline basemap. There is deliberately no public tile server
 * here: OpenStreetMap's tile policy rules out a product using tile.openstreetmap.org as its tile
 * server, and a map must never come up blank without internet. Configure `baseLayers` (or `tiles`).
 */
export const defaultMapTiles: MapTiles = { kind: 'offline' };

export interface MapViewProps extends VariantProps<typeof mapViewVariants> {
  /** Initial centre as [lat, lng]; later changes re-centre the map. */
  center: readonly [number, number];
  zoom: number;
  minZoom?: number;
  maxZoom?: number;
  /** The tiles when no `baseLayers` are given (default: the offline basemap). */
  tiles?: MapTiles;
  /**
   * Tile sources to choose from: a switcher lists them plus the offline basemap. The selected one
   * (`baseLayerId`, else the first) replaces `tiles`.
   */
  baseLayers?: readonly MapBaseLayer[];
  /** The selected base layer (controlled); OFFLINE_LAYER_ID picks the offline basemap. */
  baseLayerId?: string;
  onBaseLayerChange?: (id: string) => void;
  /** Turn off Leaflet's zoom/fade animations (screenshots, reduced motion). Defaults to the OS setting. */
  animate?: boolean;
  labels?: Partial<MapMessages>;
  className?: string;
  /** Layers (VehicleLayer, RouteLayer, GeofenceLayer, TollGateLayer) and overlay content. */
  children?: ReactNode;
  /** Called once with the Leaflet map (imperative escape hatch: fitBounds, panTo ...). */
  onReady?: (map: L.Map) => void;
  /** Called after every pan/zoom with the new centre and zoom. */
  onViewChange?: (view: { center: [number, number]; zoom: number }) => void;
}

/** The tiles of the chosen base layer; an unknown id or the offline choice gives the offline basemap. */
export function tilesOfLayer(layers: readonly MapBaseLayer[], id: string): MapTiles {
  const layer = layers.find((l) => l.id === id);
  if (!layer) return { kind: 'offline' };
  return {
    kind: 'url',
    url: layer.url,
    ...(layer.attribution ? { attribution: layer.attribution } : {}),
    ...(layer.maxZoom ? { maxZoom: layer.maxZoom } : {}),
    ...(layer.subdomains ? { subdomains: layer.subdomains } : {}),
  };
}

/** Leaflet's SVG renderer internals used below (not in its public types). */
interface SvgInternals {
  _updateCircle(layer: { _point: L.Point }): void;
}

/**
 * The default vector renderer of every MapView: Leaflet's SVG renderer with circle centres on whole
 * pixels. Leaflet rounds polyline and polygon points but not the centre of an `L.circle`, and a
 * fractional arc was anti-aliased differently depending on how Chromium happened to tile and
 * rasterise the layer, so geofence circles differed between otherwise identical screenshots.
 */
const PixelSnappedSvg = L.SVG.extend({
  _updateCircle(this: L.SVG, layer: { _point: L.Point }) {
    layer._point = layer._point.round();
    (L.SVG.prototype as unknown as SvgInternals)._updateCircle.call(this, layer);
  },
}) as unknown as new () => L.SVG;

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/**
 * A Leaflet map. The Leaflet container is pinned `dir="ltr"` (Leaflet mispositions panes under an
 * inherited RTL direction); the wrapper keeps the page direction so overlay controls and popups read
 * naturally, and the zoom control sits at the logical top-end corner (top-left in Arabic).
 */
export function MapView({
  center,
  zoom,
  minZoom,
  maxZoom,
  tiles: tilesProp = defaultMapTiles,
  baseLayers,
  baseLayerId,
  onBaseLayerChange,
  animate,
  size,
  labels,
  className,
  children,
  onReady,
  onViewChange,
}: MapViewProps) {
  const { dir, locale: lang, theme: uiTheme } = useUi();
  const messages = useMapMessages(labels);
  const containerRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const [overlay, setOverlay] = useState<HTMLDivElement | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [theme, setTheme] = useState<MapTheme | null>(null);
  const callbacks = useRef({ onReady, onViewChange });
  useLayoutEffect(() => {
    callbacks.current = { onReady, onViewChange };
  });
  const shouldAnimate = animate ?? !prefersReducedMotion();
  const [ownLayerId, setOwnLayerId] = useState<string | undefined>(undefined);
  const selectedLayerId = baseLayerId ?? ownLayerId ?? baseLayers?.[0]?.id ?? OFFLINE_LAYER_ID;
  const tiles = baseLayers ? tilesOfLayer(baseLayers, selectedLayerId) : tilesProp;
  const chooseLayer = (id: string) => {
    setOwnLayerId(id);
    onBaseLayerChange?.(id);
  };

  // Create the map once per container; options that Leaflet cannot change later recreate it.
  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const instance = L.map(el, {
      center: [center[0], center[1]],
      zoom,
      zoomControl: false,
      attributionControl: false,
      renderer: new PixelSnappedSvg(),
      zoomAnimation: shouldAnimate,
      fadeAnimation: shouldAnimate,
      markerZoomAnimation: shouldAnimate,
      ...(minZoom !== undefined ? { minZoom } : {}),
      ...(maxZoom !== undefined ? { maxZoom } : {}),
    });
    const report = () => {
      const c = instance.getCenter();
      callbacks.current.onViewChange?.({ center: [c.lat, c.lng], zoom: instance.getZoom() });
    };
    instance.on('moveend', report);
    // After a zoom change without animation Leaflet fires 'viewreset' last, and its vector
    // renderers answer it with a transform computed from the unrounded centre (e.g.
    // translate3d(-92.73px, -56.95px)). Chromium may then reuse tiles rasterised at another
    // sub-pixel offset, so routes and circles came out anti-aliased differently from run to run.
    // Re-placing each renderer at its whole-pixel origin (what a 'moveend' does) before the next
    // frame keeps the vector overlays on the pixel grid.
    const snapRenderers = () =>
      queueMicrotask(() => {
        if (!instance.getPane('mapPane')) return;
        instance.eachLayer((layer) => {
          if (layer instanceof L.Renderer) (layer as unknown as { _update(): void })._update();
        });
      });
    instance.on('viewreset', snapRenderers);
    setMap(instance);
    setTheme(readMapTheme(el));
    callbacks.current.onReady?.(instance);
    return () => {
      instance.off('moveend', report);
      instance.off('viewreset', snapRenderers);
      instance.remove();
      setMap(null);
    };
    // center/zoom are applied by the effect below; recreating the map for them would lose layers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shouldAnimate, minZoom, maxZoom]);

  // `center` and `zoom` re-centre the map only when they change. The map is created at them, so
  // answering its first appearance too would undo what a layer did on mount: child effects run
  // before this one, and RouteLayer's fit to the route was reset to `center` this way.
  const [lat, lng] = center;
  const appliedView = useRef<{ lat: number; lng: number; zoom: number } | null>(null);
  useEffect(() => {
    if (!map) return;
    const applied = appliedView.current;
    appliedView.current = { lat, lng, zoom };
    if (!applied || (applied.lat === lat && applied.lng === lng && applied.zoom === zoom)) return;
    // Leaflet animates a short pan even with zoom animation off; the option keeps it instant then.
    map.setView([lat, lng], zoom, { animate: !!map.options.zoomAnimation });
  }, [map, lat, lng, zoom]);

  // Re-read the token colours when the theme changes.
  useEffect(() => {
    if (containerRef.current) setTheme(readMapTheme(containerRef.current));
  }, [uiTheme]);

  // Tiles. A URL layer that fails to load tiles (no network, tile server down) gets the offline
  // basemap drawn underneath, so the map keeps showing land, roads and places where tiles are missing.
  const tileKey =
    tiles.kind === 'url' ? `${tiles.url}|${tiles.subdomains ?? ''}|${tiles.maxZoom ?? ''}` : tiles.kind;
  const tileAttribution = tiles.kind === 'url' ? tiles.attribution : undefined;
  const [tilesFailed, setTilesFailed] = useState<string | null>(null);
  const fallback = tiles.kind === 'url' && tilesFailed === tileKey;
  useEffect(() => {
    if (!map) return;
    let layer: L.GridLayer;
    if (tiles.kind === 'url') {
      layer = L.tileLayer(tiles.url, {
        maxZoom: tiles.maxZoom ?? 19,
        zIndex: 2,
        ...(tiles.subdomains ? { subdomains: tiles.subdomains } : {}),
      });
      layer.on('tileerror', () => setTilesFailed(tileKey));
    } else if (tiles.kind === 'offline') {
      layer = new OfflineBasemapLayer({ locale: lang });
    } else {
      layer = new LocalTileLayer();
    }
    layer.addTo(map);
    return () => {
      layer.remove();
    };
    // theme: canvas tiles repaint in the new colours; lang: place names in the page language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, tileKey, theme, lang]);
  useEffect(() => {
    if (!map || !fallback) return;
    const layer = new OfflineBasemapLayer({ locale: lang, zIndex: 1 });
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, fallback, theme, lang]);

  // Controls at the logical corners, titled in the page language.
  useEffect(() => {
    if (!map) return;
    const end = dir === 'rtl' ? 'left' : 'right';
    const zoomControl = L.control.zoom({
      position: `top${end}`,
      zoomInTitle: messages.zoomIn,
      zoomOutTitle: messages.zoomOut,
    });
    zoomControl.addTo(map);
    let attribution: L.Control.Attribution | null = null;
    if (tileAttribution) {
      attribution = L.control.attribution({ position: `bottom${end}`, prefix: false });
      attribution.addAttribution(tileAttribution);
      attribution.addTo(map);
    }
    return () => {
      zoomControl.remove();
      attribution?.remove();
    };
  }, [map, dir, messages.zoomIn, messages.zoomOut, tileAttribution]);

  // Idle signal for screenshots, tests and benchmarks: `data-map-state` on the wrapper is "busy" while
  // tiles load or the view moves/zooms and "idle" once both have settled for a frame, with the settled
  // zoom in `data-zoom` (tests of camera rules read it). It is written to
  // the DOM directly (no React render per tile event).
  useEffect(() => {
    const wrapper = wrapperRef.current;
    if (!map || !wrapper) return;
    let loading = 0;
    let moving = false;
    let frame = 0;
    const update = () => {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      if (loading > 0 || moving) {
        wrapper.dataset.mapState = 'busy';
        return;
      }
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (loading === 0 && !moving) {
          wrapper.dataset.mapState = 'idle';
          wrapper.dataset.zoom = String(map.getZoom());
        }
      });
    };
    const isLoading = (layer: L.GridLayer) => layer.isLoading();
    const onLoading = () => {
      loading++;
      update();
    };
    const onLoad = () => {
      loading = Math.max(0, loading - 1);
      update();
    };
    const watch = (layer: L.Layer) => {
      if (!(layer instanceof L.GridLayer)) return;
      layer.on('loading', onLoading);
      layer.on('load', onLoad);
      // A layer fires "loading" inside onAdd, before "layeradd" lets us listen.
      if (isLoading(layer)) loading++;
    };
    const unwatch = (layer: L.Layer) => {
      if (!(layer instanceof L.GridLayer)) return;
      layer.off('loading', onLoading);
      layer.off('load', onLoad);
      if (isLoading(layer)) loading = Math.max(0, loading - 1);
    };
    const onLayerAdd = (e: L.LayerEvent) => {
      watch(e.layer);
      update();
    };
    const onLayerRemove = (e: L.LayerEvent) => {
      unwatch(e.layer);
      update();
    };
    const onMoveStart = () => {
      moving = true;
      update();
    };
    const onMoveEnd = () => {
      moving = false;
      update();
    };
    map.eachLayer(watch);
    map.on('layeradd', onLayerAdd);
    map.on('layerremove', onLayerRemove);
    map.on('movestart zoomstart', onMoveStart);
    map.on('moveend zoomend', onMoveEnd);
    update();
    return () => {
      if (frame) cancelAnimationFrame(frame);
      map.eachLayer(unwatch);
      map.off('layeradd', onLayerAdd);
      map.off('layerremove', onLayerRemove);
      map.off('movestart zoomstart', onMoveStart);
      map.off('moveend zoomend', onMoveEnd);
      delete wrapper.dataset.mapState;
      delete wrapper.dataset.zoom;
    };
  }, [map]);

  // Leaflet measures its container; tell it when the wrapper resizes.
  useEffect(() => {
    const el = containerRef.current;
    if (!map || !el || typeof ResizeObserver === 'undefined') return;
    // Keep the centre (Leaflet's default) rather than the top-left corner: the view then does not
    // depend on the size the container happened to have when the map was created.
    const observer = new ResizeObserver(() => map.invalidateSize({ pan: true, animate: false }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [map]);

  const context = useMemo<MapContextValue | null>(
    () => (map && theme ? { map, dir, theme, messages, overlay } : null),
    [map, dir, theme, messages, overlay],
  );

  return (
    <div
      ref={wrapperRef}
      data-slot="map-view"
      data-size={size ?? 'md'}
      dir={dir}
      className={cn(mapViewVariants({ size }), className)}
    >
      <div
        ref={containerRef}
        data-slot="map-canvas"
        dir="ltr"
        role="region"
        aria-label={messages.map}
        className="absolute inset-0 z-0"
      />
      <div ref={setOverlay} data-slot="map-overlay" className="pointer-events-none absolute inset-0 z-10" />
      {baseLayers && baseLayers.length > 0 ? (
        <MapLayerSwitcher
          layers={baseLayers}
          value={selectedLayerId}
          onChange={chooseLayer}
          label={messages.baseLayer}
          offlineLabel={messages.offlineLayer}
        />
      ) : null}
      {context ? <MapContext.Provider value={context}>{children}</MapContext.Provider> : null}
    </div>
  );
}
