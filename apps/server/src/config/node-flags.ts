import v8 from 'node:v8';

/**
 * The V8 settings every server process runs with: `npm start` (apps/server/package.json, which a
 * package script cannot import, so it spells them out; scripts/start-server.mjs says why they were
 * chosen), the scale-out roles (cluster/harness.ts) and the whole-product benches (pipeline/bench/
 * server-proc.ts). An 8 MB semi-space lets records and flush results that wait for a query die
 * young, and the old generation is collected at 1.5x of what is live instead of V8's ~3.7x (issue 13);
 * with the embedded database, at 1.3x ({@link useEmbeddedHeapGrowth}).
 *
 * 8 MB, not the 16 of sessions 9-11 (session 12): the flag sizes the young generation of every V8
 * heap of the process, PGlite's thread too, and each keeps two semi-spaces committed. bench:soak at
 * 1,000 devices on PGlite, hours 0-2 (same commit): RSS 391-399 MB instead of 405-410, main heap
 * committed 159-171 MB instead of 169-194, PGlite's thread heap 32-34 MB instead of 46-47, at 0.249-0.270
 * ms per record instead of 0.241-0.262, ACK p99 359-426 ms instead of 360-526. At 4 MB (before session
 * 9) records and flush results waiting for a query were promoted and the old generation grew.
 *
 * 1.5x (sessions 11-15), not the 1.3x of session 9: at 1.3x the heap held 105 MB of hourly checkpoint text that made
 * the margin; once the checkpoints were deflated outside the heap (incremental/device.ts) the same
 * 1.3x of a smaller live heap meant a full collection every ~1.3 s at 1,000 devices in the afternoon
 * (16 per 20 s, from the server's own GC metrics), and CPU per record rose 20-35 % by then (bench:soak,
 * PGlite: 0.30-0.34 ms in hours 7-10, 0.42-0.45 in the evening). At 1.5x: 7 per 20 s, 0.26-0.33 ms in
 * the same hours, for ~10-20 MB more RSS.
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=50'];

/** Old-generation growth of a server on the embedded database: collected at 1.3x of what is live. */
export const EMBEDDED_HEAP_GROWING_PERCENT = 30;

/**
 * Called by main.ts when the storage is embedded PGlite (before it opens): the old generation is then
 * collected at 1.3x of what is live instead of {@link SERVER_V8_FLAGS}' 1.5x. V8 reads the setting each
 * time it sets the next limit, so changing it at start-up works as the command-line flag does (checked:
 * the same committed heap over a synthetic load either way).
 *
 * Why only embedded (session 16, bench:soak, 1,000 devices, full days, same commit, 1.3x for both):
 * - PGlite: RSS 343-396 MB through hours 0-22 and 416 in hour 23 (1.5x, session 15: 384-451); main heap
 *   committed 122-183 MB instead of 147-207, for ~15 % more CPU per record (0.295 ms for the day; goal
 *   0.5). The old generation holds ~80-140 MB live (heap snapshots: rollup and trip folds, the flush's
 *   memory of written rows, module sources); a sampling profile of what survives the young generation
 *   showed ~1.8 GB per minute promoted (the flush's rollup results 16 %, records on the bus to the
 *   pipeline and the WebSocket hub ~35 %, records waiting to be stored ~15 %), a major collection every
 *   ~2 s at 1.5x and more often at 1.3x.
 * - PostgreSQL: the server's RSS is far from the goal either way (218-282 MB at 1.3x, 234-314 at 1.5x)
 *   but its CPU per record grew through the day at 1.3x, 0.198 -> 0.242 ms (cost last/first 1.22, goal
 *   1.2; 1.19 at 1.5x): there the memory buys nothing and the CPU is the goal that binds. The scale-out
 *   roles run on PostgreSQL and keep 1.5x.
 */
export function useEmbeddedHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  // A setting of node's own command line other than the default one (an experiment, e.g. bench:soak's
  // BENCH_NODE_FLAGS) is left as it was given.
  const usual = SERVER_V8_FLAGS.find((f) => f.startsWith('--heap-growing-percent='));
  if (execArgv.some((a) => a.startsWith('--heap-growing-percent') && a !== usual)) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${EMBEDDED_HEAP_GROWING_PERCENT}`);
  return true;
}

/**
 * glibc malloc settings of every server process (read once when the process starts, so they are set
 * in its environment: package.json's `start` spells the same out):
 * - MALLOC_ARENA_MAX=2: worker threads share two arenas instead of one each;
 * - MALLOC_MMAP_THRESHOLD_=131072: blocks of 128 KB and more are mapped on their own and go back to
 *   the system when freed. glibc's own threshold rises to 32 MB as big blocks are freed, so the
 *   server's big short-lived buffers (the rows and parameters crossing to PGlite's thread, compiling
 *   PGlite's WebAssembly) ended in the heap and left it fragmented. 64 KB took more off (bench:soak at
 *   1,000 devices on PGlite, RSS 435 -> 397 MB in the same hour) but put every socket read (node
 *   asks for 64 KB per read) through a mapping of its own; 128 KB keeps those in the heap;
 * - MALLOC_TRIM_THRESHOLD_=1048576: free memory at the top of the heap goes back past 1 MB, not 128 KB
 *   but without the dynamic rise that came with the default.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '1048576',
};
