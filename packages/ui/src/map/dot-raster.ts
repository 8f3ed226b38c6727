/**
 * A tiny software rasteriser for the compact level of detail: thousands of anti-aliased dots and
 * heading ticks are blended straight into a 32-bit pixel buffer (precomputed coverage masks, one
 * `putImageData` per frame). At 10,000 markers this is far cheaper than asking the 2D canvas to
 * rasterise 10,000 paths on the main thread. Pure TypeScript over typed arrays: unit-tested in Node.
 */

/** Packed non-premultiplied RGBA as it sits in a little-endian Uint32Array view of ImageData. */
export type Rgba = number;

export function packRgba(r: number, g: number, b: number, a = 255): Rgba {
  return (((a & 255) << 24) | ((b & 255) << 16) | ((g & 255) << 8) | (r & 255)) >>> 0;
}

export function unpackRgba(c: Rgba): [number, number, number, number] {
  return [c & 255, (c >>> 8) & 255, (c >>> 16) & 255, (c >>> 24) & 255];
}

/** Coverage mask: `size x size` values in [0, 1], centred on the dot. */
export interface Mask {
  size: number;
  /** Offset from the mask's top-left pixel to the centre. */
  half: number;
  coverage: Float32Array;
}

const SUB = 4; // 4x4 supersampling

/** Disc of radius `r` pixels centred in its mask (pixel centres at +0.5). */
export function discMask(r: number): Mask {
  const size = Math.ceil(r * 2) + 2;
  const half = size / 2;
  const coverage = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < SUB; sy++) {
        for (let sx = 0; sx < SUB; sx++) {
          const dx = x + (sx + 0.5) / SUB - half;
          const dy = y + (sy + 0.5) / SUB - half;
          if (dx * dx + dy * dy <= r * r) hits++;
        }
      }
      coverage[y * size + x] = hits / (SUB * SUB);
    }
  }
  return { size, half, coverage };
}

/** A line segment from radius `r0` to `r1` at `headingDeg` (clockwise from north), `width` px thick. */
export function tickMask(headingDeg: number, r0: number, r1: number, width: number): Mask {
  const size = Math.ceil(r1 * 2 + width) + 2;
  const half = size / 2;
  const rad = (headingDeg * Math.PI) / 180;
  const ux = Math.sin(rad);
  const uy = -Math.cos(rad);
  const ax = ux * r0;
  const ay = uy * r0;
  const len = r1 - r0;
  const coverage = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < SUB; sy++) {
        for (let sx = 0; sx < SUB; sx++) {
          const px = x + (sx + 0.5) / SUB - half - ax;
          const py = y + (sy + 0.5) / SUB - half - ay;
          const t = px * ux + py * uy;
          if (t < 0 || t > len) continue;
          const d = Math.abs(px * uy - py * ux);
          if (d <= width / 2) hits++;
        }
      }
      coverage[y * size + x] = hits / (SUB * SUB);
    }
  }
  return { size, half, coverage };
}

/** Pixel buffer with source-over blending of coverage masks. */
export class DotRaster {
  width = 0;
  height = 0;
  pixels = new Uint32Array(0);

  resize(width: number, height: number): void {
    const w = Math.max(0, Math.floor(width));
    const h = Math.max(0, Math.floor(height));
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.pixels = new Uint32Array(w * h);
  }

  clear(): void {
    this.pixels.fill(0);
  }

