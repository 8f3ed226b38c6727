/**
 * Pure day arithmetic of the DateField's calendar, on 'YYYY-MM-DD' strings (the API's and the URL's
 * form of a day). Days are civil dates with no zone: they are computed in UTC so no offset or daylight
 * saving change can move one, and compared as strings (the format sorts lexicographically).
 */

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Day of the week, 0 = Sunday ... 6 = Saturday (as Date#getUTCDay). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The UTC midnight of a day, or null when the text is not a real 'YYYY-MM-DD' date. */
export function dayToUtc(day: string): number | null {
  const m = DAY_PATTERN.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

export function isDay(day: string): boolean {
  return dayToUtc(day) !== null;
}

/** 'YYYY-MM-DD' of a UTC instant. */
export function utcToDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `n` days later (earlier when negative). Throws on a malformed day. */
export function addDays(day: string, n: number): string {
  const ms = dayToUtc(day);
  if (ms === null) throw new RangeError(`Not a day: ${JSON.stringify(day)}`);
  return utcToDay(ms + n * DAY_MS);
}

/** The same day of the month `n` months later, clamped to that month's last day (31 Jan + 1 = 28/29 Feb). */
export function addMonths(day: string, n: number): string {
  const ms = dayToUtc(day);
  if (ms === null) throw new RangeError(`Not a day: ${JSON.stringify(day)}`);
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return utcToDay(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d.getUTCDate(), last)));
}

/** The day kept within [min, max] (either bound optional). */
export function clampDay(day: string, min?: string, max?: string): string {
  if (min && isDay(min) && day < min) return min;
  if (max && isDay(max) && day > max) return max;
  return day;
}

/** True when the day lies outside [min, max]. */
export function outOfRange(day: string, min?: string, max?: string): boolean {
  return Boolean((min && isDay(min) && day < min) || (max && isDay(max) && day > max));
}

/** First day of the week containing `day`. */
export function startOfWeek(day: string, weekStartsOn: Weekday): string {
  const ms = dayToUtc(day);
  if (ms === null) throw new RangeError(`Not a day: ${JSON.stringify(day)}`);
  const back = (new Date(ms).getUTCDay() - weekStartsOn + 7) % 7;
  return addDays(day, -back);
}

/** 'YYYY-MM' of a day. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/**
 * The weeks shown for the month of `day`: whole weeks from the week holding the 1st to the week holding
 * the last day, each seven days starting on `weekStartsOn` (days of the neighbouring months included,
 * the caller marks them).
 */
export function monthGrid(day: string, weekStartsOn: Weekday): string[][] {
  const first = `${monthOf(day)}-01`;
  const last = addDays(addMonths(first, 1), -1);
  const weeks: string[][] = [];
  for (let start = startOfWeek(first, weekStartsOn); start <= last; start = addDays(start, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(start, i)));
  }
  return weeks;
}

/** The first day of the week of a language: Sunday in US English, Saturday in Arabic (CLDR's `ar`). */
export function weekStartOf(locale: 'en' | 'ar'): Weekday {
  return locale === 'ar' ? 6 : 0;
}

/** Keys the calendar grid moves by, and how far. Arrow keys follow the reading direction. */
export function moveByKey(
  day: string,
  key: string,
  options: { dir: 'ltr' | 'rtl'; weekStartsOn: Weekday; shiftKey?: boolean },
): string | null {
  const forward = options.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
  const backward = options.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
  switch (key) {
    case forward:
      return addDays(day, 1);
    case backward:
      return addDays(day, -1);
    case 'ArrowDown':
      return addDays(day, 7);
    case 'ArrowUp':
      return addDays(day, -7);
    case 'Home':
      return startOfWeek(day, options.weekStartsOn);
    case 'End':
      return addDays(startOfWeek(day, options.weekStartsOn), 6);
    case 'PageUp':
      return addMonths(day, options.shiftKey ? -12 : -1);
    case 'PageDown':
      return addMonths(day, options.shiftKey ? 12 : 1);
    default:
      return null;
  }
}
