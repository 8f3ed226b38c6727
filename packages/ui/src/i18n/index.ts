export { messagesFor, messagesEn, messagesAr, type UiMessages } from './messages';
export type { MessageKey } from './messages.en';
export { normalizeLocale, directionOf, format, uiLocales, type UiLocale, type Direction } from './locale';
