import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../test/db';
import type { Storage } from '../storage/storage';
import { defaultPartitionBacklog, listLocationPartitions, runRetention } from './retention';

let storage: Storage;
let device: { id: number; companyId: number };

beforeAll(async () => {
  storage = await openTestStorage('retention');
  const [c] = await storage.db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Retention Co') RETURNING id`,
  );
  const [d] = await storage.db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type, make, model) VALUES ($1, '356307042441013', 'teltonika', 'x', 'y') RETURNING id`,
    [c!.id],
  );
  device = { id: d!.id, companyId: c!.id };
});
afterAll(() => storage.close());

const fix = (iso: string) => ({
  deviceId: device.id,
  vehicleId: null,
  companyId: device.companyId,
  fixTime: new Date(iso),
  latitude: 25.2,
  longitude: 55.3,
});

describe('location retention', () => {
  it('drops whole monthly partitions older than the retention, keeps the rest row for row', async () => {
    const times = [
      '2026-08-12T10:00:00Z',
      '2026-08-20T10:00:00Z',
      '2026-09-10T10:00:00Z',
      '2026-10-15T10:00:00Z',
      '2026-11-18T10:00:00Z',
    ];
    await storage.insertLocations(times.map(fix));
    const before = (await listLocationPartitions(storage.db)).map((p) => p.name);
    expect(before).toEqual(
      expect.arrayContaining([
        'locations_202608',
        'locations_202609',
        'locations_202610',
        'locations_202611',
      ]),
    );

    // Retention 0 keeps everything.
    const none = await runRetention(storage.db, { retentionDays: 0, now: new Date('2026-11-20T00:00:00Z') });
    expect(none.dropped).toEqual([]);

    // 30 days on 20 Nov: cutoff 21 Oct; August and September end before it, October does not.
    const r = await runRetention(storage.db, { retentionDays: 30, now: new Date('2026-11-20T00:00:00Z') });
    expect(r.ran).toBe(true);
    expect(r.dropped.sort()).toEqual(['locations_202608', 'locations_202609']);
    expect(r.kept).toEqual(
      expect.arrayContaining(['locations_202610', 'locations_202611', 'locations_default']),
    );
    expect(r.ensured).toEqual(['locations_202611', 'locations_202612']);
    for (const t of ['locations_202608', 'locations_202609']) {
      const [reg] = await storage.db.query<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [t]);
      expect(reg!.r).toBeNull();
    }
    const rows = await storage.db.query<{ t: Date }>('SELECT fix_time AS t FROM locations ORDER BY fix_time');
    expect(rows.map((x) => new Date(x.t).toISOString())).toEqual([
      '2026-10-15T10:00:00.000Z',
      '2026-11-18T10:00:00.000Z',
    ]);
    expect(
      await defaultPartitionBacklog(storage.db, { retentionDays: 30, now: new Date('2026-11-20T00:00:00Z') }),
    ).toBe(0);

    // New rows of the partitions created ahead go to their partition, not DEFAULT.
    await storage.insertLocations([fix('2026-12-02T08:00:00Z')]);
    const [inDefault] = await storage.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM locations_default',
    );
    expect(inDefault!.n).toBe(0);

    // Running again is a no-op.
    const again = await runRetention(storage.db, {
      retentionDays: 30,
      now: new Date('2026-11-20T00:00:00Z'),
    });
    expect(again.dropped).toEqual([]);
  });
});
