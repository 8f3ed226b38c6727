/**
 * Addresses in the stops and trip list reports (issue 16): the reader's language, one lookup per page
 * through the server's geocoding service, a page never held up by a slow geocoder (what has not
 * answered within the budget is null and lands in the cache for the next load), the export columns,
 * and the background export reading the cache alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportResponseSchema } from '@fleet/api-client';
import { openStorage, type Storage } from '../storage/storage';
import type { Tenant } from '../tenancy/context';
import { GeocodingService } from '../geocoding/service';
import type { ReverseGeocoder } from '../geocoding/nominatim';
import { stopsReport } from './queries';
import { tripListReport } from './daily-reports';
import { tableOf } from './exports/table';
import type { AddressLookup } from './addresses';

let storage: Storage;
let tenant: Tenant;

/** A geocoder whose answers can be held back (`gate`), counting what it is asked. */
class HeldGeocoder implements ReverseGeocoder {
  asked: string[] = [];
  gate: Promise<void> = Promise.resolve();
  async reverse(lat: number, lng: number, lang: 'en' | 'ar'): Promise<string | null> {
    this.asked.push(`${lat},${lng},${lang}`);
    await this.gate;
    return lang === 'ar' ? `شارع ${lat.toFixed(2)}، دبي` : `Street ${lat.toFixed(2)}, Dubai`;
  }
}

const range = { from: '2026-01-13T00:00:00Z', to: '2026-01-14T00:00:00Z', page: 1, limit: 50 };
const lookup =
  (service: GeocodingService, budgetMs: number): AddressLookup =>
  (points, lang) =>
    service.reverseWithin(points, lang, budgetMs);

