import { describe, expect, it } from 'vitest';
import {
  DotRaster,
  blendOver,
  blendPixel,
  discMask,
  makeStamp,
  packRgba,
  stampSprite,
  tickMask,
  unpackRgba,
} from './dot-raster';

const sum = (a: Float32Array) => a.reduce((s, v) => s + v, 0);

describe('masks', () => {
  it.each([2, 4, 5.5, 8])('disc of radius %s covers about pi r^2 pixels', (r) => {
    const m = discMask(r);
    expect(Math.abs(sum(m.coverage) - Math.PI * r * r)).toBeLessThan(Math.PI * r * r * 0.05 + 0.5);
    expect(m.coverage[Math.floor(m.half) * m.size + Math.floor(m.half)]).toBe(1);
    expect(m.coverage[0]).toBe(0);
  });

  it.each([
    [0, 'up'],
    [90, 'right'],
    [180, 'down'],
    [270, 'left'],
  ] as const)('tick at %s degrees points %s', (heading, dir) => {
    const m = tickMask(heading, 4, 9, 2);
    let cx = 0;
    let cy = 0;
    let total = 0;
    for (let y = 0; y < m.size; y++)
      for (let x = 0; x < m.size; x++) {
        const c = m.coverage[y * m.size + x]!;
        cx += (x + 0.5 - m.half) * c;
        cy += (y + 0.5 - m.half) * c;
        total += c;
      }
    cx /= total;
    cy /= total;
    expect(total).toBeCloseTo(10, 0);
    const expected = { up: [0, -6.5], right: [6.5, 0], down: [0, 6.5], left: [-6.5, 0] }[dir];
    expect(cx).toBeCloseTo(expected[0]!, 0);
    expect(cy).toBeCloseTo(expected[1]!, 0);
  });
});

describe('DotRaster', () => {
  it('packs colours little-endian RGBA', () => {
    expect(unpackRgba(packRgba(10, 20, 30, 40))).toEqual([10, 20, 30, 40]);
    expect(unpackRgba(packRgba(255, 255, 255))).toEqual([255, 255, 255, 255]);
  });

  it('stamps opaque interiors, blends edges and clips at the borders', () => {
    const r = new DotRaster();
    r.resize(20, 10);
    const red = packRgba(200, 0, 0);
    r.stamp(discMask(3), 10, 5, red);
    expect(unpackRgba(r.pixels[5 * 20 + 10]!)).toEqual([200, 0, 0, 255]);
    expect(r.pixels[0]).toBe(0);
    const edge = unpackRgba(r.pixels[5 * 20 + 7]!);
    expect(edge[3]).toBeGreaterThan(0);
    expect(edge[3]).toBeLessThan(255);
    expect(edge[0]).toBe(200);
    // Partly outside: no throw, the visible part drawn.
    r.stamp(discMask(3), 0, 0, red);
    r.stamp(discMask(3), 19, 9, red);
    r.stamp(discMask(3), -50, -50, red);
    expect(unpackRgba(r.pixels[0]!)[3]).toBe(255);
    expect(unpackRgba(r.pixels[9 * 20 + 19]!)[3]).toBe(255);
  });

  it('composites source-over on top of an earlier dot', () => {
    const r = new DotRaster();
    r.resize(8, 8);
    r.stamp(discMask(3), 4, 4, packRgba(0, 0, 255));
    const half = { size: 1, half: 0.5, coverage: new Float32Array([0.5]) };
    r.stamp(half, 4.5, 4.5, packRgba(255, 0, 0));
    expect(unpackRgba(r.pixels[4 * 8 + 4]!)).toEqual([128, 0, 128, 255]);
  });

  it('clears and resizes', () => {
    const r = new DotRaster();
    r.resize(4, 4);
    r.stamp(discMask(2), 2, 2, packRgba(1, 2, 3));
    r.clear();
    expect(r.pixels.every((p) => p === 0)).toBe(true);
    r.resize(3.7, -1);
    expect([r.width, r.height, r.pixels.length]).toEqual([3, 0, 0]);
  });
});

describe('stamps', () => {
  it('match stamping the masks directly, inside and at the borders', () => {
    const layers = [
      { mask: discMask(6), colour: packRgba(255, 255, 255) },
      { mask: discMask(5), colour: packRgba(0, 120, 0) },
      { mask: tickMask(45, 5, 9, 2), colour: packRgba(20, 20, 20) },
    ];
    const stamp = makeStamp(layers);
    expect(stamp.opaque).toBeGreaterThan(60);
    for (const [cx, cy] of [
      [15, 15],
      [1, 2],
      [29, 28],
    ] as const) {
      const direct = new DotRaster();
      direct.resize(30, 30);
      direct.stamp(discMask(3), 14, 14, packRgba(0, 0, 200));
      const viaStamp = new DotRaster();
      viaStamp.resize(30, 30);
      viaStamp.stamp(discMask(3), 14, 14, packRgba(0, 0, 200));
      for (const l of layers) direct.stamp(l.mask, cx, cy, l.colour);
      stampSprite(viaStamp, stamp, cx, cy);
      let maxDiff = 0;
      for (let i = 0; i < direct.pixels.length; i++) {
        const a = unpackRgba(direct.pixels[i]!);
        const b = unpackRgba(viaStamp.pixels[i]!);
        for (let k = 0; k < 4; k++) maxDiff = Math.max(maxDiff, Math.abs(a[k]! - b[k]!));
      }
      // Compositing order differs only in rounding of the partly covered edge pixels.
      expect(maxDiff).toBeLessThanOrEqual(40);
    }
  });

  it('blendPixel is source-over', () => {
    expect(blendPixel(packRgba(0, 0, 255), packRgba(255, 0, 0, 128))).toBe(packRgba(128, 0, 127, 255));
    expect(blendPixel(0, packRgba(10, 20, 30, 64))).toBe(packRgba(10, 20, 30, 64));
    expect(blendPixel(packRgba(1, 2, 3), packRgba(9, 9, 9))).toBe(packRgba(9, 9, 9));
  });

  it('blendOver matches blendPixel within one level per channel', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 255;
    for (let i = 0; i < 5000; i++) {
      const dstAlpha = [0, 255, next()][i % 3]!;
      const dst = packRgba(next(), next(), next(), dstAlpha);
      const src = packRgba(next(), next(), next(), [255, next()][i % 2]!);
      const fast = unpackRgba(blendOver(dst, src));
      const exact = unpackRgba(blendPixel(dst, src));
      expect(Math.abs(fast[3] - exact[3])).toBeLessThanOrEqual(1);
      // Fully transparent results are equal whatever their colour channels say.
      if (exact[3] === 0) continue;
      for (let c = 0; c < 3; c++) expect(Math.abs(fast[c]! - exact[c]!)).toBeLessThanOrEqual(1);
    }
  });
});
