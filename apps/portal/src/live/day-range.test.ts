import { describe, expect, it } from 'vitest';
import { dayRange, today } from './day-range';

describe('dayRange', () => {
  it('covers one local day', () => {
    const range = dayRange('2026-11-20');
    expect(range).not.toBeNull();
    const from = new Date(range!.from);
    const to = new Date(range!.to);
    expect(from.getHours()).toBe(0);
    expect(to.getHours()).toBe(23);
    expect(to.getTime() - from.getTime()).toBe(24 * 3600 * 1000 - 1);
  });

  it.each(['', '2026-13-01', '2026-02-30', 'yesterday', '0001-01-01x'])('refuses %s', (day) => {
    expect(dayRange(day)).toBeNull();
  });

  it('formats today', () => {
    expect(today(new Date(2026, 0, 5, 10))).toBe('2026-01-05');
  });
});
