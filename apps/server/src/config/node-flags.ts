/**
 * The V8 settings every server process runs with: `npm start` (apps/server/package.json, which a
 * package script cannot import, so it spells them out; scripts/start-server.mjs says why they were
 * chosen), the scale-out roles (cluster/harness.ts) and the whole-product benches (pipeline/bench/
 * server-proc.ts). An 8 MB semi-space lets records and flush results that wait for a query die
 * young, and the old generation is collected at 1.3x of what is live instead of V8's ~3.7x (issue 13).
 *
 * 1.3x since session 16 (1.5x in sessions 11-15). bench:soak at 1,000 devices on PGlite, hours 0-3, same
 * commit: RSS 345-367 MB instead of 376-393 (main heap committed 142-149 MB instead of 153-167), at
 * 0.239-0.275 ms per record instead of 0.207-0.253, ACK p99 314-394 ms. The old generation holds
 * ~70-90 MB live; what makes it grow between collections is what survives the young generation: a
 * sampling profile of the promoted objects (hour 0, 30 s) showed ~1.8 GB per minute, led by the flush's
 * rollup results (16 %), records on the bus to the pipeline and the WebSocket hub (~35 %) and records
 * decoded and waiting to be stored (~15 %): a major collection every ~2 s at 1.5x, ~1.5 s at 1.3x,
 * marked concurrently on the other core. Session 11's trouble with 1.3x (below) came with a smaller live
 * heap and more work per record; the full day's figures are in the README.
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
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=30'];

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
