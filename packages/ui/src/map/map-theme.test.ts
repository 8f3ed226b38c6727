import { describe, expect, it } from 'vitest';
import { cssVariableOf } from './map-theme';
import { vars } from '../tokens/contract';

describe('cssVariableOf', () => {
  it.each([
    [vars.color.toneLive, '--fl-color-tone-live'],
    [vars.color.toneNoData, '--fl-color-tone-no-data'],
    [vars.color.toneViolation, '--fl-color-tone-violation'],
    [' var(--fl-color-primary) ', '--fl-color-primary'],
  ])('%s -> %s', (ref, name) => {
    expect(cssVariableOf(ref)).toBe(name);
  });
  it('rejects a raw colour', () => {
    expect(() => cssVariableOf('red')).toThrow('Not a CSS variable reference');
  });
});
