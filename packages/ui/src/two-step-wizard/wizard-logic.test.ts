import { describe, expect, it } from 'vitest';
import { checkStep, clampStep, stepState } from './wizard-logic';

describe('checkStep', () => {
  const cases: [string, Parameters<typeof checkStep>[0], boolean][] = [
    ['no validator', undefined, true],
    ['sync true', () => true, true],
    ['sync false', () => false, false],
    ['async true', () => Promise.resolve(true), true],
    ['async false', () => Promise.resolve(false), false],
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      false,
    ],
    ['rejects', () => Promise.reject(new Error('boom')), false],
    ['truthy non-boolean is not valid', () => 1 as unknown as boolean, false],
  ];
  it.each(cases)('%s', async (_name, validate, ok) => {
    expect((await checkStep(validate)).ok).toBe(ok);
  });
  it('hands back the thrown error', async () => {
    const error = new Error('boom');
    expect(await checkStep(() => Promise.reject(error))).toEqual({ ok: false, error });
  });
});

describe('stepState', () => {
  it.each([
    [0, 0, 'current'],
    [0, 1, 'complete'],
    [1, 0, 'upcoming'],
    [1, 1, 'current'],
  ] as const)('step %i while %i is shown -> %s', (index, current, state) => {
    expect(stepState(index, current)).toBe(state);
  });
});

describe('clampStep', () => {
  it.each([
    [0, 2, 0],
    [1, 2, 1],
    [5, 2, 1],
    [-3, 2, 0],
    [Number.NaN, 2, 0],
    [1.7, 3, 1],
  ])('clampStep(%d, %d) = %d', (index, total, out) => {
    expect(clampStep(index, total)).toBe(out);
  });
  it('rejects an empty wizard', () => {
    expect(() => clampStep(0, 0)).toThrow(RangeError);
  });
});
