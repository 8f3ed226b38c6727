import { describe, expect, it } from 'vitest';
import { createPrng } from '../common/prng';
import type { DecodedRecord } from '../records';
import { encodeMqttLocation, parseMqttLocationPayload } from './mqtt-json';
import { parseOsmAndRequest } from './osmand';

const NOW = () => Date.UTC(2026, 10, 21, 3, 0, 0);

describe('OsmAnd requests', () => {
  it.each([
    [
      'Traccar Client query with seconds timestamp and knots',
      {
        query:
          '?id=123456&timestamp=1763694000&lat=25.2048&lon=55.2708&speed=10&bearing=90&altitude=12&batt=80',
      },
      {
        imei: '123456',
        fixTime: 1763694000000,
        latitude: 25.2048,
        longitude: 55.2708,
        speed: 18.52,
        course: 90,
        altitude: 12,
      },
    ],
    [
      'deviceid alias, ms timestamp, location pair',
      { query: 'deviceid=abc-1&timestamp=1763694000123&location=24.45,54.37' },
      { imei: 'abc-1', fixTime: 1763694000123, latitude: 24.45, longitude: 54.37, speed: 0 },
    ],
    [
      'ISO time without zone is UTC; missing timestamp uses the injected clock',
      { query: 'id=9&lat=1&lon=2&timestamp=2026-11-21 03:00:00' },
      { fixTime: NOW() },
    ],
    ['form body', { body: 'id=77&lat=-33.9&lon=18.4&timestamp=1763694000' }, { imei: '77', latitude: -33.9 }],
  ])('%s', (_name, request, expected) => {
    const result = parseOsmAndRequest(request, { now: NOW });
    expect(result.error).toBeUndefined();
    const r = result.record as DecodedRecord;
    for (const [k, v] of Object.entries(expected)) {
      if (typeof v === 'number') expect(r[k as keyof DecodedRecord] as number).toBeCloseTo(v, 6);
      else expect(r[k as keyof DecodedRecord]).toBe(v);
    }
    expect(r.protocol).toBe('osmand');
  });

  it('maps batt to io 113, ignition to io 239 and keeps unknown params as attributes', () => {
    const r = parseOsmAndRequest({
      query: 'id=1&lat=1&lon=1&timestamp=1&batt=55&ignition=true&driverUniqueId=X9&fuel=12.5',
    }).record as DecodedRecord;
    expect(r.io).toEqual({ 113: 55, 239: 1 });
    expect(r.attributes).toEqual({ driverUniqueId: 'X9', fuel: 12.5 });
  });

  it('parses the JSON body of newer Traccar Client versions (speed in m/s)', () => {
    const body = JSON.stringify({
      device_id: '4242',
      location: {
        timestamp: '2026-11-21T02:59:00.000Z',
        coords: { latitude: 25.1, longitude: 55.1, speed: 10, heading: 45, altitude: 5, accuracy: 3 },
        is_moving: true,
        battery: { level: 0.5, is_charging: false },
      },
    });
    const r = parseOsmAndRequest({ body, contentType: 'application/json' }).record as DecodedRecord;
    expect(r.speed).toBeCloseTo(36);
    expect(r.io[113]).toBe(50);
    expect(r.fixTime).toBe(Date.UTC(2026, 10, 21, 2, 59));
    expect(r.attributes).toEqual({ charge: false, motion: true, accuracy: 3 });
  });

  it.each([
    ['no id', { query: 'lat=1&lon=1' }, 'bad_imei'],
    ['latitude out of range', { query: 'id=1&lat=91&lon=1' }, 'malformed'],
    ['bad timestamp', { query: 'id=1&lat=1&lon=1&timestamp=yesterday' }, 'malformed'],
    ['broken JSON', { body: '{"device_id":', contentType: 'application/json' }, 'malformed'],
    ['oversized body', { body: 'x'.repeat(70_000) }, 'frame_too_large'],
  ])('%s -> %s', (_n, request, code) => {
    expect(parseOsmAndRequest(request, { now: NOW }).error?.code).toBe(code);
  });
});

describe('MQTT JSON payloads', () => {
  it('parses one object, with the IMEI from the topic when absent', () => {
    const result = parseMqttLocationPayload('{"time":1763694000000,"lat":25,"lon":55,"ignition":true}', {
      imei: '356307042441013',
    });
    expect(result.error).toBeUndefined();
    expect(result.records[0]).toMatchObject({
      imei: '356307042441013',
      protocol: 'mqtt',
      io: { 239: 1 },
      valid: true,
    });
  });

  it.each([
    ['not JSON', 'nope'],
    ['lat missing', '{"imei":"123456","time":1}'],
    ['bad imei', '{"imei":"x","time":1,"lat":1,"lon":1}'],
    ['speed negative', '{"imei":"123456","time":1,"lat":1,"lon":1,"speed":-1}'],
    ['io id not numeric', '{"imei":"123456","time":1,"lat":1,"lon":1,"io":{"a":1}}'],
    ['empty array', '[]'],
  ])('rejects %s with a typed error', (_n, payload) => {
    expect(parseMqttLocationPayload(payload).error?.code).toBe('malformed');
  });

  it('round-trips random records (seeded)', () => {
    const rnd = createPrng(2026);
    for (let i = 0; i < 300; i++) {
      const record: DecodedRecord = {
        imei: String(rnd.int(100000, 999999999)),
        protocol: 'mqtt',
        fixTime: Date.UTC(2026, 0, 1) + rnd.int(0, 1e9) * 1000,
        valid: rnd.next() < 0.8,
        latitude: rnd.int(-90_000_000, 90_000_000) / 1e6,
        longitude: rnd.int(-180_000_000, 180_000_000) / 1e6,
        altitude: rnd.int(-100, 3000),
        speed: rnd.int(0, 2000) / 10,
        course: rnd.int(0, 359),
        satellites: rnd.int(0, 30),
        eventId: rnd.int(0, 500),
        io: { 239: rnd.int(0, 1), 66: rnd.int(0, 30000), 16: rnd.int(0, 1e9) },
      };
      if (rnd.next() < 0.5) record.hdop = rnd.int(1, 99) / 10;
      const back = parseMqttLocationPayload(new TextEncoder().encode(encodeMqttLocation(record)));
      expect(back.records[0]).toEqual(record);
    }
  });
});
