#!/usr/bin/env node
/**
 * Generates src/map/basemap/region.json, the land, sea and borders of the offline basemap, from the
 * npm package world-atlas (Natural Earth 1:10m admin-0 countries as TopoJSON; Natural Earth is in
 * the public domain, world-atlas is ISC). Only the region around the UAE is kept (REGION below),
 * clipped, simplified (Douglas-Peucker) and rounded, so the committed file stays small.
 * Roads and place names are hand-made modules beside it (roads.ts, places.ts).
 *   node scripts/build-basemap.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-10m.json'), 'utf8'));

/** [west, south, east, north]: the UAE, Oman, Qatar, Bahrain, eastern Saudi Arabia, southern Iran. */
const REGION = [46, 20, 60.5, 30];
/** Simplification tolerance in degrees (~150 m) and rounding (4 decimals, ~11 m). */
const TOLERANCE = 0.0015;
const round = (v) => Math.round(v * 1e4) / 1e4;

/** Sutherland-Hodgman clip of a closed ring to REGION. */
function clipRing(ring) {
  const [w, s, e, n] = REGION;
  const edges = [
    [(p) => p[0] >= w, (a, b) => [w, a[1] + ((b[1] - a[1]) * (w - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= e, (a, b) => [e, a[1] + ((b[1] - a[1]) * (e - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= s, (a, b) => [a[0] + ((b[0] - a[0]) * (s - a[1])) / (b[1] - a[1]), s]],
    [(p) => p[1] <= n, (a, b) => [a[0] + ((b[0] - a[0]) * (n - a[1])) / (b[1] - a[1]), n]],
  ];
  let out = ring;
  for (const [inside, cut] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i];
      const prev = input[(i + input.length - 1) % input.length];
      if (inside(cur)) {
        if (!inside(prev)) out.push(cut(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cut(prev, cur));
    }
    if (out.length === 0) break;
  }
  return out;
}

/** Splits a line into the runs inside REGION (points outside are dropped; enough at this scale). */
function clipLine(line) {
  const [w, s, e, n] = REGION;
  const runs = [];
  let run = [];
  for (const p of line) {
    if (p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n) run.push(p);
    else if (run.length) (runs.push(run), (run = []));
  }
  if (run.length) runs.push(run);
  return runs.filter((r) => r.length > 1);
}

function simplify(points, tolerance) {
  if (points.length < 3) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = points[a];
    const [bx, by] = points[b];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy);
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      // A closed ring starts and ends on one point: measure from that point instead of a line.
      const d =
        len < 1e-12
          ? Math.hypot(points[i][0] - ax, points[i][1] - ay)
          : Math.abs(dy * points[i][0] - dx * points[i][1] + bx * ay - by * ax) / len;
      if (d > worst) (worst = d), (at = i);
    }
    if (worst > tolerance) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

const flat = (points) => points.flatMap(([x, y]) => [round(x), round(y)]);

const land = [];
const countries = feature(topo, topo.objects.countries).features;
for (const country of countries) {
  const polys = country.geometry?.type === 'Polygon' ? [country.geometry.coordinates] : (country.geometry?.coordinates ?? []);
  for (const poly of polys) {
    // Outer rings only: the region's countries have no lakes or enclaves worth a hole at this scale.
    const ring = simplify(clipRing(poly[0]), TOLERANCE);
    if (ring.length >= 4) land.push(flat(ring));
  }
}
const borderMesh = mesh(topo, topo.objects.countries, (a, b) => a !== b);
const borders = [];
for (const line of borderMesh.coordinates)
  for (const run of clipLine(line)) {
    const s = simplify(run, TOLERANCE);
    if (s.length > 1) borders.push(flat(s));
  }

const out = {
  source: 'Natural Earth 1:10m admin-0 countries (public domain) via the npm package world-atlas 2 (ISC)',
  region: REGION,
  land,
  borders,
};
const file = new URL('../src/map/basemap/region.json', import.meta.url);
writeFileSync(file, JSON.stringify(out) + '\n');
console.log(`region.json: ${land.length} land rings, ${borders.length} border lines, ${JSON.stringify(out).length} bytes`);
