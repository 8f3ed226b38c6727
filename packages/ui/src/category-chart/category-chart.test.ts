import { describe, expect, it } from 'vitest';
import { barShare } from './category-chart';

describe('barShare', () => {
  it.each([
    [50, 100, 0.5],
    [100, 100, 1],
    [0, 100, 0],
    [-5, 100, 0],
    [null, 100, 0],
    [Number.NaN, 100, 0],
    [10, 0, 0],
    [150, 100, 1],
  ] as const)('%s of max %s is %s', (value, max, share) => {
    expect(barShare(value, max)).toBe(share);
  });
});
