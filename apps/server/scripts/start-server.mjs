#!/usr/bin/env node
// The server's `npm start`: run src/main.ts as plain JavaScript, compiled by esbuild on the first
// start after a change, instead of through the tsx loader.
//
// Why: under tsx every module is transformed at import time by a loader running in its own
// thread, and the transformed sources with their source maps stay in memory. Measured at rest with
// the demo on PGlite: ~290 MB RSS through tsx, ~225-250 MB from the bundle.
//
// How: the inputs (this package's src, the src and package.json of the workspace packages it uses,
// this script) are fingerprinted by path, size and mtime; the bundle lives in dist/server-<fingerprint>/
// (built into a temporary folder and renamed, so concurrent starts never see half a build) and is
// imported in this same process, so no extra process stays around. Nothing is committed: a fresh
// clone builds on its first start (about a second). `npm run dev` still runs the sources via tsx.
//
// Memory at rest (package.json's `start` sets these before node starts, as glibc reads them once):
// - MALLOC_ARENA_MAX=2: worker threads share two malloc arenas instead of one each (~10 MB less).
// - MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=1048576 (issue 13): blocks of 128 KB and
//   more are mapped on their own and returned when freed, instead of fragmenting the heap. The reasons are in src/config/node-flags.ts (SERVER_MALLOC_ENV), which
//   the scale-out roles and the whole-product benches use.
// - --expose-gc: main.ts collects the embedded database's first instance after migrating and seeding.
// - --max-semi-space-size=8 --heap-growing-percent=50 (50 since session 11, 30 on the embedded database
//   since session 16 (main.ts), 8 since session 12, see
//   src/config/node-flags.ts; issue 13, bench:soak with 1,000 devices on
//   PGlite): the live heap was ~150 MB, but V8 let the old generation grow to ~560 MB of garbage
//   before a full collection (RSS 610-740 MB in the first hours, 1.2-1.6 GB by the evening), fed by
//   records and flush results promoted out of a 4 MB young generation while they waited for a
//   query. A 16 MB young generation lets them die young, and the old generation is collected at 1.3x
//   of what was live: RSS 388-475 MB over the same hours at the same CPU per record (0.233-0.235 ms).
//   Before: --max-semi-space-size=4 and V8's own growing factor.
// Earlier, MALLOC_MMAP_THRESHOLD_=32768 was tried and left out: ~12 % more CPU per location-history
// page for 40-50 MB at rest. At 1,000 devices the memory counts more (RSS goal 400 MB), and 64 KB
// keeps the small blocks of a page's rows in the heap.
// bench:api runs its HTTP server with the same malloc settings.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(serverRoot, '../..');
const distRoot = join(serverRoot, 'dist');

/** Files under `dir` (recursively), skipping tests, node_modules and build output. */
function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (!/\.test\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out;
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Folders of the workspace packages the server bundles (its @fleet/* dependencies, transitively). */
function workspaceDeps() {
  const packages = join(repoRoot, 'packages');
  const byName = new Map();
  for (const name of existsSync(packages) ? readdirSync(packages) : []) {
    const file = join(packages, name, 'package.json');
    if (existsSync(file)) byName.set(readJson(file).name, join(packages, name));
  }
  const fleetDeps = (file) => {
    const p = readJson(file);
    return Object.keys({ ...p.dependencies, ...p.peerDependencies }).filter((n) => n.startsWith('@fleet/'));
  };
  const found = new Set();
  const queue = fleetDeps(join(serverRoot, 'package.json'));
  while (queue.length) {
    const dir = byName.get(queue.shift());
    if (!dir || found.has(dir)) continue;
    found.add(dir);
    queue.push(...fleetDeps(join(dir, 'package.json')));
  }
  return [...found];
}

function fingerprint() {
  const files = [
    fileURLToPath(import.meta.url),
    join(serverRoot, 'package.json'),
    ...walk(join(serverRoot, 'src')),
  ];
  for (const dir of workspaceDeps()) files.push(join(dir, 'package.json'), ...walk(join(dir, 'src')));
  const h = createHash('sha256');
  for (const f of files.sort()) {
    try {
      const s = statSync(f);
      h.update(`${relative(repoRoot, f)}|${s.size}|${s.mtimeMs}\n`);
    } catch {
      // a file removed meanwhile
    }
  }
  return h.digest('hex').slice(0, 16);
}

/** Bundle src/main.ts (every part is imported statically through server.ts's list) into `outdir`. */
async function bundle(outdir) {
  const { build } = await import('esbuild');
  const src = join(serverRoot, 'src');
  // The PDF worker (reports/exports/pdf-render.ts) is a second entry: a worker thread needs a file of
  // its own to start, and it shares chunks (pdf.ts) with the server like any other entry.
  const entryPoints = {
    main: join(src, 'main.ts'),
    'pdf-worker': join(src, 'reports/exports/pdf-worker.ts'),
  };
  await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages are bundled from their TypeScript sources (no prior build needed);
    // everything from node_modules stays external and is loaded by Node as usual.
    conditions: ['source'],
    logLevel: 'warning',
    legalComments: 'none',
    // Every output file sits directly in dist/server-<fingerprint>/, two levels below the package.
    // __fleetChunkUrl tells code that it runs bundled and where its sibling entries are (pdf-worker.js).
    banner: {
      js: `const __fleetServerRoot = new URL('../../', import.meta.url);\nconst __fleetUrl = (p) => new URL(p, __fleetServerRoot).href;\nconst __fleetChunkUrl = import.meta.url;`,
    },
    plugins: [
      {
        name: 'fleet-server',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.path.startsWith('@fleet/') ? undefined : { external: true },
          );
          // Paths a module builds from import.meta.url (migrations, data files, the portal) stay
          // relative to its source file, wherever the bundle puts its code.
          b.onLoad({ filter: /\.ts$/ }, (a) => {
            if (!a.path.startsWith(src)) return undefined;
            let code = readFileSync(a.path, 'utf8');
            const rel = relative(serverRoot, a.path).split('\\').join('/');
            code = code.replaceAll('import.meta.url', `__fleetUrl(${JSON.stringify(rel)})`);
            return { contents: code, loader: 'ts' };
          });
        },
      },
    ],
  });
}

/** Keep the three newest bundles (a running server may still load chunks of an older one). */
function prune(keep) {
  const builds = readdirSync(distRoot)
    .filter((d) => d.startsWith('server-'))
    .map((d) => ({ d, at: statSync(join(distRoot, d)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { d } of builds.slice(3)) {
    if (d !== keep && !d.includes('.tmp-')) rmSync(join(distRoot, d), { recursive: true, force: true });
  }
}

async function compiled() {
  const name = `server-${fingerprint()}`;
  const out = join(distRoot, name);
  const main = join(out, 'main.js');
  if (!existsSync(main)) {
    const t0 = Date.now();
    const tmp = join(distRoot, `${name}.tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    try {
      await bundle(tmp);
      try {
        renameSync(tmp, out);
      } catch (e) {
        if (!existsSync(main)) throw e; // another start finished the same build first
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    const { stop } = await import('esbuild');
    await stop();
    console.log(
      `Compiled the server in ${((Date.now() - t0) / 1000).toFixed(1)} s (${relative(serverRoot, out)}).`,
    );
    prune(name);
  }
  return main;
}

await import(pathToFileURL(await compiled()).href);
