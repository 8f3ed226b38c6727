import { describe, expect, it } from 'vitest';
import { keepChosen } from './keep-chosen';

const a = { uuid: 'a' };
const b = { uuid: 'b' };
const c = { uuid: 'c' };

describe('keepChosen', () => {
  it('adds the chosen vehicle when its status left the open tab', () => {
    expect(keepChosen([a], [a, b, c], 'b')).toEqual([a, b]);
  });

  it('returns the same array when the chosen one is already shown, none is chosen or it is unknown', () => {
    const visible = [a, b];
    expect(keepChosen(visible, [a, b, c], 'b')).toBe(visible);
    expect(keepChosen(visible, [a, b, c], null)).toBe(visible);
    expect(keepChosen(visible, [a, b], 'gone')).toBe(visible);
  });
});
