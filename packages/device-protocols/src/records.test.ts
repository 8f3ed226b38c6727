import { describe, expect, it } from 'vitest';
import {
  digitalOutputOf,
  emergencyOf,
  ignitionOf,
  ioElementsJson,
  newIoMap,
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

  it('an IO map from newIoMap holds the same keys, values and order as a plain object', () => {
    const io = newIoMap();
    const plain: Record<number, number | string> = {};
    for (const [id, v] of [
      [239, 1],
      [16, 123456],
      [84, 'x'],
      [66, 12800],
      [10800, 7],
    ] as const) {
      io[id] = v;
      plain[id] = v;
    }
    expect(Object.keys(io)).toEqual(['16', '66', '84', '239', '10800']);
    expect(io).toEqual(plain);
    expect(ioElementsJson(io)).toBe(
      JSON.stringify(Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, { value: v }]))),
    );
    expect(ioElementsJson(io)).toBe(ioElementsJson(plain));
    // Many distinct ids (a forged frame): the prefix cache stops growing, the text stays right.
    const many = newIoMap();
    for (let id = 0; id < 5000; id++) many[id] = id;
    const parsed = JSON.parse(ioElementsJson(many)) as Record<string, { value: number }>;
    expect(Object.keys(parsed)).toHaveLength(5000);
    expect(parsed['4999']).toEqual({ value: 4999 });
  });
});
