import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatIdleLabel, idleMinutes, idleSecondsSince } from './durations';

describe('formatDuration', () => {
  it.each<[number, string, string]>([
    [0, '0s', '0 ث'],
    [0.9, '0s', '0 ث'],
    [59, '59s', '59 ث'],
    [60, '1m', '1 د'],
    [3599, '59m', '59 د'],
    [3600, '1h 0m', '1 س 0 د'],
    [3660, '1h 1m', '1 س 1 د'],
    [86_399, '23h 59m', '23 س 59 د'],
    [86_400, '1d 0h 0m', '1 ي 0 س 0 د'],
    [90_061, '1d 1h 1m', '1 ي 1 س 1 د'],
    [10 * 86_400 + 5 * 60, '10d 0h 5m', '10 ي 0 س 5 د'],
  ])('%d s', (seconds, english, arabic) => {
    expect(formatDuration(seconds)).toBe(english);
    expect(formatDuration(seconds, 'ar')).toBe(arabic);
  });

  it.each([-1, NaN, Infinity, '5' as unknown as number])('rejects %j', (value) => {
    expect(() => formatDuration(value)).toThrow(RangeError);
  });
});

describe('idle label in minutes', () => {
  it.each<[number, number, string, string]>([
    [0, 0, '0 min', '0 دقيقة'],
    [59, 0, '0 min', '0 دقيقة'],
    [60, 1, '1 min', '1 دقيقة'],
    [899, 14, '14 min', '14 دقيقة'],
    [7200, 120, '120 min', '120 دقيقة'],
  ])('%d s', (seconds, minutes, english, arabic) => {
    expect(idleMinutes(seconds)).toBe(minutes);
    expect(formatIdleLabel(seconds)).toBe(english);
    expect(formatIdleLabel(seconds, 'ar')).toBe(arabic);
  });

  it('rejects negative idle time', () => {
    expect(() => idleMinutes(-5)).toThrow(/Idle time must be a non-negative/);
  });

  it.each<[Date | number, Date | number, number]>([
    [0, 90_000, 90],
    [new Date(1000), new Date(61_000), 60],
    [5000, 1000, 0],
  ])('idleSecondsSince(%j, %j)', (since, now, expected) => {
    expect(idleSecondsSince(since, now)).toBe(expected);
  });
});

describe('formatBytes', () => {
  it.each<[number, number | undefined, string]>([
    [0, undefined, '0 B'],
    [1, undefined, '1 B'],
    [1023, undefined, '1023 B'],
    [1024, undefined, '1.0 KB'],
    [1536, undefined, '1.5 KB'],
    [1024 * 1024 - 1, undefined, '1.0 MB'],
    [5 * 1024 ** 2, undefined, '5.0 MB'],
    [1.25 * 1024 ** 3, 2, '1.25 GB'],
    [1024 ** 4, 0, '1 TB'],
    [1024 ** 5, undefined, '1.0 PB'],
    [3 * 1024 ** 6, undefined, '3072.0 PB'],
    [1536, 3, '1.500 KB'],
  ])('%d bytes (decimals %j)', (bytes, decimals, expected) => {
    expect(formatBytes(bytes, decimals)).toBe(expected);
  });

  it.each<[unknown, number]>([
    [-1, 1],
    [NaN, 1],
    [Infinity, 1],
    ['12', 1],
    [10, -1],
    [10, 1.5],
    [10, 21],
  ])('rejects %j with decimals %j', (bytes, decimals) => {
    expect(() => formatBytes(bytes as number, decimals)).toThrow(RangeError);
  });
});
