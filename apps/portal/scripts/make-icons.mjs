#!/usr/bin/env node
// Generates the PWA icons (SVG + PNG 192/512 + maskable 512) from one vector description, with no
// image library: the PNGs are rasterised here with 4x4 supersampling and encoded with node:zlib.
// Run: node scripts/make-icons.mjs   (outputs are committed under public/icons)
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const out = new URL('../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });

const BG = [15, 118, 110]; // teal-700
const FG = [255, 255, 255];
const ACCENT = [250, 204, 21]; // amber-400

/** Shapes in a 0..1 unit square. `pad` shrinks the artwork for the maskable safe zone. */
function shade(x, y, pad, rounded) {
  // background: rounded square (or full bleed for maskable)
  if (rounded) {
    const r = 0.2;
    const cx = Math.min(Math.max(x, r), 1 - r);
    const cy = Math.min(Math.max(y, r), 1 - r);
    if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  }
  const s = 1 - 2 * pad;
  const u = (x - pad) / s;
  const v = (y - pad) / s;
  // location pin: circle head + tapering tail
  const hx = 0.5,
    hy = 0.4,
    hr = 0.25;
  const d2 = (u - hx) ** 2 + (v - hy) ** 2;
  const inHead = d2 <= hr * hr;
  const tail = v >= hy && v <= 0.86 && Math.abs(u - hx) <= hr * (1 - (v - hy) / (0.86 - hy)) * 0.92;
  if (inHead && d2 <= (hr * 0.45) ** 2) return ACCENT;
  if (inHead || tail) return FG;
  return BG;
}

function raster(size, pad, rounded) {
  const ss = 4;
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < ss; sy++)
        for (let sx = 0; sx < ss; sx++) {
          const c = shade((px + (sx + 0.5) / ss) / size, (py + (sy + 0.5) / ss) / size, pad, rounded);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 255;
        }
      const n = ss * ss;
      const covered = a / 255;
      const o = 1 + px * 4;
      row[o] = covered ? Math.round(r / covered) : 0;
      row[o + 1] = covered ? Math.round(g / covered) : 0;
      row[o + 2] = covered ? Math.round(b / covered) : 0;
      row[o + 3] = Math.round(a / n);
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, raw) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="100" rx="20" fill="${hex(BG)}"/>
  <path d="M50 86 L27.6 46 A25 25 0 1 1 72.4 46 Z" fill="${hex(FG)}"/>
  <circle cx="50" cy="40" r="11.25" fill="${hex(ACCENT)}"/>
</svg>
`;

writeFileSync(new URL('icon.svg', out), svg);
writeFileSync(new URL('icon-192.png', out), raster(192, 0.08, true));
writeFileSync(new URL('icon-512.png', out), raster(512, 0.08, true));
writeFileSync(new URL('icon-maskable-512.png', out), raster(512, 0.2, false));
console.log('icons written to', out.pathname);
