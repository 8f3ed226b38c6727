import {
  dateFormats,
  inZone,
  parseInZone,
  quickRange,
  toApiDate,
  type DateInput,
  type DateRange,
  type QuickRange,
} from '@fleet/core';

/**
 * The picker's value: whole calendar days in the user's zone, as the native date inputs hold them
 * ('YYYY-MM-DD'), plus the quick range that produced them (null for a custom range).
 */
export interface DateRangeValue {
  from: string;
  to: string;
  quick: QuickRange | null;
}

export const rangeErrors = ['rangeMissing', 'rangeInvalidDate', 'rangeOrder'] as const;
export type DateRangeError = (typeof rangeErrors)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written 'YYYY-MM-DD' (2025-02-30 is not). */
export function isDayString(text: string): boolean {
  if (!DAY.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Checks a from/to pair typed in the two date inputs. 'YYYY-MM-DD' strings compare correctly as
 * text, so no zone is needed to check the order. Returns the message key of the first problem.
 */
export function validateDays(from: string, to: string): DateRangeError | null {
  if (!from || !to) return 'rangeMissing';
  if (!isDayString(from) || !isDayString(to)) return 'rangeInvalidDate';
  if (from > to) return 'rangeOrder';
  return null;
}

/** The days of a quick range (computed by @fleet/core's quickRange in the zone) as a picker value. */
export function quickRangeValue(name: QuickRange, now: DateInput, timeZone: string): DateRangeValue {
  const range = quickRange(name, now, timeZone);
  return { from: toApiDate(range.from, timeZone), to: toApiDate(range.to, timeZone), quick: name };
}

/**
 * The instants of a day range in the zone: `from` at 00:00:00.000 and `to` at 23:59:59.999 local
 * time (the same shape as @fleet/core's quick ranges). Throws RangeError for invalid or reversed days.
 */
export function dayRange(from: string, to: string, timeZone: string): DateRange {
  const problem = validateDays(from, to);
  if (problem)
    throw new RangeError(`Invalid date range ${JSON.stringify(from)}..${JSON.stringify(to)}: ${problem}`);
  const start = inZone(parseInZone(from, timeZone), timeZone).startOf('day');
  const end = inZone(parseInZone(to, timeZone), timeZone).endOf('day');
  return {
    from: start.toDate(),
    to: end.toDate(),
    fromIso: start.format(dateFormats.iso),
    toIso: end.format(dateFormats.iso),
    fromApi: start.format(dateFormats.dateTime),
    toApi: end.format(dateFormats.dateTime),
  };
}

/** The first of `names` whose days equal from..to today in the zone, else null. */
export function matchQuickRange(
  from: string,
  to: string,
  now: DateInput,
  timeZone: string,
  names: readonly QuickRange[],
): QuickRange | null {
  for (const name of names) {
    const value = quickRangeValue(name, now, timeZone);
    if (value.from === from && value.to === to) return name;
  }
  return null;
}
