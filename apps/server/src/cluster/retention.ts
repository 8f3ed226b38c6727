import type { Database } from '../storage/db';

export interface LocationPartition {
  name: string;
  /** Range of the partition (UTC); null bounds for the DEFAULT partition. */
  from: Date | null;
  to: Date | null;
}

export interface RetentionResult {
  dropped: string[];
  kept: string[];
  /** Partitions created ahead (this month and the next), so new rows never land in DEFAULT. */
  ensured: string[];
  /** false when another node held the retention lock (nothing done). */
  ran: boolean;
}

const BOUND_RE = /FROM \('([^']+)'\) TO \('([^']+)'\)/;

/** Partitions of `locations` with their bounds, read from the catalog (pg_inherits). */
export async function listLocationPartitions(db: Pick<Database, 'query'>): Promise<LocationPartition[]> {
  const rows = await db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'locations'::regclass ORDER BY c.relname`,
  );
  return rows.map((r) => {
    const m = BOUND_RE.exec(r.bound);
    return m
      ? { name: r.name, from: new Date(m[1]!), to: new Date(m[2]!) }
      : { name: r.name, from: null, to: null };
  });
}

const monthStart = (d: Date, add = 0) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1)).toISOString().slice(0, 10);

/**
 * The retention job: every monthly partition of `locations` whose whole range is older than
 * `retentionDays` is DETACHed and DROPped (one catalog operation, no row-by-row DELETE, no bloat, no
 * vacuum debt). It also creates this and next month's partitions ahead of time. Runs under a
 * transaction-scoped advisory lock so that with several workers only one does it at a time.
 *
 * Not shown by the spec, decided here: retention 0 keeps everything; the DEFAULT partition (rows
 * whose month had no partition yet when they arrived) is never dropped; its old rows are reported by
 * {@link defaultPartitionBacklog} for an operator (they only occur when the job has not run for months).
 * latest_locations (one row per device) is not touched: a vehicle's last fix stays visible as
 * "inactive" per the spec's 30-day rule even when its history expired.
 */
export async function runRetention(
  db: Database,
  opts: { retentionDays: number; now: Date },
): Promise<RetentionResult> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_xact_lock(hashtext('fleet-location-retention:' || current_schema())) AS ok`,
    );
    if (!lock?.ok) return { dropped: [], kept: [], ensured: [], ran: false };
    const ensured: string[] = [];
    for (const m of [monthStart(opts.now), monthStart(opts.now, 1)]) {
      try {
        await tx.exec('SAVEPOINT ensure_part');
        const [r] = await tx.query<{ name: string }>(
          'SELECT fleet_ensure_location_partition($1::date) AS name',
          [m],
        );
        await tx.exec('RELEASE SAVEPOINT ensure_part');
        if (r) ensured.push(r.name);
      } catch {
        // That month already has rows in DEFAULT: keep using DEFAULT for it.
        await tx.exec('ROLLBACK TO SAVEPOINT ensure_part');
      }
    }
    const dropped: string[] = [];
    const kept: string[] = [];
    const parts = await listLocationPartitions(tx);
    const cutoff = opts.now.getTime() - opts.retentionDays * 86_400_000;
    for (const p of parts) {
      if (opts.retentionDays > 0 && p.to && p.to.getTime() <= cutoff && /^[a-z0-9_]+$/.test(p.name)) {
        await tx.exec(`ALTER TABLE locations DETACH PARTITION ${p.name}`);
        await tx.exec(`DROP TABLE ${p.name}`);
        dropped.push(p.name);
      } else kept.push(p.name);
    }
    return { dropped, kept, ensured, ran: true };
  });
}

/** Rows older than the retention that sit in the DEFAULT partition (not dropped by the job). */
export async function defaultPartitionBacklog(
  db: Pick<Database, 'query'>,
  opts: { retentionDays: number; now: Date },
): Promise<number> {
  if (opts.retentionDays <= 0) return 0;
  const [r] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM locations_default WHERE fix_time < $1::timestamptz`,
    [new Date(opts.now.getTime() - opts.retentionDays * 86_400_000).toISOString()],
  );
  return r?.n ?? 0;
}

/** Runs {@link runRetention} now and every `intervalMs` (timer unref'd); returns a stop function. */
export function startRetentionJob(
  db: Database,
  opts: { retentionDays: number; intervalMs: number; now?: () => Date; log?: (msg: string) => void },
): () => void {
  const log = opts.log ?? (() => undefined);
  const tick = () =>
    runRetention(db, { retentionDays: opts.retentionDays, now: (opts.now ?? (() => new Date()))() })
      .then((r) => {
        if (r.dropped.length > 0) log(`retention: dropped partitions ${r.dropped.join(', ')}`);
      })
      .catch((err: unknown) => log(`retention: failed: ${String(err)}`));
  void tick();
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
