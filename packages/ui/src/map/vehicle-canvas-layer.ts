/**
 * A Leaflet layer that draws vehicles on one canvas (not one DOM marker each): culling, grid
 * clustering at low zooms, sprite blitting, heading arrows, hover/selection rings and hit-testing
 * for clicks and hover. Positions change incrementally through {@link VehicleCanvasLayer.updatePositions}.
 */
import L from 'leaflet';
import { canvasFont, canvasFontReady } from './canvas-font';
import { readMapTheme, type MapTheme } from './map-theme';
import {
  DotRaster,
  discMask,
  makeStamp,
  packRgba,
  stampSprite,
  tickMask,
  type Mask,
  type Rgba,
  type Stamp,
} from './dot-raster';
import { HEADING_STEPS, SpriteCache } from './sprites';
import {
  HitGrid,
  LayoutFrame,
  VehicleStore,
  clusterRadius,
  defaultLayoutOptions,
  headingBucket,
  layoutInto,
  type DrawnCluster,
  type DrawnItem,
  type StoredVehicle,
  type LayoutOptions,
  type VehicleMarker,
  type VehiclePositionUpdate,
} from './vehicle-index';

const CLUSTER_FONT = canvasFont(600, 12);

export interface VehicleCanvasLayerOptions {
  /** Cluster at or below this zoom; -1 disables clustering. */
  clusterMaxZoom?: number;
  /** Cluster grid cell in pixels. */
  cellSize?: number;
  /** Marker body radius in pixels. */
  markerRadius?: number;
  /**
   * Level of detail: when more single markers than this are in view, they are drawn as compact
   * dots (tone colour, violation colour, heading tick) in a few batched paths instead of one sprite
   * each, so 10,000 vehicles stay within a frame budget. Default 1500.
   */
  detailLimit?: number;
  /** Dot radius in compact mode (default 4, plus a 1 px outline). */
  dotRadius?: number;
  /** Pane name the canvas is put in (created if missing, above overlays, below popups). */
  pane?: string;
  onItemClick?: (item: DrawnItem) => void;
  onItemHover?: (item: DrawnItem | null) => void;
}

export interface DrawStats {
  /** Items drawn (markers plus clusters). */
  drawn: number;
  clusters: number;
  /** Milliseconds spent laying out and painting. */
  ms: number;
  /** Of which: culling/clustering and the hit-test index. */
  layoutMs: number;
  /** Of which: canvas painting (recording; rasterisation happens when the frame is produced). */
  paintMs: number;
  /** True when the markers were drawn as compact dots (more than `detailLimit` in view). */
  compact: boolean;
}

const PANE = 'fl-vehicles';

export class VehicleCanvasLayer extends L.Layer {
  readonly store = new VehicleStore();
  private canvas: HTMLCanvasElement | null = null;
  private ctx: CanvasRenderingContext2D | null = null;
  private theme: MapTheme | null = null;
  private sprites: SpriteCache | null = null;
  private frame = 0;
  /** The last frame's layout (reused every redraw; items are built from it on demand). */
  private readonly layoutFrame = new LayoutFrame();
  private hit = new HitGrid();
  private selectedId: string | null = null;
  private activeId: string | null = null;
  private hoverKey: string | null = null;
  private compact = false;
  private hitDirty = true;
  private readonly raster = new DotRaster();
  private rasterImage: ImageData | null = null;
  private masks: { ratio: number; outer: Mask; inner: Mask; ticks: Mask[] } | null = null;
  /** Pre-composited dot and tick stamps, by colour key; reset with the theme and the pixel ratio. */
  private stamps = new Map<string, Stamp>();
  private readonly rgbaCache = new Map<string, Rgba>();
  private probe: CanvasRenderingContext2D | null = null;
  private readonly layout: LayoutOptions;
  private readonly radius: number;
  private readonly detailLimit: number;
  private readonly dotRadius: number;
  private readonly paneName: string;
  private readonly handlers: VehicleCanvasLayerOptions;
  lastDraw: DrawStats = { drawn: 0, clusters: 0, ms: 0, layoutMs: 0, paintMs: 0, compact: false };

