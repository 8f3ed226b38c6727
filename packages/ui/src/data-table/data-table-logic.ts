/**
 * Pure helpers of the DataTable: the API's list envelope turned into page numbers and ranges, a
 * page-number window, locale-aware cell comparison and search matching. No React here.
 */

/** Pagination fields of the API's list envelope (`{ data, total, current_page, last_page, per_page }`). */
export interface ListMeta {
  total: number;
  /** 1-based. */
  current_page: number;
  last_page: number;
  per_page: number;
}

export interface ListEnvelope<T> extends ListMeta {
  data: T[];
}

export interface PageInfo {
  /** 1-based current page, clamped into [1, pageCount]. */
  page: number;
  pageCount: number;
  /** 1-based index of the first row shown (0 when there are none). */
  from: number;
  /** 1-based index of the last row shown (0 when there are none). */
  to: number;
  total: number;
  perPage: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

const nonNegativeInt = (n: unknown, fallback: number) =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;

/**
 * Page numbers and the visible range from an envelope. Inconsistent envelopes are repaired rather
 * than crashing: a missing last_page is derived from total/per_page, pages are clamped.
 */
export function pageInfoFromMeta(meta: Partial<ListMeta>, rowsOnPage?: number): PageInfo {
  const perPage = typeof meta.per_page === 'number' && meta.per_page >= 1 ? Math.floor(meta.per_page) : 10;
  const total = nonNegativeInt(meta.total, 0);
  const derived = Math.max(1, Math.ceil(total / perPage));
  const pageCount = Math.max(1, nonNegativeInt(meta.last_page, derived) || derived);
  const page = Math.min(pageCount, Math.max(1, nonNegativeInt(meta.current_page, 1)));
  const from = total === 0 ? 0 : Math.min(total, (page - 1) * perPage + 1);
  const shown = rowsOnPage ?? perPage;
  const to = total === 0 ? 0 : Math.min(total, from + Math.max(0, shown) - 1);
  return {
    page,
    pageCount,
    from,
    to: Math.max(from, to),
    total,
    perPage,
    hasPrevious: page > 1,
    hasNext: page < pageCount,
  };
}

/** The same for client-side paging over `total` rows (pageIndex is 0-based, as in TanStack). */
export function pageInfoFromIndex(total: number, pageIndex: number, pageSize: number): PageInfo {
  const perPage = Math.max(1, Math.floor(pageSize));
  return pageInfoFromMeta({
    total,
    per_page: perPage,
    current_page: pageIndex + 1,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  });
}

export type PageWindowItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Page buttons to show: always the first and last page, the current one and its neighbours, and an
 * ellipsis for each gap, never more than `slots` items (minimum 5).
 */
export function pageWindow(current: number, pageCount: number, slots = 7): PageWindowItem[] {
  const n = Math.max(1, Math.floor(pageCount));
  const size = Math.max(5, Math.floor(slots));
  const page = Math.min(n, Math.max(1, Math.floor(current)));
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  if (n <= size) return range(1, n);
  if (page <= size - 3) return [...range(1, size - 2), 'ellipsis-end', n];
  if (page >= n - (size - 4)) return [1, 'ellipsis-start', ...range(n - (size - 3), n)];
  const middle = size - 4;
  const first = page - Math.floor((middle - 1) / 2);
  return [1, 'ellipsis-start', ...range(first, first + middle - 1), 'ellipsis-end', n];
}

const collators = new Map<string, Intl.Collator>();
function collatorFor(locale: string): Intl.Collator {
  let c = collators.get(locale);
  if (!c) {
    c = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    collators.set(locale, c);
  }
  return c;
}

/**
 * Orders two cell values: numbers numerically, dates by time, booleans false < true, strings with a
 * numeric-aware collator of the locale. null/undefined/'' sort after everything in ascending order.
 */
export function compareCells(a: unknown, b: unknown, locale = 'en'): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b))
      return Number.isNaN(a) === Number.isNaN(b) ? 0 : Number.isNaN(a) ? 1 : -1;
    return a - b;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collatorFor(locale).compare(String(a), String(b));
}

const arabicIndic = /[\u0660-\u0669\u06F0-\u06F9]/g;
const diacritics = /[\u064B-\u065F\u0670\u0640]/g;

/**
 * Folds text for searching: lower case, Arabic-Indic and Persian digits to ASCII (so "١٢٣" finds a
 * plate "123"), Arabic diacritics and tatweel removed, whitespace collapsed.
 */
