import { writeFileSync } from 'node:fs';
import type { Database, Queryable } from './db';

/**
 * Per-statement timing of a running server, for benchmarks (bench:soak `--query-stats`): set
 * `DB_QUERY_STATS=<file>` and every statement that goes through the database (`query`, `exec`,
 * statements inside `transaction`) is counted under its text (numbers and whitespace folded, so the
 * multi-row statements of different sizes stay one line) in consecutive wall-clock buckets of
 * `DB_QUERY_STATS_BUCKET_S` seconds (default 30). The file is rewritten every bucket and at exit.
 *
 * What "ms" means: PGlite runs one statement at a time from one queue, so the time a statement
 * waited behind the ones queued before it is not its own. Its own time is taken as
 * `end - max(start, end of the statement that finished before it)`; with one queue that is the time
 * the engine spent on it (plus the JavaScript around the call). On PostgreSQL (a pool) it is the
 * wall time of the call. `cpu_ms` is the process's CPU time (all threads) over the same span, which
 * a machine shared with other work inflates far less than the wall time. Off (not wrapped at all)
 * unless the variable is set.
 */
export interface StatementStats {
  calls: number;
  ms: number;
  /** process CPU time (all threads) over the same span: less inflated than `ms` on a loaded machine */
  cpuMs: number;
  rows: number;
  /** the longest own time of one call (what a device's insert queued behind at worst) */
  maxMs: number;
}

export function withQueryStats<D extends Database>(db: D, file: string, bucketS = 30): D {
  const started = Date.now();
  const buckets: Map<string, StatementStats>[] = [];
  let lastEnd = 0;
  let lastCpu = 0;
  const key = (sql: string) =>
    sql
      .replace(/\s+/g, ' ')
      .replace(/\$\d+/g, '$')
      .replace(/\b\d+\b/g, 'N')
      .trim()
      .slice(0, 240);
  const cpuNow = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  /** The entry of `label` in the current bucket. */
  const statsOf = (label: string): StatementStats => {
    const m = (buckets[Math.floor((Date.now() - started) / (bucketS * 1000))] ??= new Map());
    let s = m.get(label);
    if (!s) m.set(label, (s = { calls: 0, ms: 0, cpuMs: 0, rows: 0, maxMs: 0 }));
    return s;
  };
  const note = (sql: string, t0: number, c0: number, rows: number) => {
    const end = performance.now();
    const cpu = cpuNow();
    const pglite = db.driver === 'pglite';
    const own = pglite ? end - Math.max(t0, lastEnd) : end - t0;
    const ownCpu = pglite ? cpu - Math.max(c0, lastCpu) : cpu - c0;
    lastEnd = end;
    lastCpu = cpu;
    const s = statsOf(key(sql));
    s.calls++;
    s.ms += Math.max(0, own);
    s.maxMs = Math.max(s.maxMs, own);
    s.cpuMs += Math.max(0, ownCpu);
    s.rows += rows;
  };
  const noteWall = (label: string, ms: number) => {
    const s = statsOf(label);
    s.calls++;
    s.ms += ms;
    s.maxMs = Math.max(s.maxMs, ms);
  };
  const timed = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const c0 = cpuNow();
    const r = await run();
    note(sql, t0, c0, Array.isArray(r) ? r.length : 0);
    return r;
  };
  const dump = () => {
    const out = buckets.map((m, i) => ({
      from_s: i * bucketS,
      statements: Object.fromEntries(
        [...(m ?? new Map<string, StatementStats>()).entries()]
          .sort((a, b) => b[1].ms - a[1].ms)
          .map(([k, s]) => [
            k,
            {
              calls: s.calls,
              ms: Math.round(s.ms * 10) / 10,
              cpu_ms: Math.round(s.cpuMs * 10) / 10,
              rows: s.rows,
              max_ms: Math.round(s.maxMs * 10) / 10,
            },
          ]),
      ),
    }));
    try {
      writeFileSync(file, JSON.stringify(out, null, 1));
    } catch {
      /* a benchmark aid: never fail the server for it */
    }
  };
  const timer = setInterval(dump, bucketS * 1000);
  timer.unref();
  process.once('exit', dump);
  const wrapTx = (tx: Queryable & { exec(text: string): Promise<void> }) => ({
    query: <R>(text: string, params?: readonly unknown[]) => timed(text, () => tx.query<R>(text, params)),
    exec: (text: string) => timed(text, () => tx.exec(text)),
  });
  return {
    ...db,
    query: <T>(text: string, params?: readonly unknown[]) => timed(text, () => db.query<T>(text, params)),
    ...(db.urgent
      ? {
          urgent: {
            query: <T>(text: string, params?: readonly unknown[]) =>
              timed(text, () => db.urgent!.query<T>(text, params)),
          },
        }
      : {}),
    exec: (text: string) => timed(text, () => db.exec(text)),
    // A whole transaction is also counted, by its wall time from BEGIN to COMMIT (on PGlite nothing
    // else runs meanwhile: what the gateway's inserts wait behind), under "(transaction)".
    transaction: async <T>(fn: (tx: Queryable & { exec(text: string): Promise<void> }) => Promise<T>) => {
      let t0 = 0;
      try {
        return await db.transaction((tx) => {
          t0 = performance.now();
          return fn(wrapTx(tx));
        });
      } finally {
        if (t0 > 0) noteWall('(transaction)', performance.now() - t0);
      }
    },
    close: async () => {
      dump();
      clearInterval(timer);
      process.off('exit', dump);
      await db.close();
    },
  };
}
