import { describe, expect, it } from 'vitest';
import {
  asciiSortKey,
  compareCells,
  createSortKeyCache,
  sortRows,
  foldSearchText,
  matchesSearch,
  pageInfoFromIndex,
  pageInfoFromMeta,
  pageWindow,
} from './data-table-logic';
import { demoVehicleRows } from './fixtures';
import { dataTableMessagesAr } from './messages.ar';
import { dataTableMessagesEn } from './messages.en';

describe('pageInfoFromMeta', () => {
  it.each([
    {
      name: 'middle page',
      meta: { total: 95, current_page: 2, last_page: 10, per_page: 10 },
      rows: undefined,
      expected: { page: 2, pageCount: 10, from: 11, to: 20, hasPrevious: true, hasNext: true },
    },
    {
      name: 'short last page',
      meta: { total: 95, current_page: 10, last_page: 10, per_page: 10 },
      rows: 5,
      expected: { page: 10, from: 91, to: 95, hasNext: false },
    },
    {
      name: 'empty list',
      meta: { total: 0, current_page: 1, last_page: 1, per_page: 500 },
      rows: 0,
      expected: { page: 1, pageCount: 1, from: 0, to: 0, hasPrevious: false, hasNext: false },
    },
    {
      name: 'page beyond the end is clamped',
      meta: { total: 30, current_page: 9, last_page: 3, per_page: 10 },
      rows: undefined,
      expected: { page: 3, from: 21, to: 30 },
    },
    {
      name: 'missing last_page is derived',
      meta: { total: 1001, current_page: 1, per_page: 500 },
      rows: undefined,
      expected: { pageCount: 3, to: 500 },
    },
    {
      name: 'garbage numbers fall back',
      meta: { total: Number.NaN, current_page: -3, last_page: 0, per_page: 0 },
      rows: undefined,
      expected: { page: 1, pageCount: 1, total: 0, perPage: 10 },
    },
  ])('$name', ({ meta, rows, expected }) => {
    expect(pageInfoFromMeta(meta, rows)).toMatchObject(expected);
  });

  it('client paging matches', () => {
    expect(pageInfoFromIndex(23, 2, 10)).toMatchObject({ page: 3, pageCount: 3, from: 21, to: 23 });
  });
});

describe('pageWindow', () => {
  it.each([
    [1, 1, [1]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 7, [1, 2, 3, 4, 5, 6, 7]],
    [1, 20, [1, 2, 3, 4, 5, 'ellipsis-end', 20]],
    [5, 20, [1, 'ellipsis-start', 4, 5, 6, 'ellipsis-end', 20]],
    [10, 20, [1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]],
    [19, 20, [1, 'ellipsis-start', 16, 17, 18, 19, 20]],
    [20, 20, [1, 'ellipsis-start', 16, 17, 18, 19, 20]],
    [99, 20, [1, 'ellipsis-start', 16, 17, 18, 19, 20]],
  ] as const)('page %s of %s', (current, count, expected) => {
    const items = pageWindow(current, count);
    expect(items).toEqual(expected);
    expect(items.length).toBeLessThanOrEqual(7);
  });

  it('always contains the current page', () => {
    for (let n = 1; n <= 40; n++) for (let p = 1; p <= n; p++) expect(pageWindow(p, n)).toContain(p);
  });
});

describe('compareCells', () => {
  it.each([
    [1, 2, -1],
    [10, 9, 1],
    ['A 2', 'A 10', -1],
    ['apple', 'Banana', -1],
    [null, 'a', 1],
    ['a', undefined, -1],
    ['', '', 0],
    [new Date(2020, 1, 1), new Date(2019, 1, 1), 1],
    [false, true, -1],
    [Number.NaN, 1, 1],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareCells(a, b))).toBe(sign);
  });
  it('orders Arabic text with the Arabic collator', () => {
    const names = ['يوسف', 'أحمد', 'محمد'];
    expect(names.sort((a, b) => compareCells(a, b, 'ar'))).toEqual(['أحمد', 'محمد', 'يوسف']);
  });
});

describe('search', () => {
  it.each([
    ['  Hello   World ', 'hello world'],
    ['١٢٣٤', '1234'],
    ['۱۲۳', '123'],
    ['مُحَمَّد', 'محمد'],
  ])('folds %j', (input, folded) => {
    expect(foldSearchText(input)).toBe(folded);
  });
  it.each([
    [['Dubai', 'A 12345'], 'dubai 123', true],
    [['Dubai', 'A 12345'], '١٢٣٤٥', true],
    [['Dubai', 'A 12345'], 'sharjah', false],
    [['Dubai', null, 5], '', true],
    [[null, undefined], 'x', false],
  ] as const)('%j ~ %j -> %s', (values, query, ok) => {
    expect(matchesSearch(values, query)).toBe(ok);
  });
});

