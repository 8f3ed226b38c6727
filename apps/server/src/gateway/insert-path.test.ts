import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationParams, type LocationInput, type Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { ioElementsOf, toLocationInput } from './records';

let storage: Storage;
let deviceId: number;
let companyId: number;

beforeAll(async () => {
  storage = await openTestStorage('gw_insert');
  const [c] = await storage.db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('I') RETURNING id`,
  );
  companyId = c!.id;
  const [d] = await storage.db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042449999', 'teltonika') RETURNING id`,
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

describe('insert path (text-parameter unnest)', () => {
  it('ioElementsOf serializes exactly what JSON.stringify(ioElements) would', () => {
    const io = {
      1: 0,
      16: 123_456,
      78: 0x1234567890abcdefn,
      239: 1,
      300: 'a "quoted"\\ \u0000 text \u001e',
      385: new Uint8Array([0, 0xab, 0xff]),
      999: Number.NaN,
    };
    const { ioElements, ioJson } = ioElementsOf(io);
    expect(ioJson).toBe(JSON.stringify(ioElements));
    expect(JSON.parse(ioJson)).toEqual({
      '1': { value: 0 },
      '16': { value: 123_456 },
      '78': { value: '1311768467294899695' },
      '239': { value: 1 },
      '300': { value: 'a "quoted"\\ \u0000 text \u001e' },
      '385': { value: '00abff' },
      '999': { value: null },
    });
    expect(ioElementsOf({})).toEqual({ ioElements: {}, ioJson: '{}' });
  });

  it('array literals carry nulls, non-finite numbers as NULL, and free text split by 0x1E only', () => {
    const p = locationParams([
      rec(1000, { latitude: null, speed: Number.NaN, altitude: 12.5, source: 'osmand' }),
      rec(2000, { vehicleId: 7, ignition: null, valid: false, source: null, ioElements: {} }),
    ]);
    expect(p).toHaveLength(17);
    expect(p[1]).toBe('{NULL,7}');
    expect(p[4]).toBe('{NULL,25.2}');
    expect(p[6]).toBe('{12.5,NULL}');
    expect(p[7]).toBe('{NULL,40}');
    expect(p[10]).toBe('{t,NULL}');
    expect(p[14]).toBe('{"239":{"value":1}}\u001e{}');
    expect(p[15]).toBe('{t,f}');
    expect(p[16]).toBe('osmand\u001e');
  });

  it('stores strings with quotes, backslashes, NUL and 0x1E in IO values intact', async () => {
    const t0 = Date.UTC(2026, 9, 3, 8);
    const odd = 'x"y\\z\u0000\u001e{,}';
    const r = toLocationInput(
      {
        imei: '356307042449999',
        protocol: 'teltonika',
        fixTime: t0,
        valid: true,
        latitude: 25.1,
        longitude: 55.1,
        altitude: 3,
        speed: 0,
        course: 0,
        satellites: 9,
        hdop: 1,
        priority: 0,
        eventId: 0,
        io: { 239: 1, 500: odd },
      },
      {
        deviceId,
        deviceUuid: 'x',
        imei: '356307042449999',
        type: 'teltonika',
        status: 'active',
        companyId,
        companyUuid: 'c',
        vehicleId: null,
        vehicleUuid: null,
      },
      t0,
    );
    expect(await storage.insertLocations([r])).toHaveLength(1);
    const [row] = await storage.db.query<{ io_elements: Record<string, { value: unknown }>; source: string }>(
      'SELECT io_elements, source FROM locations WHERE device_id = $1 AND fix_time = $2',
      [deviceId, new Date(t0).toISOString()],
    );
    expect(row!.io_elements['500']).toEqual({ value: odd });
    expect(row!.source).toBe('teltonika');
  });

  it('returns only the new records: resends and later duplicates inside one batch are dropped', async () => {
    const t0 = Date.UTC(2026, 9, 4, 8);
    const a = rec(t0);
    const b = rec(t0 + 1000);
    expect(await storage.insertLocations([a, b])).toEqual([a, b]);
    const c = rec(t0 + 2000);
    const cDup = rec(t0 + 2000, { speed: 99 });
    const d = rec(t0 + 3000);
    const resentA = rec(t0);
    const fresh = await storage.insertLocations([resentA, c, cDup, d]);
    // c (first occurrence) and d are new; the resend of a and the second c are not.
    expect(fresh).toEqual([c, d]);
    const [stored] = await storage.db.query<{ speed: number }>(
      'SELECT speed FROM locations WHERE device_id = $1 AND fix_time = $2',
      [deviceId, new Date(t0 + 2000).toISOString()],
    );
    expect(stored!.speed).toBe(40);
    expect(await storage.insertLocations([rec(t0), rec(t0 + 1000)])).toEqual([]);
  });

  it('a large cross-month batch lands in its partitions with nothing lost', async () => {
    const base = Date.UTC(2026, 4, 31, 23, 0);
    const batch = Array.from({ length: 3000 }, (_, i) => rec(base + i * 2000));
    expect(await storage.insertLocations(batch)).toHaveLength(3000);
    const [n] = await storage.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM locations WHERE device_id = $1 AND fix_time >= $2 AND fix_time < $3`,
      [deviceId, new Date(base).toISOString(), new Date(base + 3000 * 2000).toISOString()],
    );
    expect(n!.n).toBe(3000);
  });
});
