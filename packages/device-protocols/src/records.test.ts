import { describe, expect, it } from 'vitest';
import {
  digitalOutputOf,
  emergencyOf,
  ignitionOf,
  ioToJson,
  isIdle,
  knotsToKmh,
  toLocationRecord,
  unpluggedOf,
} from './records';

describe('record helpers', () => {
  it.each([
    [{ 239: 1 }, true],
    [{ 239: 0 }, false],
    [{ 239: 1n }, true],
    [{ 239: '1' }, true],
    [{}, undefined],
    [{ 239: new Uint8Array([1]) }, undefined],
  ])('ignitionOf case %#', (io, expected) => {
    expect(ignitionOf({ io })).toBe(expected);
  });

  it.each([
    [{ 179: 1, 180: 0 }, 1, 0],
    [{ 179: 5 }, 1, undefined],
    [{}, undefined, undefined],
  ])('digital outputs of %j', (io, o1, o2) => {
    expect(digitalOutputOf({ io }, 1)).toBe(o1);
    expect(digitalOutputOf({ io }, 2)).toBe(o2);
  });

  it.each([
    [{ io: { 66: 12_800 } }, false],
    [{ io: { 66: 300 } }, true],
    [{ io: {} }, undefined],
    [{ io: { 66: 12_800 }, attributes: { powerCut: true } }, true],
  ])('unpluggedOf(%j) = %s', (record, expected) => {
    expect(unpluggedOf(record)).toBe(expected);
  });

  it.each([
    [{ 239: 1 }, 0, true],
    [{ 239: 1 }, 40, false],
    [{ 239: 0 }, 0, false],
    [{}, 0, undefined],
  ])('isIdle(%j, speed %d) = %s', (io, speed, expected) => {
    expect(isIdle({ io, speed })).toBe(expected);
  });

  it('emergency, JSON conversion and units', () => {
    expect(emergencyOf({ io: { 251: 1 } })).toBe(true);
    expect(ioToJson({ 1: 2, 11: 2n ** 60n, 385: Uint8Array.of(1, 255), 5: 'x' })).toEqual({
      1: 2,
      5: 'x',
      11: '1152921504606846976',
      385: '01ff',
    });
    expect(knotsToKmh(10)).toBeCloseTo(18.52);
  });
});

describe('toLocationRecord', () => {
  const base = {
    imei: '356307042441013',
    protocol: 'teltonika' as const,
    fixTime: Date.UTC(2026, 10, 21, 3, 0, 0),
    valid: true,
    latitude: 25.2,
    longitude: 55.27,
    altitude: 12,
    speed: 0,
    course: 90,
    satellites: 9,
    eventId: 0,
    io: { 239: 1, 179: 1, 11: 2n ** 60n, 385: Uint8Array.of(0xab) } as Record<
      number,
      number | bigint | Uint8Array
    >,
  };

  it('maps to the spec fields', () => {
    expect(toLocationRecord(base)).toEqual({
      created_at: '2026-11-21T03:00:00.000Z',
      ignition: 1,
      is_idle: true,
      latitude: 25.2,
      longitude: 55.27,
      speed: 0,
      io_elements: {
        11: { value: '1152921504606846976' },
        179: { value: 1 },
        239: { value: 1 },
        385: { value: 'ab' },
      },
      digital_output1: 1,
      digital_output2: 0,
      device_imei: '356307042441013',
      heading: 90,
      altitude: 12,
      satellites: 9,
    });
  });

  it.each([
    [{ valid: false, latitude: 0, longitude: 0 }, null],
    [{ valid: false, latitude: 25.1, longitude: 55.1 }, 25.1],
  ])('coordinates of %j -> %s', (overrides, latitude) => {
    expect(toLocationRecord({ ...base, ...overrides, io: {} })).toMatchObject({
      latitude,
      ignition: 0,
      is_idle: false,
    });
  });
});
