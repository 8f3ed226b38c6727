import { describe, expect, it } from 'vitest';
import { digitsOf, fillCells, secondsLeft } from './otp-logic';

describe('digitsOf', () => {
  it.each([
    ['123456', 6, ['1', '2', '3', '4', '5', '6']],
    ['123-456', 6, ['1', '2', '3', '4', '5', '6']],
    [' 1 2 3 ', 6, ['1', '2', '3']],
    ['12345678', 6, ['1', '2', '3', '4', '5', '6']],
    ['abc', 6, []],
    ['١٢٣', 6, []],
  ])('%j (%i) -> %j', (text, length, expected) => {
    expect(digitsOf(text, length)).toEqual(expected);
  });
});

describe('fillCells', () => {
  const empty = ['', '', '', '', '', ''];
  it.each([
    [empty, 0, '7', ['7', '', '', '', '', ''], 1],
    [empty, 0, '123456', ['1', '2', '3', '4', '5', '6'], 5],
    [empty, 2, '999999', ['', '', '9', '9', '9', '9'], 5],
    [empty, 5, '4', ['', '', '', '', '', '4'], 5],
    [empty, 1, 'x', empty, 2],
  ])('fill %j at %i with %j', (cells, index, text, expected, focus) => {
    expect(fillCells(cells, index, text)).toEqual({ cells: expected, focus });
  });
});

describe('secondsLeft', () => {
  it.each([
    [10_000, 0, 10],
    [10_000, 9_001, 1],
    [10_000, 10_000, 0],
    [10_000, 12_000, 0],
    [10_000, 500, 10],
  ])('deadline %i now %i -> %i', (deadline, now, expected) => {
    expect(secondsLeft(deadline, now)).toBe(expected);
  });
});
