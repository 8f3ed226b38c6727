import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tokenVariableName, vars } from './contract';
import { darkColors, lightColors, semanticColorNames } from './semantic';
import { palette } from './palette';
import { toKebab } from './kebab';

const tailwindCss = readFileSync(new URL('../tailwind.css', import.meta.url), 'utf8');

/** Every `--color-x: var(--fl-color-y)` line inside @theme inline. */
function mappedColors(css: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of css.matchAll(/--color-([a-z0-9-]+):\s*var\(--fl-color-([a-z0-9-]+)\)/g))
    out.set(m[1]!, m[2]!);
  return out;
}

describe('tailwind mapping', () => {
  const mapped = mappedColors(tailwindCss);
  it.each(semanticColorNames.map((n) => [n]))('maps %s to its --fl-color variable', (name) => {
    const kebab = toKebab(name);
    expect(mapped.get(kebab), `--color-${kebab} missing from tailwind.css @theme inline`).toBe(kebab);
  });
  it('maps nothing that is not a token', () => {
    const known = new Set(semanticColorNames.map(toKebab));
    expect([...mapped.keys()].filter((k) => !known.has(k))).toEqual([]);
  });
  it('declares the colours inside @theme inline', () => {
    expect(tailwindCss).toMatch(/@theme inline\s*{[\s\S]*--color-surface:/);
  });
});

describe('token contract', () => {
  it.each([
    [['color', 'surfaceRaised'], 'fl-color-surface-raised'],
    [['color', 'toneNoDataSoft'], 'fl-color-tone-no-data-soft'],
    [['palette', 'slate500'], 'fl-palette-slate-500'],
    [['space', '4'], 'fl-space-4'],
    [['font', 'sans'], 'fl-font-sans'],
  ])('names %j as %s', (path, expected) => {
    expect(tokenVariableName(path)).toBe(expected);
  });
  it('exposes typed vars as CSS variable references', () => {
    expect(vars.color.toneLive).toBe('var(--fl-color-tone-live)');
    expect(vars.color.toneLiveSoft).toBe('var(--fl-color-tone-live-soft)');
    expect(vars.palette.blue700).toBe('var(--fl-palette-blue-700)');
  });
  it('has a Soft variant for every tone', () => {
    const tones = semanticColorNames.filter((n) => n.startsWith('tone') && !n.endsWith('Soft'));
    expect(tones.length).toBe(7);
    for (const t of tones) expect(semanticColorNames).toContain(`${t}Soft`);
  });
  it.each([
    ['light', lightColors],
    ['dark', darkColors],
  ] as const)('%s theme sets every semantic colour from the palette', (_name, theme) => {
    expect(Object.keys(theme).sort()).toEqual([...semanticColorNames].sort());
    for (const value of Object.values(theme)) {
      if (typeof value === 'string') expect(palette).toHaveProperty(value);
      else expect(value.raw).toMatch(/^rgb\(/);
    }
  });
});
