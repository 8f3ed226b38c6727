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

/**
 * Apply pending migrations, each in its own transaction, recorded in `schema_migrations`.
 * On PostgreSQL an advisory lock keeps several starting processes from racing (and pending files
 * share one transaction there).
 * Returns the names applied now.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  await db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: string[] = [];
  const run = async () => {
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
  };
  if (db.driver === 'pg') {
    // One transaction holding a transaction-scoped advisory lock: concurrent starters wait, then
    // see the migrations as applied. All pending files apply together or not at all.
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`fleet-migrations:${db.schema}`]);
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
  } else {
    await run();
  }
  return applied;
}
