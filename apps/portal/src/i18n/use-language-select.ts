import type { ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { storageKeys } from '@fleet/core';
import type { NativeSelectProps } from '@fleet/ui';
import { useServices } from '../state/app-context';
import { changeLanguage, languages, type Language } from './i18n';

/**
 * Props for the kit's NativeSelect as the language picker: the choice is saved (spec §1) and the UI
 * switches (direction follows). A native select rather than the kit's LanguageSwitcher buttons: its
 * values are the portal's locale codes (en-US, ar) and browser tests pick a language with
 * `selectOption`.
 */
export function useLanguageSelect(): NativeSelectProps & { 'data-testid': string } {
  const { t, i18n } = useTranslation('common');
  const { storage } = useServices();
  const queries = useQueryClient();
  return {
    'aria-label': t('language.label'),
    size: 'sm',
    value: i18n.language,
    options: languages.map((language) => ({
      value: language,
      label: t(language === 'ar' ? 'language.ar' : 'language.en'),
    })),
    onChange: (event: ChangeEvent<HTMLSelectElement>) => {
      const language = event.target.value as Language;
      storage.setItem(storageKeys.locale, language);
      // Refetch what is on screen once the language is switched: the server words some of it (alert
      // notifications, errors) in the X-Locale of the request, and learns the user's new language.
      void changeLanguage(i18n, language).then(() => queries.invalidateQueries());
    },
    'data-testid': 'language-switch',
  };
}
