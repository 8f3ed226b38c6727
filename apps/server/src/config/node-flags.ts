/**
 * The V8 settings every server process runs with: `npm start` (apps/server/package.json, which a
 * package script cannot import, so it spells them out; scripts/start-server.mjs says why they were
 * chosen), the scale-out roles (cluster/harness.ts) and the whole-product benches (pipeline/bench/
 * server-proc.ts). A 16 MB young generation lets records and flush results that wait for a query die
 * young, and the old generation is collected at 1.3x of what is live instead of V8's ~3.7x (issue 13).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=30'];

/**
 * glibc malloc settings of every server process (read once when the process starts, so they are set
 * in its environment: package.json's `start` spells the same out):
 * - MALLOC_ARENA_MAX=2: worker threads share two arenas instead of one each;
 * - MALLOC_MMAP_THRESHOLD_=65536: blocks of 64 KB and more are mapped on their own and go back to the
 *   system when freed. glibc's own threshold rises to 32 MB as big blocks are freed, so the server's
 *   big short-lived buffers (socket reads, the rows and parameters crossing to PGlite's thread,
 *   compiling PGlite's WebAssembly) ended in the heap and left it fragmented: bench:soak at 1,000
 *   devices on PGlite, RSS 435 -> 397 MB in the same hour (CPU per record within the run's noise,
 *   at most ~10 % more: a mapping per big block);
 * - MALLOC_TRIM_THRESHOLD_=1048576: free memory at the top of the heap goes back past 1 MB, not 128 KB
 *   but without the dynamic rise that came with the default.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '1048576',
};
