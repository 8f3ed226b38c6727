import { translate, type MessageKey, type MessageParams } from '@fleet/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Texts owned by @fleet/core (validation, API errors, push, status names, the spec's fixed sentences)
 * in the current language. The portal never re-words them; it only picks the language.
 */
export function useCoreText(): (key: MessageKey, params?: MessageParams) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback((key, params) => translate(language, key, params), [language]);
}
