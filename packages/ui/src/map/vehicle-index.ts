/**
 * Framework-free state behind the canvas vehicle layer: a keyed store of projected positions that
 * takes incremental updates, a grid clusterer and a screen-space hit-test index. Nothing here touches
 * the DOM, so it is unit-tested in Node and reused by the Chromium benchmark.
 */
import { isValidLatLng, projectX, projectY } from './projection';

import { markerVehicleKinds, statusTones, type MarkerVehicleKind, type StatusTone } from '@fleet/core';

/** Marker artwork families (from @fleet/core): bus, motorcycle, and car for everything else. */
export const vehicleMarkerKinds = markerVehicleKinds;
export type VehicleMarkerKind = MarkerVehicleKind;

/** Semantic tones a marker can take (@fleet/core's tuple; tokens `--fl-color-tone-*`). */
export const markerTones = statusTones;
export type MarkerTone = StatusTone;

/** One vehicle as the map draws it. The caller derives kind/tone/violation with @fleet/core. */
export interface VehicleMarker {
  id: string;
  lat: number;
  lng: number;
  /** Degrees clockwise from north; omitted or null draws no heading arrow. */
  heading?: number | null;
  kind: VehicleMarkerKind;
  tone: MarkerTone;
  /** Draw in the violation colour (digital output 1 on while not offline). */
  violation?: boolean;
  /** Accessible/tooltip text, usually the plate number. */
  label?: string;
}

/** A position change coming from the real-time feed. */
export interface VehiclePositionUpdate {
  id: string;
  lat: number;
  lng: number;
  heading?: number | null;
}

/** A stored vehicle with its zoom-independent projected coordinates. */
export interface StoredVehicle extends VehicleMarker {
  x: number;
  y: number;
}

export interface StoreChange {
  added: number;
  updated: number;
  removed: number;
  /** Inputs ignored because the coordinates were not valid numbers. */
  rejected: number;
}

/** Keyed vehicle store with O(1) incremental position updates. */
export class VehicleStore {
  private byId = new Map<string, StoredVehicle>();
  private list: StoredVehicle[] = [];
  /** Increments on every change; renderers compare it to skip redundant redraws. */
  version = 0;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredVehicle | undefined {
    return this.byId.get(id);
  }

  /** All vehicles in input order of their first appearance (cached array; do not mutate). */
  all(): readonly StoredVehicle[] {
    return this.list;
  }

  /**
   * Replaces the set of vehicles: unknown ids are added, known ids updated in place (their objects
   * are reused, so nothing is re-created), missing ids removed. Invalid coordinates are skipped.
   *
   * One pass builds the next id map and the draw list together; vehicles that were not carried over
   * are simply left behind with the previous map, so removal costs nothing per vehicle (the count is
   * `previous size - carried over`). This loop runs cold on a page's first 10,000-vehicle draw, so
   * it avoids per-vehicle temporaries and weak maps.
   */
  setAll(vehicles: readonly VehicleMarker[]): StoreChange {
    const previous = this.byId;
    const hasPrevious = previous.size > 0;
    const next = new Map<string, StoredVehicle>();
    const list: StoredVehicle[] = [];
    let added = 0;
    let updated = 0;
    let rejected = 0;
    let carried = 0;
    for (let i = 0; i < vehicles.length; i++) {
      const v = vehicles[i]!;
      const lat = v.lat;
      const lng = v.lng;
      if (!isValidLatLng(lat, lng)) {
        rejected++;
        continue;
      }
      const id = v.id;
      let stored = next.get(id);
      if (stored === undefined && hasPrevious) {
        stored = previous.get(id);
        if (stored !== undefined) {
          carried++;
          next.set(id, stored);
          list.push(stored);
        }
      }
      if (stored !== undefined) {
        stored.lat = lat;
        stored.lng = lng;
        stored.heading = v.heading ?? null;
        stored.kind = v.kind;
        stored.tone = v.tone;
        stored.violation = v.violation ?? false;
        stored.label = v.label;
        stored.x = projectX(lng);
        stored.y = projectY(lat);
        updated++;
        continue;
      }
      // One fixed object shape for every stored vehicle keeps the hot loops monomorphic.
      stored = {
        id,
        lat,
        lng,
        heading: v.heading ?? null,
        kind: v.kind,
        tone: v.tone,
        violation: v.violation ?? false,
        label: v.label,
        x: projectX(lng),
        y: projectY(lat),
      };
      next.set(id, stored);
      list.push(stored);
      added++;
    }
    this.byId = next;
    this.list = list;
    this.version++;
    return { added, updated, removed: previous.size - carried, rejected };
  }

