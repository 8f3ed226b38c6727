import { createGlobalTheme, globalStyle } from '@vanilla-extract/css';
import { vars } from './contract';
import { palette } from './palette';
import { darkColors, lightColors, type SemanticColorName, type SemanticValue } from './semantic';
import { font, radius, space } from './scales';

function resolve(map: Record<SemanticColorName, SemanticValue>): Record<SemanticColorName, string> {
  const out = {} as Record<SemanticColorName, string>;
  for (const [name, value] of Object.entries(map) as [SemanticColorName, SemanticValue][]) {
    // Semantic colours point at the palette variables, so a palette change flows through.
    out[name] = typeof value === 'string' ? vars.palette[value] : value.raw;
  }
  return out;
}

// Tier 1 and the scales: theme independent.
createGlobalTheme(':root', vars.palette, palette);
createGlobalTheme(':root', vars.radius, radius);
createGlobalTheme(':root', vars.space, space);
createGlobalTheme(':root', vars.font, font);

// Tier 2: light by default and wherever a subtree asks for light again; dark by attribute or class.
createGlobalTheme(':root, [data-theme="light"], .light', vars.color, resolve(lightColors));
createGlobalTheme('[data-theme="dark"], .dark', vars.color, resolve(darkColors));

globalStyle('[data-theme="dark"], .dark', { colorScheme: 'dark' });
globalStyle(':root, [data-theme="light"], .light', { colorScheme: 'light' });
