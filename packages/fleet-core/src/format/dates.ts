import { resolveLocale } from '../i18n/locale';
import { dayjs, type Dayjs } from './dayjs';
import { parseApiTime } from './parse-time';

/** The date and display formats of spec section 9 (dayjs tokens). */
export const dateFormats = {
  /** ISO 8601 with the zone offset, e.g. 2025-06-15T16:00:00+04:00. */
  iso: 'YYYY-MM-DDTHH:mm:ssZ',
  date: 'YYYY-MM-DD',
  dateTime: 'YYYY-MM-DD HH:mm:ss',
  dayMonthYear: 'DD/MM/YYYY',
  short: 'DD MMM YYYY',
  long: 'ddd DD MMM YYYY, hh:mm A',
  time: 'HH:mm',
  timeWithSeconds: 'HH:mm:ss',
  day: 'DD',
  dayMonth: 'DD MMM',
  monthYear: 'MMM YYYY',
} as const;
export type DateFormatName = keyof typeof dateFormats;

/** Locale and IANA zone of one formatting call; both explicit, never read from the environment. */
export interface ZoneOptions {
  locale: string;
  timeZone: string;
}

export type DateInput = Date | number | string;

/** True when `timeZone` is an IANA zone name the runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Throws a RangeError naming the zone when it is not a valid IANA zone. */
export function assertTimeZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown IANA time zone: ${JSON.stringify(timeZone)}`);
}

/** dayjs locale name of a product locale. */
export function dayjsLocale(locale: string): 'en' | 'ar' {
  return resolveLocale(locale) === 'ar' ? 'ar' : 'en';
}

/**
 * An instant in a zone. Strings are API times (see parseApiTime: no offset means UTC). Throws a
 * RangeError for an unknown zone or a value that is not a time.
 */
export function inZone(value: DateInput, timeZone: string, locale = 'en-US'): Dayjs {
  assertTimeZone(timeZone);
  const ms = parseApiTime(value);
  if (ms === null) throw new RangeError(`Not a valid date: ${JSON.stringify(value)}`);
  return dayjs(ms).tz(timeZone).locale(dayjsLocale(locale));
}

/**
 * Formats an instant with one of the spec's formats (or a dayjs pattern) in a locale and zone.
 * Returns '' for null, undefined, '' and the zero date 0001-01-01 (display of a missing value);
 * throws RangeError for an unknown zone or an unparseable value.
 */
export function formatDate(
  value: DateInput | null | undefined,
  format: DateFormatName | { pattern: string },
  options: ZoneOptions,
): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && value.trim().startsWith('0001-01-01')) return '';
  const pattern = typeof format === 'string' ? dateFormats[format] : format.pattern;
  // Arabic punctuation in Arabic text: the spec's patterns separate date and time with a comma, which
  // reads as the Arabic comma (U+060C) there, as Intl writes it. Commas are never dayjs tokens.
  const localized = dayjsLocale(options.locale) === 'ar' ? pattern.replace(/,/g, '\u060C') : pattern;
  return inZone(value, options.timeZone, options.locale).format(localized);
}

/** 'YYYY-MM-DD HH:mm:ss' of an instant in the zone (the API's date-time form). */
export function toApiDateTime(value: DateInput, timeZone: string): string {
  return inZone(value, timeZone).format(dateFormats.dateTime);
}

/** 'YYYY-MM-DD' of an instant in the zone. */
export function toApiDate(value: DateInput, timeZone: string): string {
  return inZone(value, timeZone).format(dateFormats.date);
}

/** ISO 8601 with the zone's offset. */
export function toIsoInZone(value: DateInput, timeZone: string): string {
  return inZone(value, timeZone).format(dateFormats.iso);
}

/**
 * Reads a wall-clock date-time typed by the user in their zone (any of the spec's input formats:
 * 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss', 'DD/MM/YYYY', 'DD/MM/YYYY HH:mm') and
 * returns the instant. Throws RangeError when the text does not match or is not a real date.
 */
export function parseInZone(text: string, timeZone: string): Date {
  assertTimeZone(timeZone);
  const formats = ['YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD', 'DD/MM/YYYY HH:mm', 'DD/MM/YYYY'];
  const trimmed = typeof text === 'string' ? text.trim() : '';
  for (const format of formats) {
    const local = dayjs(trimmed, format, true);
    if (local.isValid()) return dayjs.tz(local.format('YYYY-MM-DD HH:mm:ss'), timeZone).toDate();
  }
  throw new RangeError(`Not a valid date: ${JSON.stringify(text)}`);
}

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * A time value for the API: 'HH:mm' gets ':00' seconds appended, 'HH:mm:ss' is kept; a single-digit
 * hour is padded. Throws RangeError for anything that is not a time of day.
 */
export function toApiTime(value: string): string {
  const text = typeof value === 'string' ? value.trim().replace(/^(\d):/, '0$1:') : '';
  const match = TIME_PATTERN.exec(text);
  if (!match) throw new RangeError(`Not a valid time of day: ${JSON.stringify(value)}`);
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
}

/** 'HH:mm' of an API time ('HH:mm:ss' or 'HH:mm'); throws RangeError when it is not a time. */
export function fromApiTime(value: string): string {
  return toApiTime(value).slice(0, 5);
}
