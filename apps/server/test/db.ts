import { randomBytes } from 'node:crypto';
import { openStorage, type Storage } from '../src/storage/storage';

/**
 * Storage for a test file: PGlite in memory by default; with FLEET_TEST_DB=pg (set by the test
 * script when DATABASE_URL is present) a fresh schema of that PostgreSQL, dropped on close; with
 * FLEET_TEST_DB=pglite-thread PGlite on its own thread, as the server runs it (storage/pglite-thread.ts;
 * the e2e journey runs the server so, and pglite-thread.test.ts checks the driver itself).
 */
export async function openTestStorage(name: string): Promise<Storage> {
  const url = process.env.FLEET_TEST_DB === 'pg' ? process.env.DATABASE_URL : undefined;
  if (!url) return openStorage({ pgliteThread: process.env.FLEET_TEST_DB === 'pglite-thread' });
  const schema = `t_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const storage = await openStorage({ url, schema });
  const close = storage.close.bind(storage);
  return Object.assign(storage, {
    close: async () => {
      await storage.db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
      await close();
    },
  });
}