  /**
   * Applies position updates in place. Unknown ids and invalid coordinates are ignored (the spec
   * keeps old coordinates when a live update carries empty ones). Returns how many were applied.
   */
  applyPositions(updates: readonly VehiclePositionUpdate[]): number {
    let applied = 0;
    for (const u of updates) {
      const v = this.byId.get(u.id);
      if (!v || !isValidLatLng(u.lat, u.lng)) continue;
      v.lat = u.lat;
      v.lng = u.lng;
      v.x = projectX(u.lng);
      v.y = projectY(u.lat);
      if (u.heading !== undefined) v.heading = u.heading;
      applied++;
    }
    if (applied > 0) this.version++;
    return applied;
  }

  /** Changes non-positional fields (tone, violation, kind, label) of one vehicle. */
  patch(id: string, fields: Partial<Omit<VehicleMarker, 'id' | 'lat' | 'lng'>>): boolean {
    const v = this.byId.get(id);
    if (!v) return false;
    Object.assign(v, fields);
    this.version++;
    return true;
  }
}

/** Screen-space viewport: world pixels of the top-left corner plus size, at a zoom level. */
export interface Viewport {
  zoom: number;
  /** World pixel x of the viewport's left edge. */
  left: number;
  /** World pixel y of the viewport's top edge. */
  top: number;
  width: number;
  height: number;
}

export interface DrawnMarker {
  type: 'marker';
  vehicle: StoredVehicle;
  /** Viewport pixel position. */
  px: number;
  py: number;
}

export interface DrawnCluster {
  type: 'cluster';
  members: StoredVehicle[];
  count: number;
  px: number;
  py: number;
  /** Most common tone among the members; violation wins when any member is in violation. */
  tone: MarkerTone;
  violation: boolean;
}

export type DrawnItem = DrawnMarker | DrawnCluster;

export interface LayoutOptions {
  /** Cluster while zoom is at or below this level; `-1` never clusters. */
  clusterMaxZoom: number;
  /** Grid cell size in pixels. */
  cellSize: number;
  /** Extra pixels around the viewport still laid out (markers straddling the edge). */
  margin: number;
}

export const defaultLayoutOptions: LayoutOptions = { clusterMaxZoom: 12, cellSize: 64, margin: 32 };

/**
 * One frame's layout without a per-marker object: the visible single markers as parallel arrays
 * (vehicle, viewport x, viewport y) plus the clusters. The canvas layer lays out into one reused
 * frame every redraw and only builds {@link DrawnItem} objects when someone asks for them (hit-testing
 * after a click or hover, tests), so a 10,000-vehicle redraw allocates almost nothing.
 */
export class LayoutFrame {
  /** Number of single markers (entries `0 .. markers - 1` of the arrays below are valid). */
  markers = 0;
  vehicles: StoredVehicle[] = [];
  px = new Float64Array(256);
  py = new Float64Array(256);
  clusters: DrawnCluster[] = [];
  private cached: DrawnItem[] | null = null;

