/**
 * Gregorian <-> Jalali (Solar Hijri) conversion with the arithmetic 33-year leap rule: a Jalali
 * year y is leap when (25y + 11) mod 33 < 8, counted from 1 Farvardin 1178 = 1799-03-21.
 * The supported range is Jalali 1178-1501 (Gregorian 1799-03-21 through 2123-03-20): from 1178 the
 * rule matches the official calendar, and up to 1501 it matches ICU's Persian calendar (what
 * browsers show; the test checks every 13th day of the range against Intl). From 1502 on the leap
 * years of the two diverge, so anything outside the range throws a RangeError instead of returning
 * a date that may be a day off.
 */

import { inZone, type DateInput } from './dates';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export const JALALI_MIN_YEAR = 1178;
export const JALALI_MAX_YEAR = 1501;
/** 1 Farvardin 1178 = 1799-03-21 (days since 1970-01-01). */
const FIRST_YEAR_START = Date.UTC(1799, 2, 21) / 86_400_000;
const MS_PER_DAY = 86_400_000;

export const jalaliMonthNames = {
  en: [
    'Farvardin',
    'Ordibehesht',
    'Khordad',
    'Tir',
    'Mordad',
    'Shahrivar',
    'Mehr',
    'Aban',
    'Azar',
    'Dey',
    'Bahman',
    'Esfand',
  ],
  ar: ['فروردين', 'أرديبهشت', 'خرداد', 'تير', 'مرداد', 'شهريور', 'مهر', 'آبان', 'آذر', 'دي', 'بهمن', 'إسفند'],
} as const;

const RANGE_TEXT = `Jalali conversion supports Jalali years ${JALALI_MIN_YEAR}-${JALALI_MAX_YEAR} (Gregorian 1799-03-21 to 2123-03-20)`;

export function isJalaliLeapYear(year: number): boolean {
  return (((25 * year + 11) % 33) + 33) % 33 < 8;
}

export function jalaliMonthLength(year: number, month: number): number {
  if (month <= 6) return 31;
  if (month <= 11) return 30;
  return isJalaliLeapYear(year) ? 30 : 29;
}

let yearStarts: number[] | null = null;

/** Day numbers (since 1970-01-01) of 1 Farvardin for every supported year plus the year after. */
function starts(): number[] {
  if (yearStarts) return yearStarts;
  const table = [FIRST_YEAR_START];
  for (let year = JALALI_MIN_YEAR; year <= JALALI_MAX_YEAR; year += 1) {
    table.push(table[table.length - 1]! + (isJalaliLeapYear(year) ? 366 : 365));
  }
  yearStarts = table;
  return table;
}

function assertInteger(value: number, name: string): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${String(value)}`);
}

function gregorianDayNumber({ year, month, day }: CalendarDate): number {
  assertInteger(year, 'year');
  assertInteger(month, 'month');
  assertInteger(day, 'day');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new RangeError(`Not a valid Gregorian date: ${year}-${month}-${day}`);
  }
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** Converts a Gregorian calendar date (or a Date's UTC calendar day) to Jalali. */
export function gregorianToJalali(input: CalendarDate | Date): CalendarDate {
  const dayNumber =
    input instanceof Date ? Math.floor(input.getTime() / MS_PER_DAY) : gregorianDayNumber(input);
  if (!Number.isFinite(dayNumber)) throw new RangeError('Not a valid date');
  const table = starts();
  if (dayNumber < table[0]! || dayNumber >= table[table.length - 1]!)
    throw new RangeError(`${RANGE_TEXT}; got a date outside it`);
  let index = 0;
  while (table[index + 1]! <= dayNumber) index += 1;
  const year = JALALI_MIN_YEAR + index;
  let dayOfYear = dayNumber - table[index]!;
  let month = 1;
  while (dayOfYear >= jalaliMonthLength(year, month)) {
    dayOfYear -= jalaliMonthLength(year, month);
    month += 1;
  }
  return { year, month, day: dayOfYear + 1 };
}

/** Converts a Jalali date to Gregorian; throws RangeError outside the range or for an invalid date. */
export function jalaliToGregorian({ year, month, day }: CalendarDate): CalendarDate {
  assertInteger(year, 'year');
  assertInteger(month, 'month');
  assertInteger(day, 'day');
  if (year < JALALI_MIN_YEAR || year > JALALI_MAX_YEAR)
    throw new RangeError(`${RANGE_TEXT}; got year ${year}`);
  if (month < 1 || month > 12 || day < 1 || day > jalaliMonthLength(year, month)) {
    throw new RangeError(`Not a valid Jalali date: ${year}/${month}/${day}`);
  }
  let dayNumber = starts()[year - JALALI_MIN_YEAR]!;
  for (let m = 1; m < month; m += 1) dayNumber += jalaliMonthLength(year, m);
  dayNumber += day - 1;
  const date = new Date(dayNumber * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 'YYYY/MM/DD' of a Jalali date. */
export function formatJalaliDate({ year, month, day }: CalendarDate): string {
  return `${year}/${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}`;
}

/** The Jalali calendar date of an instant in an IANA zone (throws RangeError outside the supported range). */
export function jalaliInZone(value: DateInput, timeZone: string): CalendarDate {
  const local = inZone(value, timeZone);
  return gregorianToJalali({ year: local.year(), month: local.month() + 1, day: local.date() });
}
