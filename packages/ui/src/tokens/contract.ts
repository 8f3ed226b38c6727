import { createGlobalThemeContract } from '@vanilla-extract/css';
import { palette, type PaletteName } from './palette';
import { semanticColorNames, type SemanticColorName } from './semantic';
import { font, radius, space } from './scales';
import { toKebab } from './kebab';

function keysToNull<K extends string>(keys: readonly K[]): Record<K, null> {
  return Object.fromEntries(keys.map((k) => [k, null])) as Record<K, null>;
}

const shape = {
  palette: keysToNull(Object.keys(palette) as PaletteName[]),
  color: keysToNull(semanticColorNames),
  radius: keysToNull(Object.keys(radius) as (keyof typeof radius)[]),
  space: keysToNull(Object.keys(space) as (keyof typeof space)[]),
  font: keysToNull(Object.keys(font) as (keyof typeof font)[]),
};

/** CSS variable name (without the leading dashes) for a token path, e.g. ['color','surfaceRaised']. */
export function tokenVariableName(path: readonly string[]): string {
  return ['fl', ...path.map(toKebab)].join('-');
}

/**
 * The typed token contract. `vars.color.toneLive` is `var(--fl-color-tone-live)`; charts and
 * Leaflet layers read these instead of raw colours. Stable names: renaming one is a breaking change.
 */
export const vars = createGlobalThemeContract(shape, (_value, path) => tokenVariableName(path));

export type Vars = typeof vars;
export type { SemanticColorName };
