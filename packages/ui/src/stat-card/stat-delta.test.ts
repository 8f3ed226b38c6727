import { describe, expect, it } from 'vitest';
import { deltaFromPercent, statDelta } from './stat-delta';

describe('statDelta', () => {
  it.each([
    [120, 100, 'up', { percent: 20, direction: 'up', tone: 'positive' }],
    [80, 100, 'up', { percent: -20, direction: 'down', tone: 'negative' }],
    [80, 100, 'down', { percent: -20, direction: 'down', tone: 'positive' }],
    [120, 100, 'down', { percent: 20, direction: 'up', tone: 'negative' }],
    [100, 100, 'up', { percent: 0, direction: 'flat', tone: 'neutral' }],
    [5, 0, 'up', { percent: null, direction: 'up', tone: 'positive' }],
    [0, 0, 'up', { percent: null, direction: 'flat', tone: 'neutral' }],
    [-5, -10, 'up', { percent: 50, direction: 'up', tone: 'positive' }],
  ] as const)('%d vs %d (good %s)', (value, previous, good, out) => {
    expect(statDelta(value, previous, good)).toEqual(out);
  });
  it.each([
    [Number.NaN, 1],
    [1, Number.POSITIVE_INFINITY],
  ])('rejects %d vs %d', (a, b) => expect(() => statDelta(a, b)).toThrow(RangeError));
});

describe('deltaFromPercent', () => {
  it.each([
    [12.5, 'up', 'up', 'positive'],
    [-3, 'up', 'down', 'negative'],
    [-3, 'down', 'down', 'positive'],
    [0, 'up', 'flat', 'neutral'],
  ] as const)('%d%% (good %s) -> %s %s', (percent, good, direction, tone) => {
    expect(deltaFromPercent(percent, good)).toEqual({ percent, direction, tone });
  });
  it('rejects NaN', () => expect(() => deltaFromPercent(Number.NaN)).toThrow(RangeError));
});
