import { storageKeys } from '@fleet/core';
import { GlobeIcon } from './kit';
import { useTranslation } from 'react-i18next';
import { changeLanguage, languages, type Language } from '../i18n/i18n';
import { useServices } from '../state/app-context';
import { SelectInput } from './local-ui';

/** Language picker: saves the choice (spec §1) and switches the UI (direction follows). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const { storage } = useServices();
  const onChange = (language: Language) => {
    storage.setItem(storageKeys.locale, language);
    void changeLanguage(i18n, language);
  };
  return (
    <label className={`flex items-center gap-1 ${className ?? ''}`}>
      <GlobeIcon className="size-4 text-foreground-muted" aria-hidden="true" />
      <span className="sr-only">{t('language.label')}</span>
      <SelectInput
        data-testid="language-switch"
        className="h-8 w-auto py-0"
        value={i18n.language}
        onChange={(event) => onChange(event.target.value as Language)}
      >
        {languages.map((language) => (
          <option key={language} value={language}>
            {t(language === 'ar' ? 'language.ar' : 'language.en')}
          </option>
        ))}
      </SelectInput>
    </label>
  );
}
