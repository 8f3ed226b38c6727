import { describe, expect, it } from 'vitest';
import { chartPath } from './simple-chart';

describe('chartPath', () => {
  it('is empty without points', () => {
    expect(chartPath([], 100, 50)).toEqual({ d: '', min: 0, max: 0 });
  });

  it('scales x to the width and y from 0 to the maximum (SVG y grows downwards)', () => {
    const { d, min, max } = chartPath(
      [
        { x: 0, y: 0 },
        { x: 5, y: 10 },
        { x: 10, y: 5 },
      ],
      100,
      50,
    );
    expect([min, max]).toEqual([0, 10]);
    expect(d).toBe('M0.0,50.0 L50.0,0.0 L100.0,25.0');
  });

  it('centres a single point', () => {
    expect(chartPath([{ x: 3, y: 0 }], 100, 50).d).toBe('M50.0,25.0');
  });
});
