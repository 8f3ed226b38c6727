import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../test/db';
import type { Storage } from '../storage/storage';
import { needsMaintenance, runMaintenance, startMaintenance } from './maintenance';

let storage: Storage;
beforeAll(async () => {
  storage = await openTestStorage('maintenance');
  // A table of its own with autovacuum off, so on PostgreSQL the server's daemon cannot get there first.
  await storage.db.exec(
    `DROP TABLE IF EXISTS maint_probe;
     CREATE TABLE maint_probe (id int PRIMARY KEY, v int NOT NULL) WITH (autovacuum_enabled = false);
     INSERT INTO maint_probe SELECT g, 0 FROM generate_series(1, 2000) g;`,
  );
});
afterAll(async () => {
  await storage.db.exec('DROP TABLE IF EXISTS maint_probe');
  await storage.close();
});

const stats = async () => {
  await storage.db.query('SELECT pg_stat_force_next_flush()');
  const [r] = await storage.db.query<{ dead: number; changed: number }>(
    `SELECT n_dead_tup::int AS dead, n_mod_since_analyze::int AS changed
     FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'maint_probe'`,
  );
  return r!;
};

describe('storage maintenance (autovacuum for PGlite)', () => {
  it('vacuums and analyses a table over the thresholds, then leaves it alone', async () => {
    // Three full updates: 6,000 dead rows next to 2,000 live ones, far over 50 + 20 %.
    for (let i = 0; i < 3; i++) await storage.db.exec('UPDATE maint_probe SET v = v + 1');
    expect((await stats()).dead).toBeGreaterThan(450);
    const first = await runMaintenance(storage.db);
    expect(first.vacuumed).toContain('maint_probe');
    expect(first.analyzed).toContain('maint_probe');
    const after = await stats();
    expect(after.dead).toBe(0);
    expect(after.changed).toBe(0);
    const second = await runMaintenance(storage.db);
    expect(second.vacuumed).not.toContain('maint_probe');
    expect(second.analyzed).not.toContain('maint_probe');
  });

  it('a few changes below the thresholds do not trigger work', async () => {
    await storage.db.exec('UPDATE maint_probe SET v = v + 1 WHERE id <= 40');
    const r = await runMaintenance(storage.db);
    expect(r.vacuumed).not.toContain('maint_probe');
    expect(r.analyzed).not.toContain('maint_probe');
  });

  it('the timer runs passes on PGlite, and on PostgreSQL only when its own autovacuum is off', async () => {
    const lines: string[] = [];
    await storage.db.exec('UPDATE maint_probe SET v = v + 1');
    const expected = storage.db.driver === 'pglite' || (await needsMaintenance(storage.db));
    if (storage.db.driver === 'pg') {
      const [row] = await storage.db.query<{ autovacuum: string }>('SHOW autovacuum');
      expect(await needsMaintenance(storage.db)).toBe(row!.autovacuum !== 'on');
    }
    const stop = startMaintenance(storage.db, { intervalMs: 50, log: (l) => lines.push(l) });
    const deadline = Date.now() + (expected ? 5000 : 500);
    while ((expected ? lines.length === 0 : true) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    await stop();
    if (expected) {
      expect(lines[0]).toMatch(
        /^maintenance: vacuumed \d+ and analysed \d+ table\(s\) in \d+ ms( \(longest: \w+, \d+ ms\))?$/,
      );
      expect((await stats()).dead).toBe(0);
    } else {
      expect(lines).toEqual([]);
      expect((await stats()).dead).toBeGreaterThan(0);
    }
  });
});