  constructor(options: VehicleCanvasLayerOptions = {}) {
    super();
    this.layout = {
      ...defaultLayoutOptions,
      clusterMaxZoom: options.clusterMaxZoom ?? defaultLayoutOptions.clusterMaxZoom,
      cellSize: options.cellSize ?? defaultLayoutOptions.cellSize,
    };
    this.radius = options.markerRadius ?? 12;
    this.detailLimit = options.detailLimit ?? 1500;
    this.dotRadius = options.dotRadius ?? 4;
    this.paneName = options.pane ?? PANE;
    this.handlers = options;
  }

  override onAdd(map: L.Map): this {
    let pane = map.getPane(this.paneName);
    if (!pane) {
      pane = map.createPane(this.paneName);
      pane.style.zIndex = '450';
      pane.style.pointerEvents = 'none';
    }
    const canvas = L.DomUtil.create('canvas', 'leaflet-zoom-hide', pane);
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.slot = 'vehicle-canvas';
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.refreshTheme();
    map.on('move', this.scheduleRedraw, this);
    map.on('moveend resize zoomend viewreset', this.redrawNow, this);
    map.on('click', this.handleClick, this);
    map.on('mousemove', this.handleMove, this);
    map.on('mouseout', this.handleOut, this);
    this.redrawNow();
    // Cluster counts are drawn in the bundled face; until it has loaded, repaint once it has (and
    // keep the canvas marked pending so screenshots wait for the right glyphs).
    if (!canvasFontReady(CLUSTER_FONT, '0123456789', () => this.canvas === canvas && this.redrawNow()))
      canvas.dataset.pending = 'true';
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('move', this.scheduleRedraw, this);
    map.off('moveend resize zoomend viewreset', this.redrawNow, this);
    map.off('click', this.handleClick, this);
    map.off('mousemove', this.handleMove, this);
    map.off('mouseout', this.handleOut, this);
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.canvas?.remove();
    this.canvas = null;
    this.ctx = null;
    return this;
  }

  /** Re-reads the token colours (call after a theme change). */
  refreshTheme(): void {
    const map = this._map as L.Map | undefined;
    if (!map) return;
    this.theme = readMapTheme(map.getContainer());
    this.sprites?.clear();
    this.stamps.clear();
    this.rgbaCache.clear();
    this.sprites = new SpriteCache(this.radius, window.devicePixelRatio || 1);
    this.prepareDots(this.sprites.ratio);
    this.scheduleRedraw();
  }

  /** Replaces the vehicle set (diffs by id; unchanged objects are updated in place). */
  setVehicles(vehicles: readonly VehicleMarker[]): void {
    this.store.setAll(vehicles);
    this.scheduleRedraw();
  }

  /** Applies position updates and schedules one redraw; returns how many applied. */
  updatePositions(updates: readonly VehiclePositionUpdate[]): number {
    const n = this.store.applyPositions(updates);
    if (n > 0) this.scheduleRedraw();
    return n;
  }

  setSelected(id: string | null): void {
    if (this.selectedId === id) return;
    this.selectedId = id;
    this.scheduleRedraw();
  }

  /**
   * The vehicle the keyboard is on (VehicleLayer's vehicle list): drawn in full detail with a dashed
   * focus ring, so sighted keyboard users see where they are on the canvas.
   */
  setActive(id: string | null): void {
    if (this.activeId === id) return;
    this.activeId = id;
    this.scheduleRedraw();
  }

  /** Items drawn in the last frame (for tests and accessibility summaries). */
  drawnItems(): readonly DrawnItem[] {
    return this.layoutFrame.items();
  }