describe('messages', () => {
  it('has the same keys and placeholders in both languages', () => {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(dataTableMessagesAr).sort()).toEqual(Object.keys(dataTableMessagesEn).sort());
    for (const k of Object.keys(dataTableMessagesEn) as (keyof typeof dataTableMessagesEn)[]) {
      expect(ph(dataTableMessagesAr[k]), k).toEqual(ph(dataTableMessagesEn[k]));
    }
  });
});

describe('sortRows', () => {
  const byCollator = (values: unknown[], desc = false) =>
    [...values].sort((a, b) => {
      const ea = a === null || a === undefined || a === '';
      const eb = b === null || b === undefined || b === '';
      if (ea || eb) return Number(ea) - Number(eb);
      return compareCells(a, b, 'en') * (desc ? -1 : 1);
    });

  it.each([
    ['plates', ['A 10', 'a 2', 'B 1', 'A 1', 'A 02', 'Z 100', 'z 20']],
    ['names', ['omar', 'Ahmed', 'sara', 'ahmed ali', 'Zaid', 'Émile']],
    ['ISO times', ['2026-11-20T10:00:00Z', '2026-11-19T23:59:59Z', '2026-11-20T09:59:59Z']],
    ['numbers with gaps', [3, null, 1.5, -2, 10, undefined, 0]],
    ['dates', [new Date(2020, 1, 1), new Date(2019, 5, 5), new Date(2021, 0, 1)]],
    ['mixed', [5, 'x', null, 2, 'a']],
  ])('orders %s like compareCells, empties last', (_name, values) => {
    for (const desc of [false, true]) {
      const sorted = sortRows(values as unknown[], [{ value: (v) => v, desc }], 'en');
      expect(sorted).toEqual(byCollator(values as unknown[], desc));
    }
  });

  it('is stable and sorts by several columns', () => {
    const rows = [
      { id: 1, a: 'x', b: 2 },
      { id: 2, a: 'y', b: 1 },
      { id: 3, a: 'x', b: 1 },
      { id: 4, a: 'x', b: 2 },
    ];
    const sorted = sortRows(rows, [
      { value: (r) => r.a, desc: false },
      { value: (r) => r.b, desc: true },
    ]);
    expect(sorted.map((r) => r.id)).toEqual([1, 4, 3, 2]);
    expect(sortRows(rows, []).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('uses the collator for Arabic text', () => {
    expect(sortRows(['يوسف', 'أحمد', 'محمد'], [{ value: (v) => v, desc: false }], 'ar')).toEqual([
      'أحمد',
      'محمد',
      'يوسف',
    ]);
  });

  it.each([
    ['A 2', 'a 000000000000000000000002'],
    ['x007y', 'x000000000000000000000007y'],
    ['مرحبا', null],
    ['tab\there', null],
  ])('asciiSortKey(%j)', (text, key) => {
    expect(asciiSortKey(text)).toBe(key);
  });

  it('sorts 10,000 demo rows the same as the comparator', () => {
    const rows = demoVehicleRows(10_000);
    for (const key of ['plate', 'driver', 'speed', 'updatedAt'] as const) {
      const fast = sortRows(rows, [{ value: (r) => r[key], desc: false }]).map((r) => r.uuid);
      const slow = [...rows]
        .map((r, i) => ({ r, i }))
        .sort((x, y) => compareCells(x.r[key], y.r[key], 'en') || x.i - y.i)
        .map((x) => x.r.uuid);
      expect(fast).toEqual(slow);
      // Descending keeps ties in input order (read off the cached ascending order, not re-sorted).
      const cache = createSortKeyCache();
      sortRows(rows, [{ value: (r) => r[key], desc: false, cacheKey: key }], 'en', cache);
      const fastDesc = sortRows(rows, [{ value: (r) => r[key], desc: true, cacheKey: key }], 'en', cache).map(
        (r) => r.uuid,
      );
      const slowDesc = [...rows]
        .map((r, i) => ({ r, i }))
        .sort((x, y) => compareCells(y.r[key], x.r[key], 'en') || x.i - y.i)
        .map((x) => x.r.uuid);
      expect(fastDesc).toEqual(slowDesc);
    }
  });
});

describe('sort key cache', () => {
  it('reuses prepared keys for the same rows and column, and gives the same order', () => {
    const rows = demoVehicleRows(200);
    const cache = createSortKeyCache();
    let reads = 0;
    const spec = (desc: boolean) => ({
      value: (r: (typeof rows)[number]) => {
        reads++;
        return r.plate;
      },
      desc,
      cacheKey: 'plate',
    });
    const asc = sortRows(rows, [spec(false)], 'en', cache);
    expect(reads).toBe(200);
    const desc = sortRows(rows, [spec(true)], 'en', cache);
    expect(reads).toBe(200);
    expect(desc.map((r) => r.uuid)).toEqual(
      sortRows(rows, [{ value: (r) => r.plate, desc: true }]).map((r) => r.uuid),
    );
    expect(asc[0]!.plate <= asc[1]!.plate || asc[0]!.plate.length <= asc[1]!.plate.length).toBe(true);
    sortRows([...rows], [spec(false)], 'en', cache);
    expect(reads).toBe(400);
  });
});