  /** Empties the frame, keeping capacity for at least `capacity` markers. */
  reset(capacity: number): void {
    if (this.px.length < capacity) {
      const size = Math.max(capacity, this.px.length * 2);
      this.px = new Float64Array(size);
      this.py = new Float64Array(size);
    }
    this.markers = 0;
    this.clusters = [];
    this.cached = null;
  }

  push(v: StoredVehicle, px: number, py: number): void {
    const i = this.markers++;
    this.vehicles[i] = v;
    this.px[i] = px;
    this.py[i] = py;
  }

  /** Drops stale references past the marker count (so removed vehicles can be collected). */
  trim(): void {
    if (this.vehicles.length > this.markers) this.vehicles.length = this.markers;
  }

  /** Markers then clusters (the order they are painted in), built once per frame on demand. */
  items(): DrawnItem[] {
    if (this.cached) return this.cached;
    const out: DrawnItem[] = new Array<DrawnItem>(this.markers + this.clusters.length);
    for (let i = 0; i < this.markers; i++)
      out[i] = { type: 'marker', vehicle: this.vehicles[i]!, px: this.px[i]!, py: this.py[i]! };
    for (let i = 0; i < this.clusters.length; i++) out[this.markers + i] = this.clusters[i]!;
    this.cached = out;
    return out;
  }

  /** Index of a vehicle among this frame's single markers, or -1. */
  indexOf(v: StoredVehicle | undefined): number {
    if (!v) return -1;
    for (let i = 0; i < this.markers; i++) if (this.vehicles[i] === v) return i;
    return -1;
  }
}

/**
 * Lays out the visible vehicles for one frame: culls to the viewport, and at low zooms groups them
 * into grid cells. A cell with one vehicle stays a marker; a crowded cell becomes one cluster drawn at
 * its members' centroid. Cells are anchored to world pixels so clusters do not jump while panning.
 */
export function layoutVehicles(
  vehicles: readonly StoredVehicle[],
  view: Viewport,
  options: LayoutOptions = defaultLayoutOptions,
): DrawnItem[] {
  const frame = new LayoutFrame();
  layoutInto(frame, vehicles, view, options);
  return frame.items();
}

/** {@link layoutVehicles} into a reused frame (no per-marker allocation). */
export function layoutInto(
  frame: LayoutFrame,
  vehicles: readonly StoredVehicle[],
  view: Viewport,
  options: LayoutOptions = defaultLayoutOptions,
): void {
  const scale = 256 * Math.pow(2, view.zoom);
  const { margin } = options;
  const left = view.left;
  const top = view.top;
  const minX = left - margin;
  const minY = top - margin;
  const maxX = left + view.width + margin;
  const maxY = top + view.height + margin;
  const n = vehicles.length;
  frame.reset(n);
  const clustering = view.zoom <= options.clusterMaxZoom;
  if (!clustering) {
    const fx = frame.px;
    const fy = frame.py;
    const fv = frame.vehicles;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const v = vehicles[i]!;
      const wx = v.x * scale;
      const wy = v.y * scale;
      if (wx < minX || wx > maxX || wy < minY || wy > maxY) continue;
      fv[count] = v;
      fx[count] = wx - left;
      fy[count] = wy - top;
      count++;
    }
    frame.markers = count;
    frame.trim();
    return;
  }
  const cell = options.cellSize;
  const cells = new Map<number, StoredVehicle[]>();
  const cols = Math.ceil((maxX - minX) / cell) + 2;
  const originCol = Math.floor(minX / cell);
  const originRow = Math.floor(minY / cell);
  for (let i = 0; i < n; i++) {
    const v = vehicles[i]!;
    const wx = v.x * scale;
    const wy = v.y * scale;
    if (wx < minX || wx > maxX || wy < minY || wy > maxY) continue;
    const key = (Math.floor(wy / cell) - originRow) * cols + (Math.floor(wx / cell) - originCol);
    const bucket = cells.get(key);
    if (bucket) bucket.push(v);
    else cells.set(key, [v]);
  }
  for (const members of cells.values()) {
    if (members.length === 1) {
      const v = members[0]!;
      frame.push(v, v.x * scale - left, v.y * scale - top);
      continue;
    }
    let sx = 0;
    let sy = 0;
    let violation = false;
    const toneCounts = new Map<MarkerTone, number>();
    for (const m of members) {
      sx += m.x;
      sy += m.y;
      if (m.violation) violation = true;
      toneCounts.set(m.tone, (toneCounts.get(m.tone) ?? 0) + 1);
    }
    let tone: MarkerTone = members[0]!.tone;
    let best = 0;
    for (const t of markerTones) {
      const c = toneCounts.get(t) ?? 0;
      if (c > best) {
        best = c;
        tone = t;
      }
    }
    frame.clusters.push({
      type: 'cluster',
      members,
      count: members.length,
      px: (sx / members.length) * scale - left,
      py: (sy / members.length) * scale - top,
      tone,
      violation,
    });
  }
  frame.trim();
}

