import { describe, expect, it } from 'vitest';
import {
  assertTimeZone,
  dateFormats,
  dayjsLocale,
  formatDate,
  fromApiTime,
  inZone,
  isValidTimeZone,
  parseInZone,
  toApiDate,
  toApiDateTime,
  toApiTime,
  toIsoInZone,
  type DateFormatName,
} from './dates';

// 2025-06-15 12:34:56 UTC, a Sunday.
const INSTANT = Date.UTC(2025, 5, 15, 12, 34, 56);
const DUBAI = { locale: 'en-US', timeZone: 'Asia/Dubai' };
const DUBAI_AR = { locale: 'ar', timeZone: 'Asia/Dubai' };

describe('formatDate: every format of spec section 9, en-US and ar, in the user zone', () => {
  const cases: [DateFormatName, string, string][] = [
    ['iso', '2025-06-15T16:34:56+04:00', '2025-06-15T16:34:56+04:00'],
    ['date', '2025-06-15', '2025-06-15'],
    ['dateTime', '2025-06-15 16:34:56', '2025-06-15 16:34:56'],
    ['dayMonthYear', '15/06/2025', '15/06/2025'],
    ['short', '15 Jun 2025', '15 يونيو 2025'],
    ['long', 'Sun 15 Jun 2025, 04:34 PM', 'أحد 15 يونيو 2025، 04:34 م'],
    ['time', '16:34', '16:34'],
    ['timeWithSeconds', '16:34:56', '16:34:56'],
    ['day', '15', '15'],
    ['dayMonth', '15 Jun', '15 يونيو'],
    ['monthYear', 'Jun 2025', 'يونيو 2025'],
  ];
  it.each(cases)('%s', (format, english, arabic) => {
    expect(formatDate(INSTANT, format, DUBAI)).toBe(english);
    expect(formatDate(new Date(INSTANT), format, DUBAI_AR)).toBe(arabic);
  });

  it('covers every declared format', () => {
    expect(cases.map(([name]) => name).sort()).toEqual(Object.keys(dateFormats).sort());
  });

  it.each<[string, unknown, string]>([
    ['API time without zone is UTC', '2025-06-15 12:34:56', '2025-06-15 08:34:56'],
    ['ISO with offset', '2025-06-15T12:34:56+04:00', '2025-06-15 04:34:56'],
    ['epoch ms', INSTANT, '2025-06-15 08:34:56'],
    ['DST winter', '2025-01-15 12:00:00', '2025-01-15 07:00:00'],
  ])('zone conversion: %s', (_name, value, expected) => {
    expect(formatDate(value as string, 'dateTime', { locale: 'en-US', timeZone: 'America/New_York' })).toBe(
      expected,
    );
  });

  it.each([null, undefined, '', '0001-01-01', '0001-01-01 00:00:00'])(
    'missing value %j -> empty',
    (value) => {
      expect(formatDate(value, 'short', DUBAI)).toBe('');
    },
  );

  it.each<[number, string, string]>([
    [Date.UTC(2025, 5, 15, 7, 59), '11:59 AM', '11:59 ص'],
    [Date.UTC(2025, 5, 15, 8, 30), '12:30 PM', '12:30 م'],
    [Date.UTC(2025, 5, 15, 20, 0), '12:00 AM', '12:00 ص'],
    [Date.UTC(2025, 5, 15, 9, 0), '01:00 PM', '01:00 م'],
  ])('meridiem around noon and midnight (%i)', (instant, english, arabic) => {
    expect(formatDate(instant, { pattern: 'hh:mm A' }, DUBAI)).toBe(english);
    expect(formatDate(instant, { pattern: 'hh:mm A' }, DUBAI_AR)).toBe(arabic);
  });

  it('accepts a custom pattern', () => {
    expect(formatDate(INSTANT, { pattern: 'YYYY' }, DUBAI)).toBe('2025');
  });

  it.each<[unknown, string, RegExp]>([
    ['not a date', 'Asia/Dubai', /Not a valid date: "not a date"/],
    [INSTANT, 'Mars/Olympus', /Unknown IANA time zone: "Mars\/Olympus"/],
    [INSTANT, '', /Unknown IANA time zone/],
  ])('throws a clear RangeError for %j in %s', (value, timeZone, message) => {
    expect(() => formatDate(value as string, 'short', { locale: 'en-US', timeZone })).toThrow(message);
    expect(() => formatDate(value as string, 'short', { locale: 'en-US', timeZone })).toThrow(RangeError);
  });
});

