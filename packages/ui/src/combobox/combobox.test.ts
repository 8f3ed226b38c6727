import { describe, expect, it } from 'vitest';
import { filterOptions } from './combobox';

const options = [
  { value: 'dxb', label: 'Dubai', keywords: 'دبي' },
  { value: 'auh', label: 'Abu Dhabi', keywords: 'أبوظبي' },
  { value: 'shj', label: 'Sharjah' },
  { value: 'cafe', label: 'Café Branch' },
];

describe('filterOptions', () => {
  it.each([
    ['', ['dxb', 'auh', 'shj', 'cafe']],
    ['  ', ['dxb', 'auh', 'shj', 'cafe']],
    ['dub', ['dxb']],
    ['ABU', ['auh']],
    ['ar', ['shj']],
    ['دبي', ['dxb']],
    ['cafe', ['cafe']],
    ['zzz', []],
  ])('%j -> %j', (query, expected) => {
    expect(filterOptions(options, query).map((o) => o.value)).toEqual(expected);
  });
});