export function foldSearchText(text: string): string {
  return text
    .replace(arabicIndic, (d) => {
      const code = d.charCodeAt(0);
      return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
    })
    .replace(diacritics, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** True when every word of the query occurs in one of the values (an empty query matches everything). */
export function matchesSearch(values: readonly unknown[], query: string): boolean {
  const words = foldSearchText(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = foldSearchText(
    values
      .filter((v) => v !== null && v !== undefined)
      .map((v) => (v instanceof Date ? v.toISOString() : String(v)))
      .join(' '),
  );
  return words.every((w) => haystack.includes(w));
}

export interface SortSpec<R> {
  value: (row: R) => unknown;
  desc: boolean;
  /**
   * Identifies the column for {@link SortKeyCache}: prepared keys are reused while the same `rows`
   * array is sorted again (e.g. toggling ascending/descending).
   */
  cacheKey?: string;
}

interface PreparedKeys {
  kind: 'number' | 'ascii' | 'collator' | 'mixed';
  empty: Uint8Array;
  numbers?: Float64Array;
  strings?: string[];
  values: unknown[];
  /** Single-column ascending order of the non-empty rows, with tie groups (built on first use). */
  ranked?: RankedOrder;
}

interface RankedOrder {
  /** Row indices of non-empty values in stable ascending order. */
  order: Int32Array;
  /** `tie[p]` is 1 when `order[p]` has the same key as `order[p - 1]`. */
  tie: Uint8Array;
  /** Row indices of empty values, in input order (they sort last in both directions). */
  empties: Int32Array;
}

/** Prepared sort keys per rows array and column; entries disappear with the rows array. */
export type SortKeyCache = WeakMap<readonly unknown[], Map<string, PreparedKeys>>;

export function createSortKeyCache(): SortKeyCache {
  return new WeakMap();
}

function prepareKeys(values: unknown[]): PreparedKeys {
  const n = values.length;
  const empty = new Uint8Array(n);
  let sawNumber = false;
  let sawString = false;
  let sawOther = false;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isEmpty(v)) {
      empty[i] = 1;
      continue;
    }
    if (typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) sawNumber = true;
    else if (typeof v === 'string') sawString = true;
    else sawOther = true;
  }
  if (sawOther || (sawNumber && sawString)) return { kind: 'mixed', empty, values };
  if (!sawString) {
    const numbers = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (empty[i]) continue;
      const v = values[i];
      numbers[i] = v instanceof Date ? v.getTime() : Number(v);
    }
    return { kind: 'number', empty, numbers, values };
  }
  // Digit runs are padded to the longest run in the column (not a fixed 24): ISO times then give
  // ~30-character keys instead of ~180, which is what string comparison time depends on.
  let width = 1;
  for (let i = 0; i < n; i++) {
    if (empty[i]) continue;
    const text = values[i] as string;
    if (!asciiOnly.test(text)) return { kind: 'collator', empty, values };
    width = Math.max(width, longestDigitRun(text));
  }
  const strings: string[] = new Array(n);
  for (let i = 0; i < n; i++) if (!empty[i]) strings[i] = asciiSortKey(values[i] as string, width)!;
  return { kind: 'ascii', empty, strings, values };
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v));
const asciiOnly = /^[\x20-\x7e]*$/;

/** Length of the longest run of digits in `text`, leading zeros not counted. */
function longestDigitRun(text: string): number {
  let best = 0;
  let run = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (leading && c === 48) continue;
      leading = false;
      run++;
      if (run > best) best = run;
    } else {
      run = 0;
      leading = true;
    }
  }
  return best;
}

/**
 * A plain-string key that orders printable-ASCII text like the numeric, case-insensitive collator
 * (digit runs zero-padded to `width`, letters lower-cased), so large ASCII columns sort with `<` instead of
 * ICU calls. Null when the text is not printable ASCII (the collator is used then).
 */
export function asciiSortKey(text: string, width = 24): string | null {
  if (!asciiOnly.test(text)) return null;
  const lower = text.toLowerCase();
  let out = '';
  let i = 0;
  const n = lower.length;
  while (i < n) {
    const c = lower.charCodeAt(i);
    if (c < 48 || c > 57) {
      let j = i + 1;
      while (j < n && (lower.charCodeAt(j) < 48 || lower.charCodeAt(j) > 57)) j++;
      out += lower.slice(i, j);
      i = j;
      continue;
    }
    let j = i;
    while (j < n && lower.charCodeAt(j) === 48) j++;
    let k = j;
    while (k < n && lower.charCodeAt(k) >= 48 && lower.charCodeAt(k) <= 57) k++;
    // Leading zeros dropped (but one zero kept for a run of zeros), then padded to a fixed width.
    const digits = j === k ? '0' : lower.slice(j, k);
    out += digits.length < width ? '0'.repeat(width - digits.length) + digits : digits;
    i = k;
  }
  return out;
}

/**
 * Stable multi-column sort with the {@link compareCells} order, built for 10,000+ rows: each
 * column's values are read once into typed keys (numbers, times, ASCII sort keys), so the
 * comparator does no ICU calls on ASCII data. Empty values sort last in both directions.
 */
