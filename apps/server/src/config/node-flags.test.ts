import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS, useEmbeddedHeapGrowth } from './node-flags';

describe('old-generation growth on the embedded database', () => {
  it('is lowered from the server default, and from no flag at all', () => {
    expect(useEmbeddedHeapGrowth([...SERVER_V8_FLAGS, '--expose-gc'])).toBe(true);
    expect(useEmbeddedHeapGrowth([])).toBe(true);
  });

  it('leaves a growth given on the command line other than the default as it was given', () => {
    expect(useEmbeddedHeapGrowth([...SERVER_V8_FLAGS, '--heap-growing-percent=80'])).toBe(false);
    expect(useEmbeddedHeapGrowth(['--heap-growing-percent=40'])).toBe(false);
  });
});
