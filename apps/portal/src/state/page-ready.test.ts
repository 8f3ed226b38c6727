import { describe, expect, it } from 'vitest';
import { PageReadyFlag } from './page-ready';

describe('PageReadyFlag', () => {
  it('resets and marks, mirrors each change once, notifies listeners', () => {
    const mirrored: boolean[] = [];
    const flag = new PageReadyFlag((ready) => mirrored.push(ready));
    let calls = 0;
    flag.subscribe(() => (calls += 1));
    flag.markReady();
    flag.markReady();
    flag.reset();
    flag.reset();
    expect(mirrored).toEqual([true, false]);
    expect(calls).toBe(2);
    expect(flag.getSnapshot()).toBe(false);
  });
});
