import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { NatsBus } from '../realtime/nats-bus';
import { nodeEnv, spawnNode, type NodeProcess } from './harness';

/**
 * A first start of a whole cluster at once (issue 21): two gateways, two workers and two API nodes,
 * real processes, all spawned in the same instant against an EMPTY database (a new database, a new
 * schema, or both), several times in a row. Every node must reach READY: one of them creates the
 * schema and applies the migrations under the advisory lock (storage/migrate.ts, db.ts), the others
 * wait and go on. Before the lock covered the schema and `schema_migrations` creation, nodes failed
 * with duplicate `pg_namespace` / `pg_type` keys and the supervisor stopped the cluster. (Spawned
 * processes reach the database at spread-out moments, so this end-to-end run seldom hits the race
 * itself; storage/migrate-lock.test.ts opens eight pools at the same instant and does, every time,
 * without the lock.)
 *
 * Then every node answers /readyz on its health port (database, NATS and its own duty).
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
// Real PostgreSQL and NATS either way: run once, in the PostgreSQL pass of `npm test` (or by hand).
const secondCopy = process.env.FLEET_TEST_DB === 'pglite';
const enabled = Boolean(dbUrl && natsUrl) && !secondCopy;
if (!enabled && !secondCopy)
  console.log('cluster first start: DATABASE_URL and NATS_URL are not both set, skipped');

const run = randomBytes(3).toString('hex');
const databases: string[] = [];
const prefixes: string[] = [];
const nodes: NodeProcess[] = [];

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const rounds: { label: string; newDatabase: boolean; schema?: string }[] = [
  { label: 'a new database', newDatabase: true },
  { label: 'a new schema', newDatabase: false, schema: `t_start_${run}_b` },
  { label: 'a new database and a new schema', newDatabase: true, schema: `t_start_${run}_c` },
];

describe.skipIf(!enabled)('cluster first start on an empty database', () => {
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
    const bus = await NatsBus.connect({ servers: natsUrl! });
    for (const prefix of prefixes) {
      const b = await NatsBus.connect({ servers: natsUrl!, prefix });
      for (const s of Object.values(b.streamNames)) await b.jsm.streams.delete(s).catch(() => undefined);
      await b.close();
    }
    await bus.close();
    await admin(async (c) => {
      for (const db of databases) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      for (const r of rounds)
        if (r.schema && !r.newDatabase) await c.query(`DROP SCHEMA IF EXISTS ${r.schema} CASCADE`);
    });
  }, 120_000);

  for (const [i, round] of rounds.entries()) {
    it(`six nodes started at once on ${round.label} all reach READY`, async () => {
      let url = dbUrl!;
      if (round.newDatabase) {
        const name = `t_start_${run}_${i}`;
        await admin((c) => c.query(`CREATE DATABASE ${name}`));
        databases.push(name);
        url = withDatabase(dbUrl!, name);
      }
      const prefix = `s${run}${i}`;
      prefixes.push(prefix);
      const base: Record<string, string> = {
        DATABASE_URL: url,
        NATS_URL: natsUrl!,
        NATS_PREFIX: prefix,
        NATS_PARTITIONS: '4',
        HEALTH_PORT: '0',
        ...(round.schema ? { DATABASE_SCHEMA: round.schema } : {}),
      };
      const roles = ['gateway', 'gateway', 'worker', 'worker', 'api', 'api'] as const;
      const started = await Promise.allSettled(
        roles.map((role, j) => spawnNode(`${role}-${i}-${j}`, nodeEnv(base, role), { timeoutMs: 180_000 })),
      );
      for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
      const failed = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
      expect(failed).toEqual([]);

      // One set of migrations, recorded once.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const rows = await db
        .query<{ n: number; d: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT name)::int AS d FROM ${round.schema ?? 'public'}.schema_migrations`,
        )
        .finally(() => db.end());
      const counted = rows.rows[0]!;
      expect(counted.n).toBeGreaterThan(10);
      expect(counted.n).toBe(counted.d);

      // Every node, gateways and workers included, says it is ready on its health port.
      for (const s of started) {
        if (s.status !== 'fulfilled') continue;
        const health = s.value.info.health;
        expect(typeof health).toBe('string');
        const ready = await fetch(`${String(health)}/readyz`);
        const body = (await ready.json()) as { ready: boolean; checks: Record<string, { ok: boolean }> };
        expect({ node: s.value.name, status: ready.status, ready: body.ready }).toEqual({
          node: s.value.name,
          status: 200,
          ready: true,
        });
        expect(Object.keys(body.checks)).toEqual(expect.arrayContaining(['database', 'nats']));
      }
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.kill('SIGTERM') : null)));
    }, 240_000);
  }
});
