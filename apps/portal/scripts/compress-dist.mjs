// Compress the built portal once, at build time: every text file of dist/ (scripts, styles, the page,
// the manifest, SVG) over 1 KB gets a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside
// it, kept only when smaller than the original. The server (apps/server/src/http/portal.ts,
// @fastify/static with preCompressed) sends the copy the browser accepts, so no request pays for
// compression and the best (slowest) settings cost nothing at run time.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.json', '.webmanifest', '.svg', '.txt', '.map']);
const MIN_BYTES = 1024;

export function compressDist(dir) {
  const root = resolve(dir);
  let files = 0;
  let before = 0;
  let afterBr = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEXT.has(extname(entry.name)) && statSync(path).size >= MIN_BYTES) {
        const content = readFileSync(path);
        const br = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        const gz = gzipSync(content, { level: 9 });
        if (br.length < content.length) writeFileSync(`${path}.br`, br);
        if (gz.length < content.length) writeFileSync(`${path}.gz`, gz);
        files += 1;
        before += content.length;
        afterBr += Math.min(br.length, content.length);
      }
    }
  };
  walk(root);
  return { files, before, afterBr };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? new URL('../dist', import.meta.url).pathname;
  const r = compressDist(dir);
  console.log(
    `compress-dist: ${r.files} files, ${(r.before / 1024).toFixed(0)} KB -> ${(r.afterBr / 1024).toFixed(0)} KB with brotli`,
  );
}
