import type { Database } from '../../storage/db';

/**
 * bench:soak's look at the database after a run: the largest tables with their heap and index
 * sizes and live/dead row counts (the statistics views, or count(*) where they are empty; on PGlite read after the server closed the
 * folder, which writes the counters out). Tells whether something piles up through the day (dead
 * rows of rewritten rollups, indexes growing faster than the data).
 */
export interface TableSize {
  table: string;
  heap_mb: number;
  index_mb: number;
  live: number;
  dead: number;
  vacuums: number;
}

export async function tableSizes(db: Database, limit = 10): Promise<TableSize[]> {
  const rows = await db.query<TableSize>(
    `SELECT c.relname AS table,
            round(pg_table_size(c.oid) / 1048576.0, 1)::float8 AS heap_mb,
            round(pg_indexes_size(c.oid) / 1048576.0, 1)::float8 AS index_mb,
            COALESCE(s.n_live_tup, 0)::float8 AS live, COALESCE(s.n_dead_tup, 0)::float8 AS dead,
            (COALESCE(s.vacuum_count, 0) + COALESCE(s.autovacuum_count, 0))::float8 AS vacuums
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
     ORDER BY pg_total_relation_size(c.oid) DESC LIMIT $1`,
    [limit],
  );
  // The statistics counters are empty on PGlite when the folder was reopened (they live in the
  // process that wrote them), so count the rows; heap size against live rows shows the dead ones.
  for (const r of rows) {
    if (r.live > 0 || r.dead > 0) continue;
    const [c] = await db.query<{ n: number }>(
      `SELECT count(*)::float8 AS n FROM "${r.table.replace(/"/g, '""')}"`,
    );
    r.live = c?.n ?? 0;
  }
  return rows;
}

export function printTableSizes(rows: readonly TableSize[]): void {
  console.log('largest tables after the run (heap MB, index MB, live rows, dead rows, vacuums):');
  for (const r of rows)
    console.log(
      `  ${r.table.padEnd(28)} ${String(r.heap_mb).padStart(7)} ${String(r.index_mb).padStart(7)} ` +
        `${String(r.live).padStart(9)} ${String(r.dead).padStart(9)} ${String(r.vacuums).padStart(4)}`,
    );
}
