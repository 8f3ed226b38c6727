// The gateway's sensor-settings cache reads a fleet's settings in batches (issue 13): the devices asked
// for in one turn of the event loop cost one query, a refresh takes along every device past half its
// lifetime, and each device gets exactly what the one-device read returns (newest first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../storage/db';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld } from '../../test/fixtures';
import { addDevices } from './test-helpers';
import { SensorSettingsCache, loadSensorSettings, loadSensorSettingsMany } from './sensors';

let storage: Storage;
let ids: number[];

beforeAll(async () => {
  storage = await openTestStorage('sensors_cache');
  const world = await buildWorld(storage.db);
  await addDevices(
    storage.db,
    world.a.id,
    ['358000000000101', '358000000000102', '358000000000103'].map((imei) => ({ imei, type: 'teltonika' })),
  );
  ids = (await storage.db.query<{ id: number }>('SELECT id::int AS id FROM devices ORDER BY id LIMIT 3')).map(
    (r) => r.id,
  );
  const add = (dev: number, from: string, ign: number | null, cal: [number, number][] | null) =>
    storage.db.query(
      `INSERT INTO device_sensor_settings (device_id, effective_from, ignition_io, fuel_io, fuel_calibration)
       VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [dev, from, ign, cal ? 9 : null, cal ? JSON.stringify(cal) : null],
    );
  await add(ids[0]!, '2026-01-01T00:00:00Z', 3, null);
  await add(ids[0]!, '2026-02-01T00:00:00Z', 4, [
    [0, 0],
    [4095, 80],
  ]);
  await add(ids[1]!, '2026-01-15T00:00:00Z', null, null);
});
afterAll(() => storage.close());

function counting(db: Queryable): { db: Queryable; queries: () => number } {
  let n = 0;
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (...args: Parameters<Queryable['query']>) => {
          n++;
          return target.query(...args);
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { db: wrapped, queries: () => n };
}

describe('SensorSettingsCache', () => {
  it('reads the devices asked for in one turn with one query, each as the one-device read has it', async () => {
    expect(ids).toHaveLength(3);
    const { db, queries } = counting(storage.db);
    const cache = new SensorSettingsCache(db);
    const got = await Promise.all([...ids, ids[0]!].map((id) => cache.get(id)));
    expect(queries()).toBe(1);
    for (const [k, id] of [...ids, ids[0]!].entries())
      expect(got[k], `device ${id}`).toEqual(await loadSensorSettings(storage.db, id));
    expect(got[0]!.map((s) => s.ignitionIo)).toEqual([4, 3]);
    expect(got[2]).toEqual([]);
    // Cached: no query within the lifetime.
    await cache.get(ids[1]!);
    expect(queries()).toBe(1);
  });

  it('refreshes after its lifetime, taking along every device past half of it', async () => {
    const { db, queries } = counting(storage.db);
    const cache = new SensorSettingsCache(db, 200);
    await cache.get(ids[0]!);
    await new Promise((r) => setTimeout(r, 120));
    await cache.get(ids[1]!); // a miss: one query, ids[0] (past half) rides along
    expect(queries()).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    // ids[0] was refreshed with ids[1] 100 ms ago, so both are still fresh.
    await Promise.all([cache.get(ids[0]!), cache.get(ids[1]!)]);
    expect(queries()).toBe(2);
  });

  it('an error reaches every device waiting on that read, and the next read tries again', async () => {
    let fail = true;
    const db = new Proxy(storage.db, {
      get(target, prop, receiver) {
        if (prop === 'query')
          return (...args: Parameters<Queryable['query']>) =>
            fail ? Promise.reject(new Error('connection lost')) : target.query(...args);
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const cache = new SensorSettingsCache(db);
    const both = await Promise.allSettled([cache.get(ids[0]!), cache.get(ids[1]!)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await cache.get(ids[0]!)).toEqual(await loadSensorSettings(storage.db, ids[0]!));
  });

  it('the many-device read gives an empty list for a device without settings', async () => {
    const m = await loadSensorSettingsMany(storage.db, [ids[2]!, 999_999]);
    expect([...m.entries()]).toEqual([
      [ids[2]!, []],
      [999_999, []],
    ]);
  });
});
