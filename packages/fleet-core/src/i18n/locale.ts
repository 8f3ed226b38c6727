/** The product's languages: English (en-US, default) and Arabic. */
export const locales = ['en-US', 'ar'] as const;
export type Locale = (typeof locales)[number];
/** Values sent in the X-Locale header. */
export type ApiLocale = 'en' | 'ar';

/**
 * Normalises any language tag to a supported locale: tags starting with 'ar' (ar, ar-AE, AR_sa ...)
 * are Arabic, anything else (including empty or unknown) is the default en-US.
 */
export function resolveLocale(tag: string | null | undefined): Locale {
  return /^ar(?:[-_]|$)/i.test((tag ?? '').trim()) ? 'ar' : 'en-US';
}

/** The X-Locale header value of a locale. */
export function apiLocale(locale: string | null | undefined): ApiLocale {
  return resolveLocale(locale) === 'ar' ? 'ar' : 'en';
}

/** True for right-to-left locales. */
export function isRtl(locale: string | null | undefined): boolean {
  return resolveLocale(locale) === 'ar';
}

/** `dir` attribute value of a locale. */
export function textDirection(locale: string | null | undefined): 'rtl' | 'ltr' {
  return isRtl(locale) ? 'rtl' : 'ltr';
}

/**
 * The BCP 47 tag every Intl formatter of the product uses for a locale. Arabic is written with Latin
 * digits everywhere (dates, times, speeds, counts; plates and IMEIs already are, and dayjs in core
 * keeps them too), so the numbering system is pinned rather than left to the browser: CLDR's default
 * for plain `ar` was Arabic-Indic until version 48 and is Latin since, so the same page would read
 * "١٢" in one browser and "12" in another, and mix both beside core's dayjs output.
 */
export function intlLocale(locale: string | null | undefined): string {
  return resolveLocale(locale) === 'ar' ? 'ar-u-nu-latn' : 'en-US';
}
