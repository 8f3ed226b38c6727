import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { locales, type Locale } from '@fleet/core';
import { en, namespaces, type Resources } from './en';

/** The product's languages and their normalisation come from @fleet/core (en-US default, Arabic). */
export type Language = Locale;
export const languages = locales;
export const defaultLanguage: Language = 'en-US';

/** Loads the Arabic catalog as its own chunk; English is in the main bundle. */
export async function loadCatalog(language: Language): Promise<Resources> {
  if (language === 'en-US') return en;
  const mod = await import('./ar');
  return mod.ar;
}

/** Adds a catalog to an instance unless it is already there. */
export async function ensureLanguage(instance: I18n, language: Language): Promise<void> {
  if (instance.hasResourceBundle(language, 'common')) return;
  const catalog = await loadCatalog(language);
  for (const ns of namespaces) instance.addResourceBundle(language, ns, catalog[ns], true, true);
}

/** One i18next instance with English bundled; call {@link changeLanguage} to switch (loads Arabic). */
export async function createI18n(language: Language): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: 'en-US',
    fallbackLng: 'en-US',
    supportedLngs: [...languages],
    ns: namespaces,
    defaultNS: 'common',
    resources: { 'en-US': en },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (language !== 'en-US') await changeLanguage(instance, language);
  return instance;
}

export async function changeLanguage(instance: I18n, language: Language): Promise<void> {
  await ensureLanguage(instance, language);
  await instance.changeLanguage(language);
}

/** Flattens a catalog to dotted keys `ns:feature.element.state` (for the en/ar parity test). */
export function flattenKeys(tree: object, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') keys.push(key);
    else if (v && typeof v === 'object') keys.push(...flattenKeys(v as object, key));
    else keys.push(`${key}<invalid>`);
  }
  return keys.sort();
}

/** The `{{name}}` placeholders of one message, sorted (both languages must use the same ones). */
export function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}
