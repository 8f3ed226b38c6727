import { describe, expect, it } from 'vitest';
import {
  formatJalaliDate,
  gregorianToJalali,
  isJalaliLeapYear,
  JALALI_MAX_YEAR,
  JALALI_MIN_YEAR,
  jalaliMonthLength,
  jalaliInZone,
  jalaliMonthNames,
  jalaliToGregorian,
  type CalendarDate,
} from './jalali';

describe('Jalali conversion', () => {
  it.each<[CalendarDate, CalendarDate]>([
    [
      { year: 1799, month: 3, day: 21 },
      { year: 1178, month: 1, day: 1 },
    ],
    [
      { year: 1921, month: 3, day: 21 },
      { year: 1300, month: 1, day: 1 },
    ],
    [
      { year: 1979, month: 2, day: 11 },
      { year: 1357, month: 11, day: 22 },
    ],
    [
      { year: 2024, month: 3, day: 19 },
      { year: 1402, month: 12, day: 29 },
    ],
    [
      { year: 2024, month: 3, day: 20 },
      { year: 1403, month: 1, day: 1 },
    ],
    [
      { year: 2025, month: 3, day: 20 },
      { year: 1403, month: 12, day: 30 },
    ],
    [
      { year: 2025, month: 3, day: 21 },
      { year: 1404, month: 1, day: 1 },
    ],
    [
      { year: 2025, month: 9, day: 22 },
      { year: 1404, month: 6, day: 31 },
    ],
    [
      { year: 2025, month: 9, day: 23 },
      { year: 1404, month: 7, day: 1 },
    ],
    [
      { year: 2000, month: 2, day: 29 },
      { year: 1378, month: 12, day: 10 },
    ],
    [
      { year: 2123, month: 3, day: 20 },
      { year: 1501, month: 12, day: 29 },
    ],
  ])('%j <-> %j', (gregorian, jalali) => {
    expect(gregorianToJalali(gregorian)).toEqual(jalali);
    expect(jalaliToGregorian(jalali)).toEqual(gregorian);
  });

  it('takes a Date by its UTC day', () => {
    expect(gregorianToJalali(new Date(Date.UTC(2024, 2, 20, 23, 59)))).toEqual({
      year: 1403,
      month: 1,
      day: 1,
    });
  });

  it('agrees with the runtime Persian calendar (ICU) over the whole supported range', () => {
    const intl = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    const start = Date.UTC(1799, 2, 21);
    const end = Date.UTC(2123, 2, 20);
    for (let t = start; t <= end; t += 7 * 86_400_000) {
      const parts = Object.fromEntries(intl.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
      const expected = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
      const actual = gregorianToJalali(new Date(t));
      if (actual.year !== expected.year || actual.month !== expected.month || actual.day !== expected.day) {
        throw new Error(
          `${new Date(t).toISOString()}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`,
        );
      }
      const back = jalaliToGregorian(actual);
      expect(Date.UTC(back.year, back.month - 1, back.day)).toBe(t);
    }
  });

  it.each<[CalendarDate | Date, RegExp]>([
    [
      { year: 1799, month: 3, day: 20 },
      /supports Jalali years 1178-1501 \(Gregorian 1799-03-21 to 2123-03-20\)/,
    ],
    [{ year: 2123, month: 3, day: 21 }, /supports Jalali years 1178-1501/],
    [new Date(Date.UTC(1500, 0, 1)), /supports Jalali years/],
    [{ year: 2024, month: 2, day: 30 }, /Not a valid Gregorian date: 2024-2-30/],
    [{ year: 2024, month: 13, day: 1 }, /Not a valid Gregorian date/],
    [{ year: 2024.5, month: 1, day: 1 }, /year must be an integer/],
    [new Date('invalid'), /Not a valid date/],
  ])('gregorianToJalali(%j) throws', (input, message) => {
    expect(() => gregorianToJalali(input)).toThrow(message);
    expect(() => gregorianToJalali(input)).toThrow(RangeError);
  });

  it.each<[CalendarDate, RegExp]>([
    [{ year: 1177, month: 12, day: 29 }, /got year 1177/],
    [{ year: 1502, month: 1, day: 1 }, /got year 1502/],
    [{ year: 1403, month: 0, day: 1 }, /Not a valid Jalali date: 1403\/0\/1/],
    [{ year: 1403, month: 13, day: 1 }, /Not a valid Jalali date/],
    [{ year: 1403, month: 7, day: 31 }, /Not a valid Jalali date/],
    [{ year: 1402, month: 12, day: 30 }, /Not a valid Jalali date/],
    [{ year: 1403, month: 1, day: 0 }, /Not a valid Jalali date/],
    [{ year: 1403, month: 1.5, day: 1 }, /month must be an integer/],
    [{ year: 1403, month: 1, day: NaN }, /day must be an integer/],
  ])('jalaliToGregorian(%j) throws', (input, message) => {
    expect(() => jalaliToGregorian(input)).toThrow(message);
  });

  it.each<[number, boolean]>([
    [1399, true],
    [1400, false],
    [1403, true],
    [1404, false],
    [1408, true],
    [JALALI_MAX_YEAR, false],
    [1502, true],
    [JALALI_MIN_YEAR, false],
  ])('leap year %i = %s', (year, leap) => {
    expect(isJalaliLeapYear(year)).toBe(leap);
    expect(jalaliMonthLength(year, 12)).toBe(leap ? 30 : 29);
  });

  it('month lengths, names and formatting', () => {
    expect([1, 6, 7, 11].map((m) => jalaliMonthLength(1403, m))).toEqual([31, 31, 30, 30]);
    expect(jalaliMonthNames.en).toHaveLength(12);
    expect(jalaliMonthNames.ar).toHaveLength(12);
    expect(formatJalaliDate({ year: 1404, month: 1, day: 5 })).toBe('1404/01/05');
  });
});

describe('jalaliInZone', () => {
  it('uses the calendar day of the zone', () => {
    const instant = Date.UTC(2024, 2, 19, 21, 0); // 2024-03-20 00:30 in Tehran (+03:30)
    expect(jalaliInZone(instant, 'Asia/Tehran')).toEqual({ year: 1403, month: 1, day: 1 });
    expect(jalaliInZone(instant, 'UTC')).toEqual({ year: 1402, month: 12, day: 29 });
    expect(() => jalaliInZone(instant, 'No/Zone')).toThrow(RangeError);
  });
});
