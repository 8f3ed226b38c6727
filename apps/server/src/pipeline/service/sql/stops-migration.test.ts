import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../../../test/db';
import { migrate } from '../../../storage/migrate';
import type { Storage } from '../../../storage/storage';

/**
 * Migration 0030_b moves the stops and idling periods a database stored before session 13 (JSON
 * arrays in the day's first device_trips row) into device_stops, and takes them out of the trip rows.
 * The test stores such a row on a migrated database, marks 0030_b as not applied, and migrates again.
 */
let storage: Storage;
beforeAll(async () => {
  storage = await openTestStorage('stops_migration');
});
afterAll(async () => {
  await storage.close();
});

describe('migration 0030_b (stops out of the trip rows)', () => {
  it('moves each stored period into device_stops and strips the arrays from the trips', async () => {
    const db = storage.db;
    const [c] = await db.query<{ id: number }>(
      `INSERT INTO transport_companies (name) VALUES ('Old') RETURNING id`,
    );
    const [d] = await db.query<{ id: number }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042400077', 'teltonika') RETURNING id`,
      [c!.id],
    );
    const [v] = await db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, 'M 1', '356307042400077') RETURNING id`,
      [c!.id],
    );
    const t0 = Date.UTC(2026, 4, 3, 6, 0);
    const place = { lat: 25.2, lon: 55.3 };
    const first = {
      day: '2026-05-03',
      max_speed: 70,
      stops: [
        { deviceId: 'x', startTime: t0, endTime: t0 + 1_800_000, minutes: 30, place },
        { deviceId: 'x', startTime: t0 + 7_200_000, endTime: t0 + 7_290_000, place }, // no minutes: from the times
        { startTime: t0 + 9_000_000, endTime: t0 + 9_600_000, minutes: 10 }, // no place: cannot be shown, left out
      ],
      idles: [{ deviceId: 'x', startTime: t0 + 600_123, endTime: t0 + 900_000, minutes: 5, place }],
    };
    const rows = [first, { day: '2026-05-03', max_speed: 50 }, { day: 'garbage', stops: [first.stops[0]] }];
    for (const [k, data] of rows.entries())
      await db.query(
        `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
         VALUES ($1, $2, $3, to_timestamp($4 / 1000.0), to_timestamp($4 / 1000.0 + 600), 1000, $5::jsonb)`,
        [c!.id, v!.id, d!.id, t0 + k * 3_600_000, JSON.stringify(data)],
      );
    await db.query(`DELETE FROM schema_migrations WHERE name = '0030_b_device_stops_from_trips.sql'`);
    expect(await migrate(db)).toEqual(['0030_b_device_stops_from_trips.sql']);

    const periods = await db.query<Record<string, unknown>>(
      `SELECT kind, day::text, (extract(epoch FROM started_at) * 1000)::float8 AS start,
              (extract(epoch FROM ended_at) * 1000)::float8 AS "end", minutes, latitude, longitude,
              vehicle_id::int AS vehicle, company_id::int AS company
       FROM device_stops WHERE device_id = $1 ORDER BY started_at`,
      [d!.id],
    );
    const common = { day: '2026-05-03', latitude: 25.2, longitude: 55.3, vehicle: v!.id, company: c!.id };
    expect(periods).toEqual([
      { kind: 'stop', start: t0, end: t0 + 1_800_000, minutes: 30, ...common },
      { kind: 'idle', start: t0 + 600_123, end: t0 + 900_000, minutes: 5, ...common },
      { kind: 'stop', start: t0 + 7_200_000, end: t0 + 7_290_000, minutes: 1.5, ...common },
    ]);
    const trips = await db.query<{ data: Record<string, unknown> }>(
      'SELECT data FROM device_trips WHERE device_id = $1 ORDER BY started_at',
      [d!.id],
    );
    expect(trips.map((t) => t.data)).toEqual([
      { day: '2026-05-03', max_speed: 70 },
      { day: '2026-05-03', max_speed: 50 },
      { day: 'garbage' },
    ]);
  });
});
