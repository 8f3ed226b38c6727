import { quickRanges } from '@fleet/core';
import { describe, expect, it } from 'vitest';
import { dayRange, isDayString, matchQuickRange, quickRangeValue, validateDays } from './date-range-logic';

const dubai = 'Asia/Dubai';
// 2025-06-15 22:30 in Dubai (UTC+4) is already the 15th there but 18:30 UTC.
const now = '2025-06-15T18:30:00Z';

describe('quickRangeValue', () => {
  it.each([
    ['today', '2025-06-15', '2025-06-15'],
    ['yesterday', '2025-06-14', '2025-06-14'],
    ['last7Days', '2025-06-09', '2025-06-15'],
    ['last30Days', '2025-05-17', '2025-06-15'],
    ['last90Days', '2025-03-18', '2025-06-15'],
  ] as const)('%s in Dubai', (name, from, to) => {
    expect(quickRangeValue(name, now, dubai)).toEqual({ from, to, quick: name });
  });
  it('uses the zone: 2025-06-15 20:30 UTC is the 16th in Dubai but the 15th in New York', () => {
    const late = '2025-06-15T20:30:00Z';
    expect(quickRangeValue('today', late, dubai).from).toBe('2025-06-16');
    expect(quickRangeValue('today', late, 'America/New_York').from).toBe('2025-06-15');
  });
});

describe('validateDays', () => {
  it.each([
    ['2025-06-01', '2025-06-15', null],
    ['2025-06-15', '2025-06-15', null],
    ['2025-06-16', '2025-06-15', 'rangeOrder'],
    ['', '2025-06-15', 'rangeMissing'],
    ['2025-06-01', '', 'rangeMissing'],
    ['2025-02-30', '2025-03-01', 'rangeInvalidDate'],
    ['15/06/2025', '2025-06-20', 'rangeInvalidDate'],
  ] as const)('%s..%s -> %s', (from, to, out) => {
    expect(validateDays(from, to)).toBe(out);
  });
});

describe('isDayString', () => {
  it.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-1-01', false],
  ])('%s -> %s', (text, ok) => expect(isDayString(text)).toBe(ok));
});

describe('dayRange', () => {
  it('spans whole local days in the zone', () => {
    const r = dayRange('2025-06-01', '2025-06-15', dubai);
    expect(r.fromIso).toBe('2025-06-01T00:00:00+04:00');
    expect(r.toIso).toBe('2025-06-15T23:59:59+04:00');
    expect(r.fromApi).toBe('2025-06-01 00:00:00');
    expect(r.from.toISOString()).toBe('2025-05-31T20:00:00.000Z');
    expect(r.to.toISOString()).toBe('2025-06-15T19:59:59.999Z');
  });
  it('matches core quickRange for the same days', () => {
    const r = dayRange('2025-06-09', '2025-06-15', dubai);
    const q = quickRangeValue('last7Days', now, dubai);
    expect([q.from, q.to]).toEqual(['2025-06-09', '2025-06-15']);
    expect(r.toApi).toBe('2025-06-15 23:59:59');
  });
  it.each([
    ['2025-06-16', '2025-06-15'],
    ['', '2025-06-15'],
  ])('rejects %s..%s', (from, to) => {
    expect(() => dayRange(from, to, dubai)).toThrow(RangeError);
  });
  it('rejects an unknown zone', () => {
    expect(() => dayRange('2025-06-01', '2025-06-02', 'Mars/Base')).toThrow(RangeError);
  });
});

describe('matchQuickRange', () => {
  it.each([
    ['2025-06-15', '2025-06-15', 'today'],
    ['2025-06-09', '2025-06-15', 'last7Days'],
    ['2025-06-09', '2025-06-14', null],
  ] as const)('%s..%s -> %s', (from, to, out) => {
    expect(matchQuickRange(from, to, now, dubai, quickRanges)).toBe(out);
  });
});
