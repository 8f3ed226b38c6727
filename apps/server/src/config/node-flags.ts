/**
 * The V8 settings every server process runs with: `npm start` (apps/server/package.json, which a
 * package script cannot import, so it spells them out; scripts/start-server.mjs says why they were
 * chosen), the scale-out roles (cluster/harness.ts) and the whole-product benches (pipeline/bench/
 * server-proc.ts). A 16 MB young generation lets records and flush results that wait for a query die
 * young, and the old generation is collected at 1.3x of what is live instead of V8's ~3.7x (issue 13).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=30'];
