import { describe, expect, it } from 'vitest';
import { historyRange } from './history-range';

const now = new Date(2026, 10, 25, 12, 0); // 25 November 2026, local time
const at = (query: string) => historyRange(new URLSearchParams(query), now);

describe('historyRange', () => {
  it.each([
    ['', true, '2026-11-25', '2026-11-25', 1],
    ['date=2026-11-20', true, '2026-11-20', '2026-11-20', 1],
    ['from=2026-11-19&to=2026-11-25', true, '2026-11-19', '2026-11-25', 7],
    ['from=2026-11-24', true, '2026-11-24', '2026-11-24', 1],
  ] as const)('%s -> %s..%s', (query, ok, fromDay, toDay, days) => {
    const r = at(query);
    expect(r).toMatchObject({ ok, fromDay, toDay, days });
  });

  it.each([
    ['from=2026-11-18&to=2026-11-25', 'tooLong'],
    ['from=2026-11-25&to=2026-11-20', 'order'],
    ['from=2026-11-31', 'invalid'],
    ['from=yesterday', 'invalid'],
    ['from=2026-11-26&to=2026-11-27', 'future'],
  ] as const)('%s is refused (%s)', (query, error) => {
    expect(at(query)).toMatchObject({ ok: false, error });
  });

  it('covers whole local days', () => {
    const r = at('from=2026-11-24&to=2026-11-25');
    expect(r.ok && new Date(r.from).getHours()).toBe(0);
    expect(r.ok && new Date(r.to).getHours()).toBe(23);
  });
});
