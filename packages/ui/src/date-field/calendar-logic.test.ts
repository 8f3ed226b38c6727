import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  clampDay,
  dayToUtc,
  monthGrid,
  moveByKey,
  outOfRange,
  startOfWeek,
} from './calendar-logic';

describe('calendar logic', () => {
  it('reads only real days', () => {
    expect(dayToUtc('2026-11-27')).toBe(Date.UTC(2026, 10, 27));
    expect(dayToUtc('2026-02-30')).toBeNull();
    expect(dayToUtc('27/11/2026')).toBeNull();
    expect(dayToUtc('')).toBeNull();
  });

  it('adds days and months across month, year and leap-day edges', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-03-15', -12)).toBe('2025-03-15');
  });

  it('clamps to the allowed range', () => {
    expect(clampDay('2026-11-30', undefined, '2026-11-27')).toBe('2026-11-27');
    expect(clampDay('2026-01-01', '2026-02-01')).toBe('2026-02-01');
    expect(outOfRange('2026-11-28', undefined, '2026-11-27')).toBe(true);
    expect(outOfRange('2026-11-27', '2026-11-27', '2026-11-27')).toBe(false);
  });

  it('lays a month out in whole weeks from the chosen first weekday', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const sunday = monthGrid('2026-11-27', 0);
    expect(sunday[0]![0]).toBe('2026-11-01');
    expect(sunday.at(-1)!.at(-1)).toBe('2026-12-05');
    const saturday = monthGrid('2026-11-27', 6);
    expect(saturday[0]![0]).toBe('2026-10-31');
    expect(saturday.every((w) => w.length === 7)).toBe(true);
    expect(startOfWeek('2026-11-27', 6)).toBe('2026-11-21');
  });

  it('moves with the keys, arrows in the reading direction', () => {
    const ltr = { dir: 'ltr' as const, weekStartsOn: 0 as const };
    const rtl = { dir: 'rtl' as const, weekStartsOn: 6 as const };
    expect(moveByKey('2026-11-27', 'ArrowRight', ltr)).toBe('2026-11-28');
    expect(moveByKey('2026-11-27', 'ArrowLeft', rtl)).toBe('2026-11-28');
    expect(moveByKey('2026-11-27', 'ArrowRight', rtl)).toBe('2026-11-26');
    expect(moveByKey('2026-11-27', 'ArrowDown', ltr)).toBe('2026-12-04');
    expect(moveByKey('2026-11-27', 'Home', rtl)).toBe('2026-11-21');
    expect(moveByKey('2026-11-27', 'End', ltr)).toBe('2026-11-28');
    expect(moveByKey('2026-11-27', 'PageUp', { ...ltr, shiftKey: true })).toBe('2025-11-27');
    expect(moveByKey('2026-11-27', 'Tab', ltr)).toBeNull();
  });
});
