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

  it('analyses the partitions of locations with a small sample, the other tables with the default', async () => {
    // 5,000 distinct fix times in a month partition, and as many distinct values in maint_probe: with
    // the default target (100) a histogram has 101 bounds, with the partitions' target (10) 11.
    const [d] = await storage.db.query<{ id: number }>(
      `WITH c AS (INSERT INTO transport_companies (name) VALUES ('Maint') RETURNING id)
       INSERT INTO devices (company_id, imei, type) SELECT id, '356307042400001', 'teltonika' FROM c RETURNING id, company_id`,
    );
    const [part] = await storage.db.query<{ name: string }>(
      `SELECT fleet_ensure_location_partition('2026-03-01') AS name`,
    );
    await storage.db.query(
      `INSERT INTO locations (device_id, company_id, fix_time, latitude, longitude)
       SELECT $1, (SELECT company_id FROM devices WHERE id = $1), timestamptz '2026-03-02' + g * interval '10 s', 25, 55
       FROM generate_series(1, 5000) g`,
      [d!.id],
    );
    await storage.db.exec('UPDATE maint_probe SET v = id');
    const r = await runMaintenance(storage.db);
    expect(r.analyzed).toContain(part!.name);
    expect(r.analyzed).toContain('maint_probe');
    const bounds = async (table: string, column: string) => {
      const [s] = await storage.db.query<{ n: number }>(
        `SELECT array_length(histogram_bounds::text::text[], 1) AS n FROM pg_stats
         WHERE schemaname = current_schema() AND tablename = $1 AND attname = $2`,
        [table, column],
      );
      return s?.n;
    };
    expect(await bounds(part!.name, 'fix_time')).toBe(11);
    expect(await bounds('maint_probe', 'v')).toBe(101);
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