beforeAll(async () => {
  storage = await openStorage({});
  const db = storage.db;
  const [c] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Acme') RETURNING id, uuid`,
  );
  const [v] = await db.query<{ id: number }>(
    `INSERT INTO vehicles (company_id, license_plate_number) VALUES ($1, 'A 1') RETURNING id`,
    [c!.id],
  );
  const [d] = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '1', 'teltonika') RETURNING id`,
    [c!.id],
  );
  const stops = [
    {
      startTime: Date.UTC(2026, 0, 13, 5, 0),
      endTime: Date.UTC(2026, 0, 13, 5, 30),
      minutes: 30,
      place: { lat: 25.1, lon: 55.2 },
    },
    {
      startTime: Date.UTC(2026, 0, 13, 6, 0),
      endTime: Date.UTC(2026, 0, 13, 6, 10),
      minutes: 10,
      place: { lat: 25.3, lon: 55.4 },
    },
  ];
  await db.query(
    `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
     VALUES ($1, $2, $3, '2026-01-13T04:00:00Z', '2026-01-13T05:00:00Z', 1000, $4::jsonb)`,
    [
      c!.id,
      v!.id,
      d!.id,
      JSON.stringify({
        day: '2026-01-13',
        start_location: { latitude: 25.2, longitude: 55.3 },
        end_location: { latitude: 25.1, longitude: 55.2 },
      }),
    ],
  );
  for (const s of stops)
    await db.query(
      `INSERT INTO device_stops (company_id, vehicle_id, device_id, kind, day, started_at, ended_at, minutes, latitude, longitude)
       VALUES ($1, $2, $3, 'stop', '2026-01-13', to_timestamp($4 / 1000.0), to_timestamp($5 / 1000.0), $6, $7, $8)`,
      [c!.id, v!.id, d!.id, s.startTime, s.endTime, s.minutes, s.place.lat, s.place.lon],
    );
  tenant = {
    companyUuid: c!.uuid,
    countryCode: 'AE',
    features: {},
    subCompanyId: null,
    schoolId: null,
    permissions: ['reports.view'],
    companyId: c!.id,
    userType: 'admin',
    scope: null,
    branchId: null,
  } as Tenant;
}, 60_000);

afterAll(async () => {
  await storage?.close();
});

describe('report addresses', () => {
  it('stops and trip list carry addresses in the reader language, coordinates kept', async () => {
    const geocoder = new HeldGeocoder();
    const service = new GeocodingService(storage.db, geocoder, { ratePerSec: 1000, maxWaitMs: 1000 });
    const en = await stopsReport(
      storage.db,
      tenant,
      { ...range, lang: 'en', addresses: lookup(service, 2000) },
      'stops',
    );
    reportResponseSchema('stops').parse(en);
    expect(en.data.map((r) => [r.latitude, r.longitude, r.address])).toEqual([
      [25.1, 55.2, 'Street 25.10, Dubai'],
      [25.3, 55.4, 'Street 25.30, Dubai'],
    ]);
    const ar = await tripListReport(storage.db, tenant, {
      ...range,
      lang: 'ar',
      addresses: lookup(service, 2000),
    });
    reportResponseSchema('trip-list').parse(ar);
    expect(ar.data[0]).toMatchObject({
      start: { latitude: 25.2, longitude: 55.3 },
      end: { latitude: 25.1, longitude: 55.2 },
      start_address: 'شارع 25.20، دبي',
      end_address: 'شارع 25.10، دبي',
    });
    // The stop at 25.1/55.2 was cached in English only; the trip's end asked again in Arabic.
    expect(geocoder.asked.filter((a) => a.endsWith(',ar'))).toHaveLength(2);
  });

  it('never holds a page past the budget: late lookups are null now and cached for the next load', async () => {
    const geocoder = new HeldGeocoder();
    let release!: () => void;
    geocoder.gate = new Promise<void>((resolve) => (release = resolve));
    const service = new GeocodingService(storage.db, geocoder, { ratePerSec: 1000, maxWaitMs: 1000 });
    const q = { ...range, lang: 'en' as const, addresses: lookup(service, 200) };
    // 25.2/55.3 is new in English (the start of the trip); the end (25.1/55.2) is cached from above.
    const t0 = Date.now();
    const first = await tripListReport(storage.db, tenant, q);
    const took = Date.now() - t0;
    expect(took).toBeLessThan(1500);
    expect(first.data[0]).toMatchObject({ start_address: null, end_address: 'Street 25.10, Dubai' });
    expect(geocoder.asked).toEqual(['25.2,55.3,en']);
    release();
    await new Promise((r) => setTimeout(r, 50));
    const again = await tripListReport(storage.db, tenant, q);
    expect(again.data[0]).toMatchObject({
      start_address: 'Street 25.20, Dubai',
      end_address: 'Street 25.10, Dubai',
    });
    expect(geocoder.asked).toHaveLength(1);
  });

  it('an unreachable geocoder gives null addresses, not an error', async () => {
    const service = new GeocodingService(
      storage.db,
      { reverse: () => Promise.reject(new Error('ECONNREFUSED')) },
      { ratePerSec: 1000, maxWaitMs: 1000 },
    );
    const res = await stopsReport(
      storage.db,
      tenant,
      { ...range, lang: 'ar', addresses: lookup(service, 500) },
      'stops',
    );
    // 25.1/55.2 is cached in Arabic (the trip end above); 25.3/55.4 is not and the geocoder is down.
    expect(res.data.map((r) => r.address)).toEqual(['شارع 25.10، دبي', null]);
  });

  it('the export reads the cache alone (lang, no lookup) and writes an address column; no lang, no addresses', async () => {
    const cached = await stopsReport(storage.db, tenant, { ...range, lang: 'en' }, 'stops');
    expect(cached.data.map((r) => r.address)).toEqual(['Street 25.10, Dubai', 'Street 25.30, Dubai']);
    const none = await stopsReport(storage.db, tenant, range, 'stops');
    expect(none.data.map((r) => r.address)).toEqual([null, null]);

    const stops = tableOf('stops', cached.data as never, 'en', 'Asia/Dubai');
    const col = stops.columns.indexOf('Address');
    expect(col).toBeGreaterThan(0);
    expect(stops.rows.map((r) => r[col])).toEqual(['Street 25.10, Dubai', 'Street 25.30, Dubai']);

    const trips = await tripListReport(storage.db, tenant, { ...range, lang: 'ar' });
    const table = tableOf('trip-list', trips.data as never, 'ar', 'Asia/Dubai');
    expect(table.rows[0]![table.columns.indexOf('عنوان البداية')]).toBe('شارع 25.20، دبي');
    expect(table.rows[0]![table.columns.indexOf('عنوان النهاية')]).toBe('شارع 25.10، دبي');
  });
});
