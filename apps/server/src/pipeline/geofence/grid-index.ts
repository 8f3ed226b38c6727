import { containsPoint, shapeBBox, validateShape, type BBox, type GeofenceShape } from './geometry';

/**
 * Static uniform-grid spatial index over geofence bounding boxes.
 *
 * Each geofence is listed in every grid cell its bounding box touches; a point query looks at one cell,
 * filters by bounding box, and only then runs the exact test. The cell size adapts to the data (about
 * the median box size, at least `minCellDeg`), and a fence whose box would span more than
 * `maxCellsPerFence` cells goes to a short "large" list checked for every query instead, so a few
 * country-sized zones cannot blow the grid up. Rebuild the index when geofences change (10k fences
 * build in a few milliseconds).
 */

export interface IndexedFence<T> {
  readonly id: string;
  readonly shape: GeofenceShape;
  readonly data: T;
}

export interface GridIndexOptions {
  readonly minCellDeg: number;
  readonly maxCellsPerFence: number;
}

const defaults: GridIndexOptions = { minCellDeg: 0.002, maxCellsPerFence: 256 };

export class GeofenceGridIndex<T = undefined> {
  private readonly fences: IndexedFence<T>[];
  /** minLat, minLon, maxLat, maxLon per fence */
  private readonly boxes: Float64Array;
  /** Dense cell array over the extent of the indexed boxes: cell (x, y) at (x - x0) * ny + (y - y0). */
  private readonly cells: (Int32Array | undefined)[] = [];
  private readonly large: number[] = [];
  private readonly x0: number = 0;
  private readonly y0: number = 0;
  private readonly nx: number = 0;
  private readonly ny: number = 0;
  readonly cellDeg: number;

  constructor(fences: readonly IndexedFence<T>[], options: Partial<GridIndexOptions> = {}) {
    const opts = { ...defaults, ...options };
    const ids = new Set<string>();
    for (const f of fences) {
      if (ids.has(f.id)) throw new RangeError(`Duplicate geofence id: ${f.id}`);
      ids.add(f.id);
      try {
        validateShape(f.shape);
      } catch (e) {
        throw new RangeError(`Geofence ${f.id}: ${(e as Error).message}`);
      }
    }
    this.fences = [...fences];
    const boxes: BBox[] = this.fences.map((f) => shapeBBox(f.shape));
    this.boxes = new Float64Array(boxes.length * 4);
    boxes.forEach((b, i) => this.boxes.set([b.minLat, b.minLon, b.maxLat, b.maxLon], i * 4));
    const sizes = boxes.map((b) => Math.max(b.maxLat - b.minLat, b.maxLon - b.minLon)).sort((a, b) => a - b);
    const median = sizes.length ? sizes[Math.floor(sizes.length / 2)]! : opts.minCellDeg;
    let cellDeg = Math.max(opts.minCellDeg, median, 0.0005);
    // Fences small enough for the grid at this cell size; the others are checked on every query.
    const small: number[] = [];
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      const cells =
        (Math.floor(b.maxLon / cellDeg) - Math.floor(b.minLon / cellDeg) + 1) *
        (Math.floor(b.maxLat / cellDeg) - Math.floor(b.minLat / cellDeg) + 1);
      if (cells > opts.maxCellsPerFence) this.large.push(i);
      else small.push(i);
    }
    if (small.length > 0) {
      let minLat = Infinity;
      let minLon = Infinity;
      let maxLat = -Infinity;
      let maxLon = -Infinity;
      for (const i of small) {
        const b = boxes[i]!;
        minLat = Math.min(minLat, b.minLat);
        minLon = Math.min(minLon, b.minLon);
        maxLat = Math.max(maxLat, b.maxLat);
        maxLon = Math.max(maxLon, b.maxLon);
      }
      // Keep the dense array bounded (at most ~4M cells) by coarsening when the extent is huge.
      while (((maxLon - minLon) / cellDeg + 2) * ((maxLat - minLat) / cellDeg + 2) > 4_000_000) cellDeg *= 2;
      this.x0 = Math.floor(minLon / cellDeg);
      this.y0 = Math.floor(minLat / cellDeg);
      this.nx = Math.floor(maxLon / cellDeg) - this.x0 + 1;
      this.ny = Math.floor(maxLat / cellDeg) - this.y0 + 1;
      const lists: number[][] = [];
      for (const i of small) {
        const b = boxes[i]!;
        const xa = Math.floor(b.minLon / cellDeg) - this.x0;
        const xb = Math.floor(b.maxLon / cellDeg) - this.x0;
        const ya = Math.floor(b.minLat / cellDeg) - this.y0;
        const yb = Math.floor(b.maxLat / cellDeg) - this.y0;
        for (let x = xa; x <= xb; x++) {
          for (let y = ya; y <= yb; y++) (lists[x * this.ny + y] ??= []).push(i);
        }
      }
      this.cells = lists.map((l) => (l ? Int32Array.from(l) : undefined));
    }
    this.cellDeg = cellDeg;
  }

  all(): readonly IndexedFence<T>[] {
    return this.fences;
  }

  get size(): number {
    return this.fences.length;
  }

  /** Geofences containing the point, in the order they were given. */
  query(lat: number, lon: number): IndexedFence<T>[] {
    const out: number[] = [];
    const boxes = this.boxes;
    const test = (i: number) => {
      const o = i * 4;
      if (lat < boxes[o]! || lon < boxes[o + 1]! || lat > boxes[o + 2]! || lon > boxes[o + 3]!) return;
      if (containsPoint(this.fences[i]!.shape, lat, lon)) out.push(i);
    };
    const x = Math.floor(lon / this.cellDeg) - this.x0;
    const y = Math.floor(lat / this.cellDeg) - this.y0;
    if (x >= 0 && y >= 0 && x < this.nx && y < this.ny) {
      const list = this.cells[x * this.ny + y];
      if (list) for (let k = 0; k < list.length; k++) test(list[k]!);
    }
    for (const i of this.large) test(i);
    if (out.length > 1) out.sort((a, b) => a - b);
    return out.map((i) => this.fences[i]!);
  }
}
