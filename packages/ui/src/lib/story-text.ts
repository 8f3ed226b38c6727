import { format, messagesFor, normalizeLocale, type UiMessages } from '../i18n';

/**
 * Kit strings of the language the story is rendered in (UiProvider mirrors lang to <html>), so a
 * play function finds "Delete" in English and "حذف" in Arabic. For stories and tests only.
 */
export function storyText(): UiMessages & {
  f: (key: keyof UiMessages, values: Record<string, string | number>) => string;
} {
  const messages = messagesFor(normalizeLocale(document.documentElement.lang || 'en'));
  return { ...messages, f: (key, values) => format(messages[key], values) };
}
