import { describe, expect, it } from 'vitest';
import {
  formatNumber,
  summarizeSeries,
  timeFormatOptions,
  timeGranularity,
  toUplotData,
  validateChartData,
} from './chart-logic';
import { chartMessagesAr } from './messages.ar';
import { chartMessagesEn } from './messages.en';

describe('validateChartData', () => {
  it.each([
    { name: 'ok', ts: [1, 2, 3], values: [1, 2, 3], error: null },
    { name: 'length mismatch', ts: [1, 2, 3], values: [1, 2], error: 'has 2 values for 3 timestamps' },
    { name: 'not ascending', ts: [1, 3, 2], values: [1, 2, 3], error: 'ascending (index 2)' },
    { name: 'NaN time', ts: [1, Number.NaN], values: [1, 2], error: 'timestamp 1 is not a finite number' },
  ])('$name', ({ ts, values, error }) => {
    const run = () => validateChartData(ts, [{ label: 'Speed', values }]);
    if (error) expect(run).toThrow(error);
    else expect(run).not.toThrow();
  });
});

describe('toUplotData', () => {
  it('lays out columns and turns non-finite values into gaps', () => {
    expect(
      toUplotData([10, 20, 30], [
        { label: 'a', values: [1, null, Number.NaN] },
        { label: 'b', values: [4, 5, Number.POSITIVE_INFINITY] },
      ]),
    ).toEqual([
      [10, 20, 30],
      [1, null, null],
      [4, 5, null],
    ]);
  });
});

describe('summarizeSeries', () => {
  it.each([
    { values: [3, 1, null, 5, 2], expected: { count: 4, min: 1, max: 5, mean: 2.75, last: 2, lastIndex: 4 } },
    { values: [null, 7, null], expected: { count: 1, min: 7, max: 7, mean: 7, last: 7, lastIndex: 1 } },
    { values: [-2, -8], expected: { min: -8, max: -2, mean: -5 } },
  ])('$values', ({ values, expected }) => {
    expect(summarizeSeries(values)).toMatchObject(expected);
  });
  it.each([[[]], [[null, null]], [[Number.NaN]]])('returns null for %j', (values) => {
    expect(summarizeSeries(values)).toBeNull();
  });
});

describe('time axis', () => {
  const min = 60_000;
  const hour = 60 * min;
  const day = 24 * hour;
  it.each([
    [5 * min, 'second'],
    [6 * hour, 'minute'],
    [3 * day, 'minute'],
    [30 * day, 'day'],
    [365 * day, 'month'],
  ] as const)('%s ms -> %s', (span, g) => {
    expect(timeGranularity(span)).toBe(g);
  });
  it('formats with Latin digits in Arabic and honours the time zone', () => {
    const f = new Intl.DateTimeFormat('ar', timeFormatOptions('minute', 'UTC'));
    expect(f.format(Date.UTC(2026, 0, 1, 13, 5))).toBe('13:05');
    expect(formatNumber(1234.56, 'ar')).toMatch(/^1.?234.?6$/);
  });
});

describe('messages', () => {
  it('has the same keys and placeholders in both languages and the spec empty text', () => {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(chartMessagesAr).sort()).toEqual(Object.keys(chartMessagesEn).sort());
    for (const k of Object.keys(chartMessagesEn) as (keyof typeof chartMessagesEn)[]) {
      expect(ph(chartMessagesAr[k]), k).toEqual(ph(chartMessagesEn[k]));
    }
    expect(chartMessagesEn.noData).toBe('No data found, please try selecting different date and time');
  });
});
