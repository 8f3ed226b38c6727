import { describe, expect, it } from 'vitest';
import { page, pageEnvelopeJson, pageMeta } from './page';

describe('the page envelope', () => {
  it.each([
    // total, page, limit -> last_page
    [0, 1, 10, 1],
    [1, 1, 10, 1],
    [10, 1, 10, 1],
    [11, 2, 10, 2],
    [101, 3, 25, 5],
  ])('%i rows, page %i of %i per page: last page %i', (total, p, limit, last) => {
    expect(pageMeta(total, { page: p, limit })).toEqual({
      total,
      current_page: p,
      last_page: last,
      per_page: limit,
    });
  });

  it('puts data first and serialises the same as JSON text', () => {
    const envelope = page([{ a: 1 }], 21, { page: 2, limit: 20 });
    expect(Object.keys(envelope)).toEqual(['data', 'total', 'current_page', 'last_page', 'per_page']);
    expect(pageEnvelopeJson('[{"a":1}]', 21, { page: 2, limit: 20 })).toBe(JSON.stringify(envelope));
  });
});
