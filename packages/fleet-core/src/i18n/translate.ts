import { ar } from './messages.ar';
import { en, type MessageKey } from './messages.en';
import { resolveLocale } from './locale';

export type MessageParams = Record<string, string | number>;

const catalogues: Record<'en-US' | 'ar', Record<MessageKey, string>> = { 'en-US': en, ar };

/** Replaces `{name}` placeholders; unknown placeholders are left as written. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** A core message in a locale (any tag; see resolveLocale). */
export function translate(
  locale: string | null | undefined,
  key: MessageKey,
  params?: MessageParams,
): string {
  return interpolate(catalogues[resolveLocale(locale)][key], params);
}

/** All core messages of a locale (for the portal's i18next resources). */
export function coreMessages(locale: string | null | undefined): Readonly<Record<MessageKey, string>> {
  return catalogues[resolveLocale(locale)];
}