describe('zone helpers', () => {
  it.each<[string, boolean]>([
    ['Asia/Dubai', true],
    ['UTC', true],
    ['America/New_York', true],
    ['Nowhere/City', false],
    ['', false],
    ['   ', false],
  ])('isValidTimeZone(%j) = %s', (zone, valid) => {
    expect(isValidTimeZone(zone)).toBe(valid);
    if (valid) expect(() => assertTimeZone(zone)).not.toThrow();
    else expect(() => assertTimeZone(zone)).toThrow(RangeError);
  });

  it('isValidTimeZone rejects non-strings', () => {
    expect(isValidTimeZone(42 as unknown as string)).toBe(false);
  });

  it('dayjsLocale', () => {
    expect(dayjsLocale('ar-AE')).toBe('ar');
    expect(dayjsLocale('en-US')).toBe('en');
  });

  it('API conversions', () => {
    expect(toApiDateTime(INSTANT, 'Asia/Dubai')).toBe('2025-06-15 16:34:56');
    expect(toApiDate(Date.UTC(2025, 5, 15, 22), 'Asia/Dubai')).toBe('2025-06-16');
    expect(toIsoInZone(INSTANT, 'UTC')).toBe('2025-06-15T12:34:56+00:00');
    expect(inZone(INSTANT, 'Asia/Kolkata').format('HH:mm')).toBe('18:04');
  });
});

describe('parseInZone', () => {
  it.each<[string, string, string]>([
    ['2025-06-15', 'Asia/Dubai', '2025-06-14T20:00:00.000Z'],
    ['2025-06-15 08:30', 'Asia/Dubai', '2025-06-15T04:30:00.000Z'],
    ['2025-06-15 08:30:15', 'America/New_York', '2025-06-15T12:30:15.000Z'],
    ['15/06/2025', 'UTC', '2025-06-15T00:00:00.000Z'],
    [' 15/01/2025 23:00 ', 'America/New_York', '2025-01-16T04:00:00.000Z'],
  ])('%s in %s', (text, zone, iso) => {
    expect(parseInZone(text, zone).toISOString()).toBe(iso);
  });

  it.each(['2025-02-30', '31/31/2025', 'tomorrow', ''])('rejects %j', (text) => {
    expect(() => parseInZone(text, 'UTC')).toThrow(RangeError);
  });

  it('rejects a non-string and a bad zone', () => {
    expect(() => parseInZone(3 as unknown as string, 'UTC')).toThrow(RangeError);
    expect(() => parseInZone('2025-01-01', 'Bad/Zone')).toThrow(/Unknown IANA time zone/);
  });
});

describe('API times get ":00" appended', () => {
  it.each<[string, string, string]>([
    ['14:30', '14:30:00', '14:30'],
    ['00:00', '00:00:00', '00:00'],
    ['23:59', '23:59:00', '23:59'],
    ['7:05', '07:05:00', '07:05'],
    ['14:30:15', '14:30:15', '14:30'],
    [' 08:00 ', '08:00:00', '08:00'],
  ])('%j', (input, api, back) => {
    expect(toApiTime(input)).toBe(api);
    expect(fromApiTime(api)).toBe(back);
  });

  it.each(['24:00', '12:60', '12:30:60', '1230', '', 'noon', '12:3'])('rejects %j', (input) => {
    expect(() => toApiTime(input)).toThrow(RangeError);
  });

  it('rejects a non-string', () => {
    expect(() => toApiTime(null as unknown as string)).toThrow(/Not a valid time of day: null/);
  });
});