  /** Blends `colour` through `mask` centred at (cx, cy) in buffer pixels; clipped to the buffer. */
  stamp(mask: Mask, cx: number, cy: number, colour: Rgba): void {
    const x0 = Math.round(cx - mask.half);
    const y0 = Math.round(cy - mask.half);
    const size = mask.size;
    const w = this.width;
    const h = this.height;
    if (x0 >= w || y0 >= h || x0 + size <= 0 || y0 + size <= 0) return;
    const px = this.pixels;
    const cov = mask.coverage;
    const sr = colour & 255;
    const sg = (colour >>> 8) & 255;
    const sb = (colour >>> 16) & 255;
    const sa = ((colour >>> 24) & 255) / 255;
    const yStart = Math.max(0, -y0);
    const yEnd = Math.min(size, h - y0);
    const xStart = Math.max(0, -x0);
    const xEnd = Math.min(size, w - x0);
    for (let my = yStart; my < yEnd; my++) {
      const row = (y0 + my) * w + x0;
      const mrow = my * size;
      for (let mx = xStart; mx < xEnd; mx++) {
        const c = cov[mrow + mx]!;
        if (c === 0) continue;
        const a = c * sa;
        const i = row + mx;
        if (a >= 0.999) {
          px[i] = colour | 0xff000000;
          continue;
        }
        const d = px[i]!;
        const da = ((d >>> 24) & 255) / 255;
        const oa = a + da * (1 - a);
        if (oa <= 0) continue;
        const k = (da * (1 - a)) / oa;
        const f = a / oa;
        const r = sr * f + (d & 255) * k;
        const g = sg * f + ((d >>> 8) & 255) * k;
        const b = sb * f + ((d >>> 16) & 255) * k;
        px[i] =
          ((Math.round(oa * 255) << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
      }
    }
  }
}

/**
 * A pre-composited sprite as a sparse pixel list: opaque pixels first (plain writes), then the
 * anti-aliased edge pixels (blended). Built once per colour combination, stamped per marker.
 */
export interface Stamp {
  /** Offsets from the (rounded) centre. */
  dx: Int16Array;
  dy: Int16Array;
  rgba: Uint32Array;
  /** Number of leading entries that are fully opaque. */
  opaque: number;
  /** Linear offsets `dy * width + dx` for the last raster width used (computed on demand). */
  offsets?: Int32Array;
  offsetsWidth?: number;
  /** Bounding box of the offsets. */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Composites mask layers (in order) into a stamp. */
export function makeStamp(layers: readonly { mask: Mask; colour: Rgba }[]): Stamp {
  const size = Math.max(...layers.map((l) => l.mask.size));
  const patch = new DotRaster();
  patch.resize(size, size);
  const centre = size / 2;
  for (const l of layers) patch.stamp(l.mask, centre, centre, l.colour);
  const opaque: [number, number, number][] = [];
  const partial: [number, number, number][] = [];
  const origin = Math.round(centre - size / 2);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = patch.pixels[y * size + x]!;
      const a = p >>> 24;
      if (a === 0) continue;
      const entry: [number, number, number] = [
        x + origin - Math.round(centre),
        y + origin - Math.round(centre),
        p,
      ];
      (a === 255 ? opaque : partial).push(entry);
    }
  }
  const all = [...opaque, ...partial];
  const stamp: Stamp = {
    dx: Int16Array.from(all.map((e) => e[0])),
    dy: Int16Array.from(all.map((e) => e[1])),
    rgba: Uint32Array.from(all.map((e) => e[2])),
    opaque: opaque.length,
    minX: Math.min(0, ...all.map((e) => e[0])),
    minY: Math.min(0, ...all.map((e) => e[1])),
    maxX: Math.max(0, ...all.map((e) => e[0])),
    maxY: Math.max(0, ...all.map((e) => e[1])),
  };
  return stamp;
}

/** Source-over of one non-premultiplied pixel onto another. */
export function blendPixel(dst: Rgba, src: Rgba): Rgba {
  const sa = (src >>> 24) / 255;
  if (sa >= 1) return src;
  const da = (dst >>> 24) / 255;
  const oa = sa + da * (1 - sa);
  if (oa <= 0) return 0;
  const k = (da * (1 - sa)) / oa;
  const f = sa / oa;
  const r = (src & 255) * f + (dst & 255) * k;
  const g = ((src >>> 8) & 255) * f + ((dst >>> 8) & 255) * k;
  const b = ((src >>> 16) & 255) * f + ((dst >>> 16) & 255) * k;
  return ((Math.round(oa * 255) << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
}

/**
 * {@link blendPixel} with the two cases that make up nearly every edge pixel of a dense frame done in
 * integer arithmetic: an empty destination (the source is the result) and an opaque destination
 * (the result is opaque; each channel is `(s * a + d * (255 - a)) / 255`, rounded). Anything else
 * falls back to the exact formula. Agrees with `blendPixel` to within one level per channel.
 */
export function blendOver(dst: Rgba, src: Rgba): Rgba {
  const da = dst >>> 24;
  if (da === 0) return src;
  const a = src >>> 24;
  if (a === 255) return src;
  if (da !== 255) return blendPixel(dst, src);
  const ia = 255 - a;
  const r = div255((src & 255) * a + (dst & 255) * ia);
  const g = div255(((src >>> 8) & 255) * a + ((dst >>> 8) & 255) * ia);
  const b = div255(((src >>> 16) & 255) * a + ((dst >>> 16) & 255) * ia);
  return (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
}

/** Exact `round(x / 255)` for 0 <= x <= 255 * 255, without a division. */
function div255(x: number): number {
  const t = x + 128;
  return (t + (t >>> 8)) >>> 8;
}

/** Stamps a pre-composited sprite centred at (cx, cy) (rounded to whole pixels), clipped. */
export function stampSprite(raster: DotRaster, stamp: Stamp, cx: number, cy: number): void {
  const x = Math.round(cx);
  const y = Math.round(cy);
  const w = raster.width;
  const h = raster.height;
  if (x + stamp.maxX < 0 || y + stamp.maxY < 0 || x + stamp.minX >= w || y + stamp.minY >= h) return;
  const px = raster.pixels;
  const { dx, dy, rgba, opaque } = stamp;
  const n = dx.length;
  const inside = x + stamp.minX >= 0 && y + stamp.minY >= 0 && x + stamp.maxX < w && y + stamp.maxY < h;
  const base = y * w + x;
  if (inside) {
    let off = stamp.offsets;
    if (!off || stamp.offsetsWidth !== w) {
      off = new Int32Array(n);
      for (let i = 0; i < n; i++) off[i] = dy[i]! * w + dx[i]!;
      stamp.offsets = off;
      stamp.offsetsWidth = w;
    }
    for (let i = 0; i < opaque; i++) px[base + off[i]!] = rgba[i]!;
    for (let i = opaque; i < n; i++) {
      const j = base + off[i]!;
      px[j] = blendOver(px[j]!, rgba[i]!);
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const xx = x + dx[i]!;
    const yy = y + dy[i]!;
    if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
    const j = yy * w + xx;
    px[j] = i < opaque ? rgba[i]! : blendOver(px[j]!, rgba[i]!);
  }
}
