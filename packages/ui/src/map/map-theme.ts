/**
 * Canvas colours for the map, read at runtime from the design tokens (`--fl-color-*` custom
 * properties) on the map container, so light/dark and any re-theme reach the canvas too. No colour
 * literal lives in the map components; if a variable is missing the element's own text colour is used.
 */
// The index (not just the contract) so the token stylesheet the canvas reads is always loaded.
import { vars } from '../tokens';
import type { MarkerTone } from './vehicle-index';

export interface MapTheme {
  tones: Record<MarkerTone, string>;
  violation: string;
  primary: string;
  primaryForeground: string;
  primarySoft: string;
  background: string;
  surface: string;
  surfaceSunken: string;
  foreground: string;
  foregroundMuted: string;
  border: string;
  borderStrong: string;
  focusRing: string;
  warning: string;
  warningSoft: string;
  danger: string;
}

/** `var(--fl-color-tone-live)` -> `--fl-color-tone-live`. */
export function cssVariableOf(reference: string): string {
  const match = /^var\((--[\w-]+)\)$/.exec(reference.trim());
  if (!match) throw new Error(`Not a CSS variable reference: ${reference}`);
  return match[1]!;
}

const c = vars.color;
const toneRefs: Record<MarkerTone, string> = {
  live: c.toneLive,
  idle: c.toneIdle,
  offline: c.toneOffline,
  inactive: c.toneInactive,
  noData: c.toneNoData,
  neutral: c.toneNeutral,
};

/** Resolves every map colour from the computed style of `element`. */
export function readMapTheme(element: Element): MapTheme {
  const style = getComputedStyle(element);
  const fallback = style.color;
  const read = (ref: string) => style.getPropertyValue(cssVariableOf(ref)).trim() || fallback;
  const tones = {} as Record<MarkerTone, string>;
  for (const [tone, ref] of Object.entries(toneRefs) as [MarkerTone, string][]) tones[tone] = read(ref);
  return {
    tones,
    violation: read(c.toneViolation),
    primary: read(c.primary),
    primaryForeground: read(c.primaryForeground),
    primarySoft: read(c.primarySoft),
    background: read(c.background),
    surface: read(c.surface),
    surfaceSunken: read(c.surfaceSunken),
    foreground: read(c.foreground),
    foregroundMuted: read(c.foregroundMuted),
    border: read(c.border),
    borderStrong: read(c.borderStrong),
    focusRing: read(c.focusRing),
    warning: read(c.warning),
    warningSoft: read(c.warningSoft),
    danger: read(c.danger),
  };
}
