/**
 * The four review modes, declared once: the toolbar, the decorator, Chromatic and the Playwright
 * screenshot spec all read this list.
 */
export const modes = {
  'light-en': { theme: 'light', locale: 'en' },
  'dark-en': { theme: 'dark', locale: 'en' },
  'light-ar': { theme: 'light', locale: 'ar' },
  'dark-ar': { theme: 'dark', locale: 'ar' },
} as const;

export type ModeName = keyof typeof modes;
export const modeNames = Object.keys(modes) as ModeName[];
export const defaultMode: ModeName = 'light-en';

export function isModeName(value: unknown): value is ModeName {
  return typeof value === 'string' && value in modes;
}
