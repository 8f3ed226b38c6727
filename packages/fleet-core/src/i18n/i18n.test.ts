import { describe, expect, it } from 'vitest';
import { apiLocale, intlLocale, isRtl, resolveLocale, textDirection } from './locale';
import { ar } from './messages.ar';
import { en } from './messages.en';
import { coreMessages, interpolate, translate } from './translate';

describe('locale', () => {
  it.each<[string | null | undefined, 'en-US' | 'ar', 'en' | 'ar', boolean]>([
    ['en-US', 'en-US', 'en', false],
    ['en', 'en-US', 'en', false],
    ['ar', 'ar', 'ar', true],
    ['ar-AE', 'ar', 'ar', true],
    ['AR_sa', 'ar', 'ar', true],
    ['arn', 'en-US', 'en', false],
    ['fr', 'en-US', 'en', false],
    ['', 'en-US', 'en', false],
    [null, 'en-US', 'en', false],
    [undefined, 'en-US', 'en', false],
  ])('%j', (tag, locale, api, rtl) => {
    expect(resolveLocale(tag)).toBe(locale);
    expect(apiLocale(tag)).toBe(api);
    expect(isRtl(tag)).toBe(rtl);
    expect(textDirection(tag)).toBe(rtl ? 'rtl' : 'ltr');
  });

  it('Intl formatters write Arabic with Latin digits, whatever the runtime CLDR defaults to', () => {
    expect(intlLocale('ar')).toBe('ar-u-nu-latn');
    expect(intlLocale('en')).toBe('en-US');
    const day = new Date(Date.UTC(2026, 10, 27));
    const text = new Intl.DateTimeFormat(intlLocale('ar'), { dateStyle: 'long', timeZone: 'UTC' }).format(
      day,
    );
    expect(text).toContain('27');
    expect(text).toContain('2026');
    expect(text).not.toMatch(/[\u0660-\u0669]/);
    expect(new Intl.NumberFormat(intlLocale('ar-AE')).format(1234.5)).toBe('1,234.5');
    // The pinned tag, not the runtime default, decides: asking for Arabic-Indic digits explicitly
    // gives them, so the Latin result above is the tag's doing.
    expect(new Intl.NumberFormat('ar-u-nu-arab').format(12)).toBe('١٢');
  });
});

describe('messages', () => {
  it('Arabic has exactly the English keys, every value translated and with the same placeholders', () => {
    expect(Object.keys(ar).sort()).toEqual(Object.keys(en).sort());
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(ar[key]), key).toEqual(placeholders(en[key]));
      expect(ar[key].length, key).toBeGreaterThan(0);
    }
  });

  it.each<[string, Parameters<typeof translate>[1], Record<string, string | number> | undefined, string]>([
    ['en-US', 'validation.required', { field: 'Email' }, 'Email is required'],
    ['ar', 'validation.required', { field: 'البريد الإلكتروني' }, 'البريد الإلكتروني مطلوب'],
    ['en', 'validation.invalid', { field: 'email' }, 'Please enter a valid email'],
    ['en-US', 'validation.alreadyAssigned', { entity: 'driver' }, 'This driver is already assigned'],
    ['en-US', 'error.retryingIn', { countdown: 10 }, 'Automatically retrying in 10 seconds...'],
    ['en-US', 'status.inactiveMessage', undefined, 'Your vehicle has been inactive for over a month.'],
    ['ar', 'validation.optional', undefined, '(اختياري)'],
  ])('%s %s', (locale, key, params, expected) => {
    expect(translate(locale, key, params)).toBe(expected);
  });

  it('interpolate leaves unknown placeholders', () => {
    expect(interpolate('{a} {b}', { a: 1 })).toBe('1 {b}');
    expect(interpolate('{a}')).toBe('{a}');
  });

  it('coreMessages returns the catalogue of a locale', () => {
    expect(coreMessages('ar')).toBe(ar);
    expect(coreMessages('en-US')).toBe(en);
  });
});
