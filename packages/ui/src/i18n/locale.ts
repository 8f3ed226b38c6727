export const uiLocales = ['en', 'ar'] as const;
export type UiLocale = (typeof uiLocales)[number];
export type Direction = 'ltr' | 'rtl';

/**
 * Normalises a BCP 47 tag to a kit language: 'en', 'en-US', 'en-GB' -> 'en'; 'ar', 'ar-AE' -> 'ar'.
 * Throws a clear error for an unsupported or empty tag instead of silently falling back.
 */
export function normalizeLocale(tag: string): UiLocale {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (base === 'en' || base === 'ar') return base;
  throw new Error(`Unsupported locale "${tag}": @fleet/ui supports en (en-US) and ar`);
}

/** Arabic is right-to-left; English left-to-right. */
export function directionOf(locale: UiLocale): Direction {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/** Substitutes {name} placeholders; unknown placeholders are kept so a missing value is visible. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
