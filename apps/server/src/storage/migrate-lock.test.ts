import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from './storage';

/**
 * Many processes opening an EMPTY PostgreSQL database at the same instant (a first start of a
 * cluster, every role at once): exactly one creates the schema and applies the migrations, the
 * others wait on the advisory lock and go on (issue 21). Here the openers run in one process but
 * each on its own connection pool, so their statements reach PostgreSQL at the same time, which
 * the spawned nodes of cluster/startup.test.ts rarely manage (their start-up times are spread).
 * Without the lock around CREATE SCHEMA and the schema_migrations creation this fails with
 * duplicate pg_namespace / pg_type keys.
 */
const dbUrl = process.env.DATABASE_URL;
const enabled = process.env.FLEET_TEST_DB === 'pg' && Boolean(dbUrl);
const run = randomBytes(3).toString('hex');
const OPENERS = 8;
const databases: string[] = [];
const schemas: string[] = [];

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function urlOf(name: string): string {
  const u = new URL(dbUrl!);
  u.pathname = `/${name}`;
  return u.toString();
}

describe.skipIf(!enabled)('migrations under an advisory lock', () => {
  afterAll(async () => {
    for (const s of schemas) await admin(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => undefined);
    for (const d of databases)
      await admin(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`).catch(() => undefined);
  });

  for (let round = 0; round < 4; round++) {
    const newDatabase = round % 2 === 0;
    const schema = round >= 1 ? `t_mlock_${run}_${round}` : undefined;
    it(`${OPENERS} openers at once on ${newDatabase ? 'a new database' : 'an existing database'}${schema ? ', new schema' : ''}`, async () => {
      let url = dbUrl!;
      if (newDatabase) {
        const name = `t_mlock_${run}_${round}`;
        await admin(`CREATE DATABASE ${name}`);
        databases.push(name);
        url = urlOf(name);
      }
      if (schema && !newDatabase) schemas.push(schema);
      const opened = await Promise.allSettled(
        Array.from({ length: OPENERS }, () =>
          openStorage({ url, poolSize: 2, ...(schema ? { schema } : {}) }),
        ),
      );
      const ok = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      try {
        expect(opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).toEqual([]);
        // Exactly one opener applied the migrations; the others found them applied.
        const appliers = ok.filter((s) => s.migrated.length > 0);
        expect(appliers).toHaveLength(1);
        const [row] = await ok[0]!.db.query<{ n: number; d: number }>(
          'SELECT count(*)::int AS n, count(DISTINCT name)::int AS d FROM schema_migrations',
        );
        expect(row!.n).toBe(appliers[0]!.migrated.length);
        expect(row!.d).toBe(row!.n);
      } finally {
        await Promise.all(ok.map((s: Storage) => s.close()));
      }
    }, 120_000);
  }
});
