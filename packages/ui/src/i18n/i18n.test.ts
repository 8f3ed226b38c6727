import { describe, expect, it } from 'vitest';
import { messagesAr, messagesEn } from './messages';
import { directionOf, format, normalizeLocale } from './locale';

describe('normalizeLocale', () => {
  it.each([
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN_gb', 'en'],
    ['ar', 'ar'],
    ['ar-AE', 'ar'],
  ] as const)('%s -> %s', (tag, expected) => {
    expect(normalizeLocale(tag)).toBe(expected);
  });
  it.each(['fr', '', 'x-ar'])('rejects %j with a clear error', (tag) => {
    expect(() => normalizeLocale(tag)).toThrow(/Unsupported locale/);
  });
});

describe('direction and messages', () => {
  it('Arabic is RTL, English LTR', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('en')).toBe('ltr');
  });
  it('has the same keys and placeholders in both languages', () => {
    expect(Object.keys(messagesAr).sort()).toEqual(Object.keys(messagesEn).sort());
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(messagesEn) as (keyof typeof messagesEn)[]) {
      expect(placeholders(messagesAr[key]), key).toEqual(placeholders(messagesEn[key]));
    }
  });
  it('keeps the spec texts verbatim', () => {
    expect(messagesEn.optional).toBe('(optional)');
    expect(messagesEn.serverUnreachable).toBe("Our servers are currently unreachable. We're working on it!");
    expect(format(messagesEn.serverRetrying, { countdown: 7 })).toBe(
      'Automatically retrying in 7 seconds...',
    );
  });
  it.each([
    ['{a} and {b}', { a: 1, b: 'x' }, '1 and x'],
    ['{a} and {missing}', { a: 1 }, '1 and {missing}'],
    ['none', {}, 'none'],
  ] as const)('format(%j)', (template, values, expected) => {
    expect(format(template, values)).toBe(expected);
  });
});
