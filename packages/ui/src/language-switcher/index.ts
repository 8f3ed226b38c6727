export { LanguageSwitcher, appLanguages, languageNames } from './language-switcher';
export type { AppLanguage, LanguageSwitcherProps } from './language-switcher';