export function sortRows<R>(
  rows: readonly R[],
  specs: readonly SortSpec<R>[],
  locale = 'en',
  cache?: SortKeyCache,
): R[] {
  const n = rows.length;
  if (specs.length === 0 || n < 2) return rows.slice();
  let perRows = cache?.get(rows);
  if (cache && !perRows) {
    perRows = new Map();
    cache.set(rows, perRows);
  }
  if (specs.length === 1) {
    const spec = specs[0]!;
    let prepared = spec.cacheKey ? perRows?.get(spec.cacheKey) : undefined;
    if (!prepared) {
      prepared = prepareKeys(readColumn(rows, spec.value));
      if (spec.cacheKey) perRows?.set(spec.cacheKey, prepared);
    }
    prepared.ranked ??= rankKeys(prepared, locale);
    return fromRanked(rows, prepared.ranked, spec.desc);
  }
  const order = Array.from({ length: n }, (_, i) => i);
  const comparators = specs.map((spec) => {
    let prepared = spec.cacheKey ? perRows?.get(spec.cacheKey) : undefined;
    if (!prepared) {
      prepared = prepareKeys(readColumn(rows, spec.value));
      if (spec.cacheKey) perRows?.set(spec.cacheKey, prepared);
    }
    const { empty, values } = prepared;
    const sign = spec.desc ? -1 : 1;
    if (prepared.kind === 'number') {
      const keys = prepared.numbers!;
      return (a: number, b: number) =>
        empty[a]! | empty[b]! ? empty[a]! - empty[b]! : (keys[a]! - keys[b]!) * sign;
    }
    if (prepared.kind === 'ascii') {
      const keys = prepared.strings!;
      return (a: number, b: number) => {
        if (empty[a]! | empty[b]!) return empty[a]! - empty[b]!;
        const x = keys[a]!;
        const y = keys[b]!;
        return x === y ? 0 : x < y ? -sign : sign;
      };
    }
    if (prepared.kind === 'collator') {
      const collator = collatorFor(locale);
      return (a: number, b: number) =>
        empty[a]! | empty[b]!
          ? empty[a]! - empty[b]!
          : collator.compare(values[a] as string, values[b] as string) * sign;
    }
    return (a: number, b: number) =>
      empty[a]! | empty[b]! ? empty[a]! - empty[b]! : compareCells(values[a], values[b], locale) * sign;
  });
  order.sort((a, b) => {
    for (const cmp of comparators) {
      const r = cmp(a, b);
      if (r !== 0) return r;
    }
    return a - b;
  });
  return order.map((i) => rows[i]!);
}

function readColumn<R>(rows: readonly R[], value: (row: R) => unknown): unknown[] {
  const n = rows.length;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = value(rows[i]!);
  return out;
}

/**
 * The stable ascending order of one column, with its tie groups. Each kind gets its own small,
 * monomorphic comparator over the non-empty rows only (empties are set aside first), so the one
 * real sort per column and rows array is as cheap as it gets; the descending order and every later
 * toggle of the same column are then read off this order in O(n), without sorting again.
 */
function rankKeys(prepared: PreparedKeys, locale: string): RankedOrder {
  const { empty, values } = prepared;
  const n = empty.length;
  let filled = 0;
  for (let i = 0; i < n; i++) if (!empty[i]) filled++;
  const order = new Array<number>(filled);
  const empties = new Int32Array(n - filled);
  for (let i = 0, f = 0, e = 0; i < n; i++) {
    if (empty[i]) empties[e++] = i;
    else order[f++] = i;
  }
  let same: (a: number, b: number) => boolean;
  if (prepared.kind === 'number') {
    const keys = prepared.numbers!;
    order.sort((a, b) => keys[a]! - keys[b]! || a - b);
    same = (a, b) => keys[a] === keys[b];
  } else if (prepared.kind === 'ascii') {
    const keys = prepared.strings!;
    order.sort((a, b) => {
      const x = keys[a]!;
      const y = keys[b]!;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    same = (a, b) => keys[a] === keys[b];
  } else if (prepared.kind === 'collator') {
    const collator = collatorFor(locale);
    order.sort((a, b) => collator.compare(values[a] as string, values[b] as string) || a - b);
    same = (a, b) => collator.compare(values[a] as string, values[b] as string) === 0;
  } else {
    order.sort((a, b) => compareCells(values[a], values[b], locale) || a - b);
    same = (a, b) => compareCells(values[a], values[b], locale) === 0;
  }
  const tie = new Uint8Array(filled);
  for (let p = 1; p < filled; p++) if (same(order[p - 1]!, order[p]!)) tie[p] = 1;
  return { order: Int32Array.from(order), tie, empties };
}

/** Rows in a ranked order: ascending as is; descending by tie groups from the end, each group kept in input order. */
function fromRanked<R>(rows: readonly R[], ranked: RankedOrder, desc: boolean): R[] {
  const { order, tie, empties } = ranked;
  const out = new Array<R>(rows.length);
  let k = 0;
  if (!desc) {
    for (let p = 0; p < order.length; p++) out[k++] = rows[order[p]!]!;
  } else {
    let end = order.length;
    while (end > 0) {
      let start = end - 1;
      while (start > 0 && tie[start]) start--;
      for (let p = start; p < end; p++) out[k++] = rows[order[p]!]!;
      end = start;
    }
  }
  for (let e = 0; e < empties.length; e++) out[k++] = rows[empties[e]!]!;
  return out;
}
