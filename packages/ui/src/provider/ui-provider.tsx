import '../tokens/theme.css';
import { DirectionProvider } from '@radix-ui/react-direction';
import { createContext, useContext, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { messagesFor, type UiMessages } from '../i18n/messages';
import { directionOf, normalizeLocale, type Direction, type UiLocale } from '../i18n/locale';

export const uiThemes = ['light', 'dark'] as const;
export type UiTheme = (typeof uiThemes)[number];

export interface UiContextValue {
  /** Normalised kit language: 'en' or 'ar'. */
  locale: UiLocale;
  /** The locale exactly as given (e.g. 'en-US'), for Intl formatting. */
  localeTag: string;
  dir: Direction;
  theme: UiTheme;
  messages: UiMessages;
}

const defaultValue: UiContextValue = {
  locale: 'en',
  localeTag: 'en-US',
  dir: 'ltr',
  theme: 'light',
  messages: messagesFor('en'),
};

const UiContext = createContext<UiContextValue>(defaultValue);

export interface UiProviderProps {
  /** 'en', 'en-US' (the product default) or 'ar'. Anything else is rejected with a clear error. */
  locale?: string;
  theme?: UiTheme;
  /**
   * Mirror lang, dir and data-theme onto <html> so portals (dialogs, toasts, popovers) rendered
   * outside this subtree inherit them. On by default; turn off for nested providers.
   */
  syncDocument?: boolean;
  className?: string;
  children?: ReactNode;
}

/**
 * The one root for direction, language and theme: wraps Radix DirectionProvider (so Tabs,
 * Select, RadioGroup ... reverse their arrow keys in RTL), and renders a wrapper carrying
 * lang, dir and data-theme.
 */
export function UiProvider({
  locale = 'en-US',
  theme = 'light',
  syncDocument = true,
  className,
  children,
}: UiProviderProps) {
  const value = useMemo<UiContextValue>(() => {
    const normalised = normalizeLocale(locale);
    return {
      locale: normalised,
      localeTag: locale,
      dir: directionOf(normalised),
      theme,
      messages: messagesFor(normalised),
    };
  }, [locale, theme]);

  useLayoutEffect(() => {
    if (!syncDocument || typeof document === 'undefined') return;
    const html = document.documentElement;
    const previous = { lang: html.lang, dir: html.dir, theme: html.getAttribute('data-theme') };
    html.lang = value.locale;
    html.dir = value.dir;
    html.setAttribute('data-theme', value.theme);
    return () => {
      html.lang = previous.lang;
      html.dir = previous.dir;
      if (previous.theme === null) html.removeAttribute('data-theme');
      else html.setAttribute('data-theme', previous.theme);
    };
  }, [syncDocument, value.locale, value.dir, value.theme]);

  return (
    <UiContext.Provider value={value}>
      <DirectionProvider dir={value.dir}>
        <div
          data-slot="ui-root"
          lang={value.locale}
          dir={value.dir}
          data-theme={value.theme}
          className={className}
        >
          {children}
        </div>
      </DirectionProvider>
    </UiContext.Provider>
  );
}

/** Current locale, direction, theme and kit messages. Works without a provider (English, LTR, light). */
export function useUi(): UiContextValue {
  return useContext(UiContext);
}

/** Kit messages merged with a component's `labels` override. */
export function useLabels<K extends keyof UiMessages>(
  keys: readonly K[],
  labels?: Partial<Pick<UiMessages, K>>,
): Pick<UiMessages, K> {
  const { messages } = useUi();
  const out = {} as Pick<UiMessages, K>;
  for (const key of keys) out[key] = labels?.[key] ?? messages[key];
  return out;
}
