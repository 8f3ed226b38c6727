import { describe, expect, it } from 'vitest';
import {
  dayNumber,
  daysUntilExpiry,
  expiryReminderThreshold,
  expiryState,
  reminderThresholds,
  type ExpiryState,
} from './expiry';

describe('daysUntilExpiry', () => {
  const cases: [string, string, number | null][] = [
    ['2026-12-25', '2026-11-25', 30],
    ['2026-11-25', '2026-11-25', 0],
    ['2026-11-24', '2026-11-25', -1],
    ['2027-01-01', '2026-12-31', 1],
    ['2028-03-01', '2028-02-28', 2], // leap year
    ['2026-02-30', '2026-02-01', null], // not a day
    ['0001-01-01', '2026-11-25', null], // the spec's "no date"
    ['soon', '2026-11-25', null],
    ['2026-11-25T10:00:00Z', '2026-11-20', 5], // a timestamp is read by its date
  ];
  it.each(cases)('%s from %s is %s days', (expires, today, days) => {
    expect(daysUntilExpiry(expires, today)).toBe(days);
  });
  it('dayNumber counts from 1970-01-01', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('0000-01-01')).toBeNull();
  });
});

describe('expiryReminderThreshold', () => {
  const cases: [number, number | undefined, number | null][] = [
    [45, undefined, null],
    [31, undefined, null],
    [30, undefined, 30],
    [8, undefined, 30],
    [7, undefined, 7],
    [2, undefined, 7],
    [1, undefined, 1],
    [0, undefined, 0],
    [-3, undefined, 0],
    [14, 14, 14],
    [15, 14, null],
    [5, 14, 7],
    [5, 5, 5], // a rule asking 5 days ahead: 5, then 1, then the day
    [3, 5, 5],
    [1, 5, 1],
    [0, 0, 0],
    [1, 0, null],
  ];
  it.each(cases)('%s days ahead with first reminder %s -> %s', (days, first, expected) => {
    expect(expiryReminderThreshold(days, first)).toBe(expected);
  });
  it('reminderThresholds keeps the later ones under the first', () => {
    expect(reminderThresholds(30)).toEqual([30, 7, 1, 0]);
    expect(reminderThresholds(60)).toEqual([60, 30, 7, 1, 0]);
    expect(reminderThresholds(7)).toEqual([7, 1, 0]);
    expect(reminderThresholds(3)).toEqual([3, 1, 0]);
  });
});

describe('expiryState', () => {
  const cases: [number, ExpiryState][] = [
    [-1, 'expired'],
    [0, 'expiresToday'],
    [1, 'dueThisWeek'],
    [7, 'dueThisWeek'],
    [8, 'dueSoon'],
    [30, 'dueSoon'],
    [31, 'valid'],
  ];
  it.each(cases)('%s days -> %s', (days, state) => expect(expiryState(days)).toBe(state));
});
