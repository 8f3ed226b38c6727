/**
 * planRange reads only the edge days (issue 18: it used to walk every day of the range on the event
 * loop). It must give exactly the plan of the day-by-day walk, in zones with and without DST.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayStartOf, localDate } from '../pipeline/common/zoned-time';
import { planRange } from './range';

function walk(fromMs: number, toMs: number, tz: string) {
  const firstDay = localDate(fromMs, tz);
  const lastDay = localDate(toMs - 1, tz);
  const full: string[] = [];
  const edgeDays: string[] = [];
  for (let d = firstDay; d <= lastDay; d = addDays(d, 1)) {
    if (fromMs <= dayStartOf(d, tz) && dayStartOf(addDays(d, 1), tz) <= toMs) full.push(d);
    else edgeDays.push(d);
  }
  return {
    from: fromMs,
    to: toMs,
    full: full.length ? { from: full[0]!, to: full[full.length - 1]! } : null,
    edgeDays,
    firstDay,
    lastDay,
  };
}

describe('planRange', () => {
  it('equals the day-by-day plan', () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 366 * 24 * 4 }),
        fc.integer({ min: 1, max: 40 * 24 * 4 }),
        fc.constantFrom('Asia/Dubai', 'Europe/London', 'America/New_York', 'UTC'),
        (startQ, lenQ, tz) => {
          const from = base + startQ * 15 * 60_000;
          const to = from + lenQ * 15 * 60_000;
          expect(planRange(from, to, tz)).toEqual(walk(from, to, tz));
        },
      ),
      { numRuns: 400, seed: 18 },
    );
  });

  it('costs the same for a century as for a day', () => {
    const plan = planRange(
      Date.parse('2000-01-01T00:00:00Z'),
      Date.parse('2099-12-31T00:00:00Z'),
      'Asia/Dubai',
    );
    expect(plan.edgeDays.length).toBeLessThanOrEqual(2);
    expect(plan.full).toEqual({ from: '2000-01-02', to: '2099-12-30' });
  });
});
