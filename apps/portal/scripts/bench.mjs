#!/usr/bin/env node
// bench:portal — builds the portal and measures what a first visit downloads: the JavaScript the
// entry HTML loads (entry script + modulepreloads), gzipped, against the goal (< 250 KB),
// and how the routes are split (one lazy chunk per page). Prints the figures, then one JSON line.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const GOAL_KB = 250;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set();
for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) initial.add(m[1]);
for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) initial.add(m[1]);

const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
let initialBytes = 0;
for (const file of initial) initialBytes += gz(file);

const assets = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
let totalBytes = 0;
for (const f of assets) totalBytes += gzipSync(readFileSync(join(dist, 'assets', f))).length;
const pageChunks = assets.filter((f) => /-page-/.test(f)).length;
const largest = assets
  .map((f) => ({ f, kb: statSync(join(dist, 'assets', f)).size / 1024 }))
  .sort((a, b) => b.kb - a.kb)
  .slice(0, 5);

const kb = (b) => Math.round((b / 1024) * 10) / 10;
console.log(`initial JS (entry + modulepreload), gzipped: ${kb(initialBytes)} KB (goal < ${GOAL_KB} KB)`);
console.log(`files loaded first: ${[...initial].join(', ')}`);
console.log(
  `all JS chunks: ${assets.length} (${kb(totalBytes)} KB gzipped), lazy page chunks: ${pageChunks}`,
);
console.log('largest chunks (raw):', largest.map((l) => `${l.f} ${Math.round(l.kb)} KB`).join(', '));
const size = {
  initial_js_gzip_kb: kb(initialBytes),
  js_chunks: assets.length,
  lazy_page_chunks: pageChunks,
  total_js_gzip_kb: kb(totalBytes),
};
const sizePass = initialBytes / 1024 < GOAL_KB && pageChunks > 10;

// The live map in Chromium (1,000 vehicles): paint time after navigation and frame rate under updates.
let live = null;
if (!process.argv.includes('--no-live')) {
  const run = spawnSync('node', [join(root, 'scripts/bench-live.mjs')], { cwd: root, encoding: 'utf8' });
  const lines = (run.stdout ?? '').trim().split('\n');
  for (const line of lines.slice(0, -1)) console.log(line);
  try {
    live = JSON.parse(lines[lines.length - 1] ?? '');
  } catch {
    console.log('live map benchmark failed:', (run.stderr ?? '').split('\n').slice(0, 5).join(' '));
  }
}

console.log(
  JSON.stringify({
    bench: 'portal',
    ...size,
    live_vehicles: live?.vehicles ?? null,
    live_paint_ms: live?.paint_ms ?? null,
    live_fps: live?.fps ?? null,
    goal: { initial_js_gzip_kb_max: GOAL_KB, routes_split: true, live_paint_ms_max: 2000, live_fps_min: 60 },
    pass: sizePass && (live ? live.pass : false),
  }),
);
