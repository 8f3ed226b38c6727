import { shellKeys, type AppShellLabels } from '../app-shell/app-shell-labels';
import { focusRing } from '../button';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export const appLanguages = ['en', 'ar'] as const;
export type AppLanguage = (typeof appLanguages)[number];
/** Each language named in itself (never translated), as language pickers do. */
export const languageNames: Record<AppLanguage, string> = { en: 'English', ar: 'العربية' };

export interface LanguageSwitcherProps {
  value: AppLanguage;
  onValueChange: (language: AppLanguage) => void;
  labels?: AppShellLabels;
  className?: string;
}

/** English / العربية as two toggle buttons (aria-pressed), each marked with its own lang. */
export function LanguageSwitcher({ value, onValueChange, labels, className }: LanguageSwitcherProps) {
  const l = useLabels(shellKeys, labels);
  return (
    <div
      role="group"
      aria-label={l.language}
      data-slot="language-switcher"
      className={cn('inline-flex rounded-md border border-border p-0.5', className)}
    >
      {appLanguages.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          aria-pressed={value === lang}
          data-state={value === lang ? 'on' : 'off'}
          onClick={() => value !== lang && onValueChange(lang)}
          className={cn(
            'h-8 rounded px-2.5 text-sm font-medium',
            value === lang ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-surface-sunken',
            focusRing,
          )}
        >
          {languageNames[lang]}
        </button>
      ))}
    </div>
  );
}

/* ------------------------------------------------------------------ breadcrumbs and page header */
