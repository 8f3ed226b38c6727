import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './db';

/** apps/server/migrations: plain SQL files applied in name order, the same for PGlite and pg. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface Migration {
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(`${dir}/${name}`, 'utf8') }));
}

/** Key of the advisory lock that serialises schema creation and migrations of one schema. */
export function migrationLockKey(schema: string): string {
  return `fleet-migrations:${schema}`;
}

/**
 * Apply pending migrations, recorded in `schema_migrations`. Returns the names applied now.
 *
 * On PostgreSQL every step runs in ONE transaction holding a transaction-scoped advisory lock
 * (`pg_advisory_xact_lock`), the creation of `schema_migrations` included: any number of processes
 * of any role may start at once on an empty database; one migrates, the others wait on the lock and
 * then find everything applied. (Outside the lock, two `CREATE TABLE IF NOT EXISTS` race on the
 * catalog and one fails with a duplicate `pg_type` key.) All pending files apply together or not at
 * all. The schema itself is created under the same lock when the database is opened (db.ts).
 *
 * PGlite is one process: no lock, each file in its own transaction.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  const table = `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
  const applied: string[] = [];
  if (db.driver === 'pg') {
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [migrationLockKey(db.schema)]);
      await tx.exec(table);
      const done = new Set(
        (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
      );
      for (const m of migrations) {
        if (done.has(m.name)) continue;
        await tx.exec(m.sql);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
        applied.push(m.name);
      }
    });
    return applied;
  }
  await db.exec(table);
  const done = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  for (const m of migrations) {
    if (done.has(m.name)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
    });
    applied.push(m.name);
  }
  return applied;
}
