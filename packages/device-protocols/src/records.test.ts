import { describe, expect, it } from 'vitest';
import {
  digitalOutputOf,
  emergencyOf,
  ignitionOf,
  ioElementsJson,
  isIdle,
  knotsToKmh,
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
    expect(
      JSON.parse(ioElementsJson({ 1: 2, 11: 2n ** 60n, 385: Uint8Array.of(1, 255), 5: 'x', 9: NaN })),
    ).toEqual({
      1: { value: 2 },
      5: { value: 'x' },
      9: { value: null },
      11: { value: '1152921504606846976' },
      385: { value: '01ff' },
    });
    expect(ioElementsJson({})).toBe('{}');
    expect(knotsToKmh(10)).toBeCloseTo(18.52);
  });
});
