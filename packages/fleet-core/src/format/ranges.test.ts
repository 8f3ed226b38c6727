import { describe, expect, it } from 'vitest';
import { dashboardPeriod, quickRange, quickRanges, type DashboardPeriod, type QuickRange } from './ranges';

// 2025-06-15 22:30 UTC is already Monday 2025-06-16 02:30 in Dubai (+04:00).
const NOW = Date.UTC(2025, 5, 15, 22, 30);

describe('quickRange in the user zone', () => {
  it.each<[QuickRange, string, string]>([
    ['today', '2025-06-16T00:00:00+04:00', '2025-06-16T23:59:59+04:00'],
    ['yesterday', '2025-06-15T00:00:00+04:00', '2025-06-15T23:59:59+04:00'],
    ['last7Days', '2025-06-10T00:00:00+04:00', '2025-06-16T23:59:59+04:00'],
    ['last30Days', '2025-05-18T00:00:00+04:00', '2025-06-16T23:59:59+04:00'],
    ['last90Days', '2025-03-19T00:00:00+04:00', '2025-06-16T23:59:59+04:00'],
  ])('%s in Asia/Dubai', (name, fromIso, toIso) => {
    const r = quickRange(name, NOW, 'Asia/Dubai');
    expect([r.fromIso, r.toIso]).toEqual([fromIso, toIso]);
    expect(r.from.getTime()).toBe(Date.parse(fromIso));
    expect(r.to.getTime()).toBe(Date.parse(toIso) + 999);
    expect(r.fromApi).toBe(fromIso.slice(0, 19).replace('T', ' '));
  });

  it('the same instant is still the 15th in UTC', () => {
    expect(quickRange('today', NOW, 'UTC').fromIso).toBe('2025-06-15T00:00:00+00:00');
    expect(quickRanges).toHaveLength(5);
  });

  it('a range across a DST change keeps local midnights', () => {
    // 2025-03-09 is the spring-forward day in New York.
    const r = quickRange('last7Days', Date.UTC(2025, 2, 12, 15), 'America/New_York');
    expect(r.fromIso).toBe('2025-03-06T00:00:00-05:00');
    expect(r.toIso).toBe('2025-03-12T23:59:59-04:00');
  });

  it('rejects unknown names and zones', () => {
    expect(() => quickRange('last8Days' as QuickRange, NOW, 'UTC')).toThrow(/Unknown quick range/);
    expect(() => quickRange('today', NOW, 'Bad/Zone')).toThrow(RangeError);
  });
});

describe('dashboardPeriod in the user zone', () => {
  it.each<[DashboardPeriod, string, string, string]>([
    ['week', 'en-US', '2025-06-15T00:00:00+04:00', '2025-06-21T23:59:59+04:00'],
    ['week', 'ar', '2025-06-14T00:00:00+04:00', '2025-06-20T23:59:59+04:00'],
    ['month', 'en-US', '2025-06-01T00:00:00+04:00', '2025-06-30T23:59:59+04:00'],
    ['year', 'ar', '2025-01-01T00:00:00+04:00', '2025-12-31T23:59:59+04:00'],
  ])('%s (%s)', (name, locale, fromIso, toIso) => {
    const r = dashboardPeriod(name, NOW, 'Asia/Dubai', locale);
    expect([r.fromIso, r.toIso]).toEqual([fromIso, toIso]);
  });

  it('year boundary depends on the zone', () => {
    const newYearUtc = Date.UTC(2024, 11, 31, 21);
    expect(dashboardPeriod('year', newYearUtc, 'Asia/Dubai').fromIso).toBe('2025-01-01T00:00:00+04:00');
    expect(dashboardPeriod('year', newYearUtc, 'UTC').fromIso).toBe('2024-01-01T00:00:00+00:00');
  });

  it('rejects unknown periods', () => {
    expect(() => dashboardPeriod('decade' as DashboardPeriod, NOW, 'UTC')).toThrow(
      /Unknown dashboard period/,
    );
  });
});