/** Radius in pixels that a drawn item covers for hit-testing. */
export function hitRadius(item: DrawnItem, markerRadius: number): number {
  if (item.type === 'marker') return markerRadius;
  return clusterRadius(item.count);
}

/** Cluster bubble radius grows with the logarithm of its size. */
export function clusterRadius(count: number): number {
  return Math.round(14 + Math.min(14, Math.log10(Math.max(1, count)) * 5));
}

/**
 * Uniform grid over viewport pixels for point picking. Later items are drawn on top, so when two
 * items are equally close the later one wins, as the user sees it.
 */
export class HitGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly items: DrawnItem[] = [];
  private readonly radii: number[] = [];

  constructor(private readonly cellSize = 48) {}

  static build(items: readonly DrawnItem[], markerRadius: number, cellSize = 48): HitGrid {
    const grid = new HitGrid(cellSize);
    for (const item of items) grid.add(item, hitRadius(item, markerRadius));
    return grid;
  }

  add(item: DrawnItem, radius: number): void {
    const index = this.items.length;
    this.items.push(item);
    this.radii.push(radius);
    const c = this.cellSize;
    const x0 = Math.floor((item.px - radius) / c);
    const x1 = Math.floor((item.px + radius) / c);
    const y0 = Math.floor((item.py - radius) / c);
    const y1 = Math.floor((item.py + radius) / c);
    for (let cx = x0; cx <= x1; cx++) {
      for (let cy = y0; cy <= y1; cy++) {
        const key = cellKey(cx, cy);
        const list = this.cells.get(key);
        if (list) list.push(index);
        else this.cells.set(key, [index]);
      }
    }
  }

  /** The item under a viewport pixel (within its radius plus `slop`), nearest first. */
  pick(x: number, y: number, slop = 0): DrawnItem | null {
    const list = this.cells.get(cellKey(Math.floor(x / this.cellSize), Math.floor(y / this.cellSize)));
    if (!list) return null;
    let best: DrawnItem | null = null;
    let bestD = Infinity;
    for (const i of list) {
      const item = this.items[i]!;
      const r = this.radii[i]! + slop;
      const d = (item.px - x) ** 2 + (item.py - y) ** 2;
      if (d <= r * r && d <= bestD) {
        best = item;
        bestD = d;
      }
    }
    return best;
  }
}

/** Numeric key of a grid cell (viewport cells stay well inside +-2^20). */
function cellKey(cx: number, cy: number): number {
  return (cx + 1048576) * 2097152 + (cy + 1048576);
}

/** Quantises a heading to one of `steps` sprite rotations; null for a missing/invalid heading. */
export function headingBucket(heading: number | null | undefined, steps = 36): number | null {
  if (heading === null || heading === undefined || !Number.isFinite(heading)) return null;
  const normalised = ((heading % 360) + 360) % 360;
  return Math.round(normalised / (360 / steps)) % steps;
}
