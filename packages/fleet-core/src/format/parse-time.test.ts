import { describe, expect, it } from 'vitest';
import { parseApiTime, toEpochMs } from './parse-time';

describe('parseApiTime', () => {
  it.each<[unknown, number | null]>([
    ['2024-05-01 10:20:30', Date.UTC(2024, 4, 1, 10, 20, 30)],
    ['2024-05-01T10:20:30', Date.UTC(2024, 4, 1, 10, 20, 30)],
    ['2024-05-01T10:20:30.5', Date.UTC(2024, 4, 1, 10, 20, 30, 500)],
    ['2024-05-01 10:20', Date.UTC(2024, 4, 1, 10, 20)],
    ['2024-05-01', Date.UTC(2024, 4, 1)],
    ['  2024-05-01  ', Date.UTC(2024, 4, 1)],
    ['2024-05-01T10:20:30Z', Date.UTC(2024, 4, 1, 10, 20, 30)],
    ['2024-05-01T10:20:30.123+04:00', Date.UTC(2024, 4, 1, 6, 20, 30, 123)],
    ['2024-05-01T10:20:30+0400', Date.UTC(2024, 4, 1, 6, 20, 30)],
    ['2024-02-31 00:00:00', null],
    ['2024-13-01', null],
    ['2024-05-01 24:00:00', null],
    ['2024-05-01 10:60:00', null],
    ['2024-05-01 10:00:60', null],
    ['2024-05-01T25:00:00Z', null],
    ['yesterday', null],
    ['', null],
    [new Date(Date.UTC(2020, 0, 1)), Date.UTC(2020, 0, 1)],
    [new Date('nope'), null],
    [1_700_000_000_000, 1_700_000_000_000],
    [Number.NaN, null],
    [null, null],
    [undefined, null],
  ])('%j', (input, expected) => {
    expect(parseApiTime(input)).toBe(expected);
  });

  it('toEpochMs', () => {
    expect(toEpochMs(5)).toBe(5);
    expect(toEpochMs(new Date(7))).toBe(7);
  });
});
