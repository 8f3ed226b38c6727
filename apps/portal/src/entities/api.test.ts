import { describe, expect, it } from 'vitest';
import { listQueryFromParams } from './api';

describe('listQueryFromParams', () => {
  it.each([
    ['', { page: 1, limit: 15 }],
    ['page=3&limit=50', { page: 3, limit: 50 }],
    ['page=-1&limit=7', { page: 1, limit: 15 }],
    ['page=abc', { page: 1, limit: 15 }],
    ['search=%20bus%20', { page: 1, limit: 15, search: 'bus' }],
    ['status=active&type=bus&evil=1', { page: 1, limit: 15, status: 'active', type: 'bus' }],
  ])('%s', (qs, expected) => {
    expect(listQueryFromParams(new URLSearchParams(qs), ['status', 'type'])).toEqual(expected);
  });

  it('caps the search text at the contract limit', () => {
    const query = listQueryFromParams(new URLSearchParams(`search=${'x'.repeat(300)}`), []);
    expect((query.search as string).length).toBe(100);
  });
});
