import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasArabicWord, t, translateFieldMessage } from './i18n';

const SCHEMAS = fileURLToPath(new URL('../../../../packages/api-client/src', import.meta.url));

/** The field labels the shared contract puts into its messages ('X is required', 'Please enter a valid X'). */
function contractLabels(): string[] {
  const labels = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name))
        for (const m of readFileSync(p, 'utf8').matchAll(
          /\b(?:requiredMessage|invalidMessage|fieldError|requiredField|dateTimeField|requiredString|optionalString)\('([^']+)'/g,
        ))
          labels.add(m[1]!);
    }
  };
  walk(SCHEMAS);
  return [...labels].sort();
}

describe('Arabic server messages', () => {
  it('have an Arabic word for every field label of the contract (none left in English)', () => {
    const labels = contractLabels();
    expect(labels.length).toBeGreaterThan(30);
    expect(labels.filter((l) => !hasArabicWord(l))).toEqual([]);
  });

  it('use the feminine sentence for feminine words', () => {
    expect(translateFieldMessage('ar', 'Password is required')).toBe('كلمة المرور مطلوبة');
    expect(translateFieldMessage('ar', 'Command is required')).toBe('الأمر مطلوب');
    expect(t('ar', 'validation.invalid', { field: 'Status' })).toBe('يرجى إدخال حالة صالحة');
  });
});
