import { dateFormats, inZone, type DateInput } from './dates';
import type { Dayjs } from './dayjs';

export const quickRanges = ['today', 'yesterday', 'last7Days', 'last30Days', 'last90Days'] as const;
export type QuickRange = (typeof quickRanges)[number];
export const dashboardPeriods = ['week', 'month', 'year'] as const;
export type DashboardPeriod = (typeof dashboardPeriods)[number];

/** A closed interval [from, to] with its bounds as Dates, as ISO strings with the zone's offset and in the API form. */
export interface DateRange {
  from: Date;
  to: Date;
  /** e.g. '2025-06-15T00:00:00+04:00' */
  fromIso: string;
  toIso: string;
  /** 'YYYY-MM-DD HH:mm:ss' in the user's zone */
  fromApi: string;
  toApi: string;
}

function range(from: Dayjs, to: Dayjs): DateRange {
  return {
    from: from.toDate(),
    to: to.toDate(),
    fromIso: from.format(dateFormats.iso),
    toIso: to.format(dateFormats.iso),
    fromApi: from.format(dateFormats.dateTime),
    toApi: to.format(dateFormats.dateTime),
  };
}

const spanDays: Record<QuickRange, [startDaysAgo: number, endDaysAgo: number]> = {
  today: [0, 0],
  yesterday: [1, 1],
  last7Days: [6, 0],
  last30Days: [29, 0],
  last90Days: [89, 0],
};

/**
 * A quick range in the user's zone, whole days: today and yesterday are one calendar day; "last N
 * days" are the N calendar days ending with today (today included), from 00:00:00.000 to
 * 23:59:59.999 local time. Throws RangeError for an unknown range or zone.
 */
export function quickRange(name: QuickRange, now: DateInput, timeZone: string): DateRange {
  const span = spanDays[name];
  if (!span) throw new RangeError(`Unknown quick range: ${JSON.stringify(name)}`);
  const today = inZone(now, timeZone);
  return range(today.subtract(span[0], 'day').startOf('day'), today.subtract(span[1], 'day').endOf('day'));
}

/**
 * A dashboard period in the user's zone: the calendar week, month or year containing `now`, from
 * its first to its last millisecond. The week starts on the locale's first day (en-US Sunday,
 * Arabic Saturday). Throws RangeError for an unknown period or zone.
 */
export function dashboardPeriod(
  name: DashboardPeriod,
  now: DateInput,
  timeZone: string,
  locale = 'en-US',
): DateRange {
  if (!(dashboardPeriods as readonly string[]).includes(name)) {
    throw new RangeError(`Unknown dashboard period: ${JSON.stringify(name)}`);
  }
  const current = inZone(now, timeZone, locale);
  return range(current.startOf(name), current.endOf(name));
}
