import type { Database } from '../storage/db';

/**
 * Housekeeping of the embedded database.
 *
 * PostgreSQL's autovacuum daemon reclaims the space of updated and deleted rows and refreshes the
 * planner's statistics. PGlite is a single-user PostgreSQL with no background workers, so in the
 * embedded product nothing would ever do either: tables that are updated all day (devices' connection
 * status, hourly rollups, sessions, notifications, command and export rows) would grow without bound,
 * and the planner would keep the statistics of the day the data folder was created while `locations`
 * grows by millions of rows. This job does autovacuum's work on a timer, with autovacuum's own
 * thresholds (a table is vacuumed once its dead rows exceed 50 + 20 % of its live rows, analysed once
 * its changes since the last analyse exceed 50 + 10 %), one table per statement so the single
 * connection is never held for long. On PostgreSQL it does nothing while the server's autovacuum
 * runs; a PostgreSQL with `autovacuum = off` (the one these machines and CI run, and a setting a DBA
 * may leave behind after a bulk load) gets the same passes, or its rollup and trip tables would bloat
 * and its statistics stay those of the empty schema (found in session 10's PostgreSQL bench:soak day).
 */
export const VACUUM_BASE = 50;
export const VACUUM_SCALE = 0.2;
export const ANALYZE_BASE = 50;
export const ANALYZE_SCALE = 0.1;
/**
 * Statistics target for the partitions of `locations` (PostgreSQL's default is 100). ANALYZE samples
 * 300 rows per unit of target, and on PGlite the statement holds the one connection: bench:soak's
 * 1,000-device day analysed a 4-million-row partition in 1.4 s at hour 11 (ACK p99 1.0 s that hour,
 * 0.3 s in the others), and a session before that a pass took ~25 s. With 10 the sample is 3,000 rows
 * (a 4-million-row copy of the table: 0.8 s -> 0.05 s on PGlite). The table is read by device and time
 * through its primary key, so the planner needs its row count and little else; the other tables keep
 * the default.
 */
export const LOCATIONS_STATISTICS_TARGET = 10;
const isLocations = (table: string) => /^locations(_\w+)?$/.test(table);

export interface MaintenanceResult {
  vacuumed: string[];
  analyzed: string[];
  ms: number;
  /** The table whose statement took longest, and how long (the single connection was held that long). */
  slowest: { table: string; ms: number } | null;
}

interface TableStats {
  schema: string;
  name: string;
  live: number;
  dead: number;
  changed: number;
  never: boolean;
}

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/** One pass: vacuum and/or analyse every table of the current schema that is over a threshold. */
export async function runMaintenance(db: Database): Promise<MaintenanceResult> {
  const started = performance.now();
  // Table counters reach the statistics views only when the backend flushes them; a single-user
  // backend that is never idle long enough may not have, so ask for it (PostgreSQL 15 and later).
  await db.query('SELECT pg_stat_force_next_flush()');
  // The flush happens at the end of the statement above, so the stats are read in a new one.
  // Counters start from zero when the data folder was not closed cleanly (PGlite writes them at
  // shutdown), so a table that holds data but has never been analysed (reltuples -1) counts as due too.
  const tables = await db.query<TableStats>(
    `SELECT s.schemaname AS schema, s.relname AS name, s.n_live_tup::float8 AS live,
            s.n_dead_tup::float8 AS dead, s.n_mod_since_analyze::float8 AS changed,
            (c.reltuples < 0 AND pg_relation_size(c.oid) > 0) AS never
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema() ORDER BY s.relname`,
  );
  const vacuumed: string[] = [];
  const analyzed: string[] = [];
  let slowest: MaintenanceResult['slowest'] = null;
  for (const t of tables) {
    const vacuum = t.dead > VACUUM_BASE + VACUUM_SCALE * t.live;
    const analyze = t.never || t.changed > ANALYZE_BASE + ANALYZE_SCALE * t.live;
    if (!vacuum && !analyze) continue;
    const target = `${quote(t.schema)}.${quote(t.name)}`;
    const t0 = performance.now();
    try {
      if (isLocations(t.name)) {
        // VACUUM cannot run inside a transaction block; the smaller sample is set for the ANALYZE only.
        if (vacuum) await db.exec(`VACUUM ${target}`);
        await db.transaction(async (tx) => {
          await tx.exec(`SET LOCAL default_statistics_target = ${LOCATIONS_STATISTICS_TARGET}`);
          await tx.exec(`ANALYZE ${target}`);
        });
      } else await db.exec(vacuum ? `VACUUM (ANALYZE) ${target}` : `ANALYZE ${target}`);
    } catch {
      // A table dropped meanwhile (a retention partition): nothing to do.
      continue;
    }
    const ms = Math.round(performance.now() - t0);
    if (!slowest || ms > slowest.ms) slowest = { table: t.name, ms };
    if (vacuum) vacuumed.push(t.name);
    analyzed.push(t.name);
  }
  return { vacuumed, analyzed, ms: Math.round(performance.now() - started), slowest };
}

/** Whether this database needs our passes: PGlite always, PostgreSQL when its autovacuum is off. */
export async function needsMaintenance(db: Database): Promise<boolean> {
  if (db.driver === 'pglite') return true;
  const [row] = await db.query<{ autovacuum: string }>('SHOW autovacuum');
  return row?.autovacuum !== 'on';
}

/**
 * Runs {@link runMaintenance} every `intervalMs` where {@link needsMaintenance} says so (first pass
 * one interval after start, so start-up and the demo seed are not slowed). Returns the stop function;
 * a pass in progress finishes.
 */
export function startMaintenance(
  db: Database,
  opts: { intervalMs: number; log?: (line: string) => void },
): () => Promise<void> {
  if (opts.intervalMs <= 0) return async () => undefined;
  const log = opts.log ?? (() => undefined);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let needed: Promise<boolean> | undefined;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        // Asked once, at the first pass (a setting changed later takes a restart, as autovacuum's own).
        needed ??= needsMaintenance(db);
        if (!(await needed)) return;
        const r = await runMaintenance(db);
        if (r.analyzed.length > 0)
          log(
            `maintenance: vacuumed ${r.vacuumed.length} and analysed ${r.analyzed.length} table(s) in ${r.ms} ms` +
              (r.slowest && r.slowest.ms >= 1000 ? ` (longest: ${r.slowest.table}, ${r.slowest.ms} ms)` : ''),
          );
      } catch (err) {
        log(`maintenance: failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }, opts.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
