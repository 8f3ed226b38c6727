#!/usr/bin/env node
// Size report of the built package (run `npm run build` first): raw and gzip bytes of every JS and
// CSS file in dist/, totals per kind, and a final JSON line for CI to keep.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
if (!existsSync(dist)) {
  console.error('dist/ not found: run `npm run build` in packages/ui first');
  process.exit(1);
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const rows = walk(dist)
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => {
    const buf = readFileSync(f);
    return {
      file: relative(dist, f),
      kind: f.endsWith('.css') ? 'css' : 'js',
      bytes: buf.length,
      gzip: gzipSync(buf).length,
    };
  })
  .sort((a, b) => b.bytes - a.bytes);

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log('file'.padEnd(36), 'raw'.padStart(10), 'gzip'.padStart(10));
for (const r of rows) console.log(r.file.padEnd(36), kb(r.bytes).padStart(10), kb(r.gzip).padStart(10));
const total = (kind) =>
  rows
    .filter((r) => r.kind === kind)
    .reduce((s, r) => ({ bytes: s.bytes + r.bytes, gzip: s.gzip + r.gzip }), { bytes: 0, gzip: 0 });
const js = total('js');
const css = total('css');
console.log(`JS  total ${kb(js.bytes)} (gzip ${kb(js.gzip)})`);
console.log(`CSS total ${kb(css.bytes)} (gzip ${kb(css.gzip)})`);
console.log(JSON.stringify({ js: js, css: css, files: rows.length }));
