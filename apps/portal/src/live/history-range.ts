import { dayRange, today } from './day-range';

/** Route history shows any range of whole days up to this long (issue 20). */
export const MAX_HISTORY_DAYS = 7;

export type HistoryRange =
  | { ok: true; fromDay: string; toDay: string; from: string; to: string; days: number }
  | { ok: false; fromDay: string; toDay: string; error: 'invalid' | 'order' | 'tooLong' | 'future' };

/**
 * The route history's range from the URL: `from` and `to` days (YYYY-MM-DD, browser zone, both
 * included), or the older single `date`; today when absent. Refused: unreadable days, `to` before
 * `from`, more than 7 days, a start in the future.
 */
export function historyRange(params: URLSearchParams, now: Date = new Date()): HistoryRange {
  const single = params.get('date');
  const fromDay = params.get('from') ?? single ?? today(now);
  const toDay = params.get('to') ?? single ?? fromDay;
  const a = dayRange(fromDay);
  const b = dayRange(toDay);
  if (!a || !b) return { ok: false, fromDay, toDay, error: 'invalid' };
  if (b.to < a.from) return { ok: false, fromDay, toDay, error: 'order' };
  if (fromDay > today(now)) return { ok: false, fromDay, toDay, error: 'future' };
  const days = Math.round((Date.parse(b.to) + 1 - Date.parse(a.from)) / 86_400_000);
  if (days > MAX_HISTORY_DAYS) return { ok: false, fromDay, toDay, error: 'tooLong' };
  return { ok: true, fromDay, toDay, from: a.from, to: b.to, days };
}