  /** Item under a container pixel, if any (the hit index is built lazily, on the first pick after a redraw). */
  pick(x: number, y: number): DrawnItem | null {
    if (this.hitDirty) {
      this.hit = HitGrid.build(this.layoutFrame.items(), this.compact ? this.dotRadius + 2 : this.radius);
      this.hitDirty = false;
    }
    return this.hit.pick(x, y, 2);
  }

  scheduleRedraw(): void {
    if (this.frame || !this._map) return;
    // Tests and screenshots wait for this to clear (see story-helpers' waitForMapIdle).
    if (this.canvas) this.canvas.dataset.pending = 'true';
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redrawNow();
    });
  }

  /** Lays out and paints synchronously; returns what it drew and how long it took. */
  redrawNow(): DrawStats {
    const map = this._map as L.Map | undefined;
    const canvas = this.canvas;
    const ctx = this.ctx;
    if (!map || !canvas || !ctx || !this.theme || !this.sprites) return this.lastDraw;
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    delete canvas.dataset.pending;
    const t0 = performance.now();
    const size = map.getSize();
    const ratio = this.sprites.ratio;
    const topLeft = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(canvas, topLeft);
    let fresh = false;
    if (canvas.width !== Math.round(size.x * ratio) || canvas.height !== Math.round(size.y * ratio)) {
      fresh = true;
      canvas.width = Math.round(size.x * ratio);
      canvas.height = Math.round(size.y * ratio);
      canvas.style.width = `${size.x}px`;
      canvas.style.height = `${size.y}px`;
      this.resizeRaster(ctx);
    }
    const origin = map.getPixelOrigin();
    const frame = this.layoutFrame;
    layoutInto(
      frame,
      this.store.all(),
      {
        zoom: map.getZoom(),
        left: topLeft.x + origin.x,
        top: topLeft.y + origin.y,
        width: size.x,
        height: size.y,
      },
      this.layout,
    );
    const markers = frame.markers;
    const compact = markers > this.detailLimit;
    this.compact = compact;
    this.hitDirty = true;
    const t1 = performance.now();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    if (compact) this.paintDots(ctx, ratio);
    else {
      if (!fresh) ctx.clearRect(0, 0, size.x, size.y);
      const { vehicles, px, py } = frame;
      for (let i = 0; i < markers; i++) this.paintMarker(ctx, vehicles[i]!, px[i]!, py[i]!);
    }
    const clusters = frame.clusters;
    for (const cluster of clusters) this.paintCluster(ctx, cluster);
    const hovered =
      this.hoverKey === null ? null : (frame.items().find((item) => keyOf(item) === this.hoverKey) ?? null);
    if (hovered) this.paintRing(ctx, hovered, this.theme.foreground, 1.5);
    const activeIndex =
      this.activeId === null || this.activeId === this.selectedId
        ? -1
        : frame.indexOf(this.store.get(this.activeId));
    if (activeIndex >= 0) {
      const v = frame.vehicles[activeIndex]!;
      const x = frame.px[activeIndex]!;
      const y = frame.py[activeIndex]!;
      if (compact) this.paintMarker(ctx, v, x, y);
      ctx.setLineDash([4, 3]);
      this.paintRing(ctx, { type: 'marker', vehicle: v, px: x, py: y }, this.theme.focusRing, 2, this.radius);
      ctx.setLineDash([]);
    }
    const selectedIndex = this.selectedId === null ? -1 : frame.indexOf(this.store.get(this.selectedId));
    if (selectedIndex >= 0) {
      const v = frame.vehicles[selectedIndex]!;
      const x = frame.px[selectedIndex]!;
      const y = frame.py[selectedIndex]!;
      // The selected vehicle is always drawn in full detail on top.
      if (compact) this.paintMarker(ctx, v, x, y);
      this.paintRing(ctx, { type: 'marker', vehicle: v, px: x, py: y }, this.theme.focusRing, 3, this.radius);
    }
    const t2 = performance.now();
    const drawn = markers + clusters.length;
    this.lastDraw = {
      drawn,
      clusters: clusters.length,
      ms: t2 - t0,
      layoutMs: t1 - t0,
      paintMs: t2 - t1,
      compact,
    };
    canvas.dataset.drawn = String(drawn);
    canvas.dataset.clusters = String(clusters.length);
    return this.lastDraw;
  }

  private paintMarker(ctx: CanvasRenderingContext2D, v: StoredVehicle, px: number, py: number): void {
    const theme = this.theme!;
    const sprites = this.sprites!;
    const fill = v.violation ? theme.violation : theme.tones[v.tone];
    const half = sprites.size / 2;
    const x = px - half;
    const y = py - half;
    const step = headingBucket(v.heading, HEADING_STEPS);
    if (step !== null)
      ctx.drawImage(sprites.arrow(step, fill, theme.surface), x, y, sprites.size, sprites.size);
    ctx.drawImage(
      sprites.body(v.kind, fill, theme.surface, theme.primaryForeground),
      x,
      y,
      sprites.size,
      sprites.size,
    );
  }

  /** A CSS colour (any syntax the canvas accepts) as packed RGBA, resolved once through a 1x1 canvas. */
  private rgba(colour: string): Rgba {
    let packed = this.rgbaCache.get(colour);
    if (packed !== undefined) return packed;
    if (!this.probe) {
      const c = document.createElement('canvas');
      c.width = c.height = 1;
      this.probe = c.getContext('2d', { willReadFrequently: true });
    }
    const probe = this.probe!;
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = colour;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    packed = packRgba(r!, g!, b!, a!);
    this.rgbaCache.set(colour, packed);
    return packed;
  }

  /**
   * Compact level of detail: every dot (outline, fill, heading tick) is blended into a pixel
   * buffer by {@link DotRaster} and put on the canvas in one `putImageData`.
   */
  private paintDots(ctx: CanvasRenderingContext2D, ratio: number): void {
    const theme = this.theme!;
    const canvas = this.canvas!;
    const { dot, tickStamps } = this.prepareDots(ratio);
    const raster = this.raster;
    if (raster.width !== canvas.width || raster.height !== canvas.height || !this.rasterImage)
      this.resizeRaster(ctx);
    else raster.clear();
    const violationDot = dot(theme.violation);
    const toneDots = {} as Record<string, Stamp>;
    for (const [tone, colour] of Object.entries(theme.tones)) toneDots[tone] = dot(colour);
    const { markers, vehicles, px, py } = this.layoutFrame;
    for (let i = 0; i < markers; i++) {
      const v = vehicles[i]!;
      const x = px[i]! * ratio;
      const y = py[i]! * ratio;
      stampSprite(raster, v.violation ? violationDot : toneDots[v.tone]!, x, y);
      const step = headingBucket(v.heading, HEADING_STEPS);
      if (step !== null) stampSprite(raster, tickStamps[step]!, x, y);
    }
    if (this.rasterImage) ctx.putImageData(this.rasterImage, 0, 0);
  }

  /**
   * Sizes the compact-mode pixel buffer to the canvas and puts it once (an empty, transparent image).
   * Runs whenever the canvas is resized, i.e. when the layer is added: the first `putImageData` on a
   * new canvas backing store sets up its pixel surface (tens of milliseconds in software rendering),
   * which would otherwise land on the first dense frame.
   */
  private resizeRaster(ctx: CanvasRenderingContext2D): void {
    const canvas = this.canvas!;
    const raster = this.raster;
    raster.resize(canvas.width, canvas.height);
    raster.clear();
    if (raster.width === 0 || raster.height === 0) {
      this.rasterImage = null;
      return;
    }
    this.rasterImage = new ImageData(
      new Uint8ClampedArray(raster.pixels.buffer),
      raster.width,
      raster.height,
    );
    if (this.rasterImage) ctx.putImageData(this.rasterImage, 0, 0);
  }

  /**
   * Coverage masks and pre-composited stamps for the compact level of detail. Prepared when the
   * layer is added and after a theme change, so the first dense frame does not pay for them.
   */
  private prepareDots(ratio: number) {
    const theme = this.theme!;
    const r = this.dotRadius * ratio;
    if (!this.masks || this.masks.ratio !== ratio) {
      this.stamps.clear();
      this.masks = {
        ratio,
        outer: discMask(r + ratio),
        inner: discMask(r),
        ticks: Array.from({ length: HEADING_STEPS }, (_, i) =>
          tickMask((i * 360) / HEADING_STEPS, r, r + 4 * ratio, 2 * ratio),
        ),
      };
    }
    const masks = this.masks;
    const ring = this.rgba(theme.surface);
    const tick = this.rgba(theme.foreground);
    const dot = (colour: string): Stamp => {
      const key = `dot|${colour}|${ring}`;
      let stamp = this.stamps.get(key);
      if (!stamp) {
        stamp = makeStamp([
          { mask: masks.outer, colour: ring },
          { mask: masks.inner, colour: this.rgba(colour) },
        ]);
        this.stamps.set(key, stamp);
      }
      return stamp;
    };
    const tickStamps = masks.ticks.map((mask, i) => {
      const key = `tick|${i}|${tick}`;
      let stamp = this.stamps.get(key);
      if (!stamp) {
        stamp = makeStamp([{ mask, colour: tick }]);
        this.stamps.set(key, stamp);
      }
      return stamp;
    });
    dot(theme.violation);
    for (const colour of Object.values(theme.tones)) dot(colour);
    return { masks, dot, tickStamps };
  }

  private paintCluster(ctx: CanvasRenderingContext2D, item: DrawnCluster): void {
    const theme = this.theme!;
    const r = clusterRadius(item.count);
    ctx.beginPath();
    ctx.arc(item.px, item.py, r, 0, Math.PI * 2);
    ctx.fillStyle = theme.tones[item.tone];
    ctx.fill();
    ctx.lineWidth = item.violation ? 4 : 2;
    ctx.strokeStyle = item.violation ? theme.violation : theme.surface;
    ctx.stroke();
    ctx.fillStyle = theme.primaryForeground;
    ctx.font = CLUSTER_FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(item.count), item.px, item.py + 0.5);
  }

  private paintRing(
    ctx: CanvasRenderingContext2D,
    item: DrawnItem,
    colour: string,
    width: number,
    radius?: number,
  ): void {
    const r =
      radius ??
      (item.type === 'cluster' ? clusterRadius(item.count) : this.compact ? this.dotRadius : this.radius);
    ctx.beginPath();
    ctx.arc(item.px, item.py, r + 3, 0, Math.PI * 2);
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    ctx.stroke();
  }

  private handleClick(e: L.LeafletMouseEvent): void {
    const item = this.pick(e.containerPoint.x, e.containerPoint.y);
    if (item) this.handlers.onItemClick?.(item);
  }

  private handleMove(e: L.LeafletMouseEvent): void {
    const item = this.pick(e.containerPoint.x, e.containerPoint.y);
    const key = item ? keyOf(item) : null;
    if (key === this.hoverKey) return;
    this.hoverKey = key;
    const container = (this._map as L.Map).getContainer();
    container.style.cursor = item ? 'pointer' : '';
    this.handlers.onItemHover?.(item);
    this.scheduleRedraw();
  }

  private handleOut(): void {
    if (this.hoverKey === null) return;
    this.hoverKey = null;
    (this._map as L.Map).getContainer().style.cursor = '';
    this.handlers.onItemHover?.(null);
    this.scheduleRedraw();
  }
}

function keyOf(item: DrawnItem): string {
  return item.type === 'marker' ? `m:${item.vehicle.id}` : `c:${item.members[0]?.id ?? ''}:${item.count}`;
}
