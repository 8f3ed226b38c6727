import { describe, expect, it } from 'vitest';
import { en, namespaces } from './en';
import { ar } from './ar';
import { changeLanguage, createI18n, flattenKeys, placeholders } from './i18n';

describe('catalogs', () => {
  it('English and Arabic have exactly the same key sets', () => {
    expect(flattenKeys(ar)).toEqual(flattenKeys(en));
  });

  it('every namespace is present in both', () => {
    expect(Object.keys(ar).sort()).toEqual([...namespaces].sort());
  });

  it('uses the same placeholders in both languages and no empty text', () => {
    const get = (tree: object, key: string): string =>
      key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], tree) as string;
    for (const key of flattenKeys(en)) {
      const english = get(en, key);
      const arabic = get(ar, key);
      expect(arabic.trim(), key).not.toBe('');
      expect(placeholders(arabic), key).toEqual(placeholders(english));
    }
  });

  it('flattenKeys flags non-string leaves', () => {
    expect(flattenKeys({ a: { b: 'x' }, c: 1 })).toEqual(['a.b', 'c<invalid>']);
  });

  it('leaves the spec texts that @fleet/core owns to core (no duplicates here)', () => {
    const english = flattenKeys(en).map((key) =>
      key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], en),
    );
    for (const coreText of [
      "Our servers are currently unreachable. We're working on it!",
      'No data found, please try selecting different date and time',
      'No location data available for this vehicle',
      'Your vehicle has been inactive for over a month.',
      '(optional)',
    ]) {
      expect(english).not.toContain(coreText);
    }
  });
});

describe('language helpers', () => {
  it('loads Arabic lazily and interpolates', async () => {
    const i18n = await createI18n('en-US');
    expect(i18n.hasResourceBundle('ar', 'common')).toBe(false);
    expect(i18n.t('common:deleteDialog.title', { entity: 'vehicle' })).toBe('Delete vehicle');
    await changeLanguage(i18n, 'ar');
    expect(i18n.language).toBe('ar');
    expect(i18n.t('common:deleteDialog.title', { entity: 'x' })).toBe('حذف x');
  });
});
