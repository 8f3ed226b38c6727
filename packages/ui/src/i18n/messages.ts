import { ar } from './messages.ar';
import { en, type MessageKey } from './messages.en';
import type { UiLocale } from './locale';

export type UiMessages = Record<MessageKey, string>;

const bundles: Record<UiLocale, UiMessages> = { en, ar };

export function messagesFor(locale: UiLocale): UiMessages {
  return bundles[locale];
}

export { en as messagesEn, ar as messagesAr };
