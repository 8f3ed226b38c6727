import { messagesFor, normalizeLocale, type UiMessages, type UiLocale } from '../i18n';

/**
 * Story helper (not exported from the package): the kit language a story is rendered in, read from
 * the nearest `lang` (set by UiProvider per Storybook mode), so play functions can find buttons by
 * their translated names in every mode.
 */
export function storyLocale(element: Element): UiLocale {
  return normalizeLocale(element.closest('[lang]')?.getAttribute('lang') || 'en');
}

export function storyMessages(element: Element): UiMessages {
  return messagesFor(storyLocale(element));
}
