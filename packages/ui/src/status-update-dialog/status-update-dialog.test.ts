import { describe, expect, it } from 'vitest';
import { statusOptionsFor } from './status-update-dialog';

describe('statusOptionsFor', () => {
  it.each([
    ['vehicle', ['active', 'inactive', 'expired', 'maintenance']],
    ['other', ['active', 'inactive', 'expired']],
  ] as const)('%s -> %j', (kind, expected) => {
    expect(statusOptionsFor(kind)).toEqual(expected);
  });
});
