import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage, LocationInput } from './storage';
import { openTestStorage } from '../../test/db';

let storage: Storage;
let deviceId: number;
let companyId: number;

beforeAll(async () => {
  storage = await openTestStorage('storage');
  const [c] = await storage.db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('S') RETURNING id`,
  );
  companyId = c!.id;
  const [d] = await storage.db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042441013', 'teltonika') RETURNING id`,
    [companyId],
  );
  deviceId = d!.id;
});
afterAll(() => storage.close());

const rec = (ms: number, extra: Partial<LocationInput> = {}): LocationInput => ({
  deviceId,
  vehicleId: null,
  companyId,
  fixTime: new Date(ms),
  latitude: 25.2,
  longitude: 55.3,
  speed: 40,
  ignition: true,
  ioElements: { '239': { value: 1 } },
  ...extra,
});

describe('Storage.insertLocations', () => {
  it('stores once per (device, fix_time) and keeps the latest fix hot', async () => {
    const t0 = Date.UTC(2026, 10, 1, 8, 0, 0);
    const first = await storage.insertLocations([rec(t0), rec(t0 + 10_000), rec(t0 + 10_000)]);
    expect(first).toHaveLength(2);
    const again = await storage.insertLocations([rec(t0 + 10_000), rec(t0 + 20_000, { speed: 55 })]);
    expect(again.map((r) => r.fixTime.getTime())).toEqual([t0 + 20_000]);
    // An older record arriving late does not move the latest position.
    await storage.insertLocations([rec(t0 - 60_000, { speed: 1 })]);
    const [latest] = await storage.db.query<{ speed: number; fix_time: Date; io_elements: unknown }>(
      'SELECT speed, fix_time, io_elements FROM latest_locations WHERE device_id = $1',
      [deviceId],
    );
    expect(latest?.speed).toBe(55);
    expect(latest?.fix_time.getTime()).toBe(t0 + 20_000);
    expect(latest?.io_elements).toEqual({ '239': { value: 1 } });
    const [{ n } = { n: 0 }] = await storage.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM locations WHERE device_id = $1',
      [deviceId],
    );
    expect(n).toBe(4);
  });

  it('puts rows in monthly partitions and invalid rows never become latest', async () => {
    const t = Date.UTC(2026, 2, 15);
    await storage.insertLocations([rec(t, { valid: false, latitude: 95 })]);
    const parts = await storage.db.query<{ p: string }>(
      `SELECT tableoid::regclass::text AS p FROM locations WHERE fix_time = $1`,
      [new Date(t).toISOString()],
    );
    expect(parts[0]?.p).toMatch(/locations_202603$/);
    const [latest] = await storage.db.query<{ fix_time: Date }>(
      'SELECT fix_time FROM latest_locations WHERE device_id = $1',
      [deviceId],
    );
    expect(latest?.fix_time.getTime()).not.toBe(t);
  });

  it('resolves devices by IMEI and records unknown ones', async () => {
    const ref = await storage.resolveDevice('356307042441013');
    expect(ref).toMatchObject({ deviceId, companyId, type: 'teltonika', vehicleId: null });
    expect(await storage.resolveDevice('000000000000000')).toBeNull();
    await storage.recordUnknownDevice('111111111111111', 'teltonika', '127.0.0.1');
    await storage.recordUnknownDevice('111111111111111', 'teltonika', '127.0.0.1');
    const [u] = await storage.db.query<{ attempts: number }>(
      `SELECT attempts FROM unknown_devices WHERE imei = '111111111111111'`,
    );
    expect(u?.attempts).toBe(2);
  });

  it('ingests 20k records in batches fast enough for the gateway', async () => {
    const t0 = Date.UTC(2026, 10, 2);
    const started = performance.now();
    for (let b = 0; b < 20; b++) {
      await storage.insertLocations(Array.from({ length: 1000 }, (_, i) => rec(t0 + (b * 1000 + i) * 1000)));
    }
    const perSecond = 20_000 / ((performance.now() - started) / 1000);
    console.log(`insertLocations: ${Math.round(perSecond)} records/s on ${storage.db.driver}`);
    // Throughput goals are measured by the gateway's ingest benchmark on a quiet machine; here only a
    // floor that catches an accidental row-by-row path (the shared CI box is noisy).
    expect(perSecond).toBeGreaterThan(1_000);
    const [{ n } = { n: 0 }] = await storage.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM locations WHERE fix_time >= $1',
      [new Date(t0).toISOString()],
    );
    expect(n).toBe(20_000);
  });
});
