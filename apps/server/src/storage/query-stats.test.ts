import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openTestStorage } from '../../test/db';
import { withQueryStats } from './query-stats';

const dir = mkdtempSync(join(tmpdir(), 'query-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('counts each statement with its longest call, and whole transactions by their wall time', async () => {
  const storage = await openTestStorage('query_stats');
  const file = join(dir, 'stats.json');
  const db = withQueryStats(storage.db, file, 3600);
  await db.query('SELECT 1 AS one');
  await db.query('SELECT pg_sleep(0.05)');
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_sleep(0.1)');
  });
  await db.close(); // writes the file; the storage is closed (and its test schema dropped) below
  await storage.close().catch(() => undefined);
  const [bucket] = JSON.parse(readFileSync(file, 'utf8')) as {
    statements: Record<string, { calls: number; ms: number; max_ms: number }>;
  }[];
  const s = bucket!.statements;
  expect(s['SELECT pg_sleep(N.N)']!.calls).toBe(2);
  expect(s['SELECT pg_sleep(N.N)']!.max_ms).toBeGreaterThanOrEqual(90);
  expect(s['SELECT pg_sleep(N.N)']!.max_ms).toBeLessThanOrEqual(s['SELECT pg_sleep(N.N)']!.ms);
  expect(s['(transaction)']!.calls).toBe(1);
  expect(s['(transaction)']!.max_ms).toBeGreaterThanOrEqual(s['SELECT pg_sleep(N.N)']!.max_ms - 1);
});
