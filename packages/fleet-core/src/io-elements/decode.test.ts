import { describe, expect, it } from 'vitest';
import { ioElementCatalogue, ioElementIds } from './catalogue';
import { decodeIoElements, ioElementNumber, ioElementValue, toFiniteNumber } from './decode';

const SPEC_IDS = [16, 239, 67, 68, 200, 81, 83, 89, 84, 85, 86, 25, 87, 90, 179, 180, 21, 1, 2, 9, 113, 251];

describe('ioElementCatalogue', () => {
  it('holds exactly the 22 ids of the spec', () => {
    expect(ioElementIds).toEqual([...SPEC_IDS].sort((a, b) => a - b));
  });

  it.each(SPEC_IDS)('id %i has a key and both names', (id) => {
    const def = ioElementCatalogue[id]!;
    expect(def.key).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(def.name.en.length).toBeGreaterThan(0);
    expect(def.name.ar).toMatch(/[\u0600-\u06FF]/);
    if (def.kind === 'enum') expect(def.values).toBeDefined();
  });

  it('keys are unique', () => {
    const keys = SPEC_IDS.map((id) => ioElementCatalogue[id]!.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('decodeIoElements', () => {
  it.each([null, undefined, 'x' as unknown as null])('%j -> []', (io) => {
    expect(decodeIoElements(io)).toEqual([]);
  });

  it('decodes typed readings in id order and keeps unknown ids raw', () => {
    const readings = decodeIoElements({
      '9999': { value: 'abc' },
      '67': { value: 12650 },
      '239': { value: 1 },
      '200': { value: '2' },
      '16': { value: 123456 },
      '84': { value: 3 },
      '90': { value: 7 },
      '1': { value: 'x' },
      weird: { value: 5 },
      '251': 0,
    });
    expect(readings.map((r) => r.sourceKey)).toEqual([
      '1',
      '16',
      '67',
      '84',
      '90',
      '200',
      '239',
      '251',
      '9999',
      'weird',
    ]);
    expect(readings[0]).toMatchObject({ id: 1, key: 'digitalInput1', kind: 'raw', value: 'x', raw: 'x' });
    expect(readings[1]).toEqual({
      id: 16,
      sourceKey: '16',
      key: 'odometer',
      name: { en: 'Odometer', ar: 'عداد المسافة' },
      raw: 123456,
      kind: 'number',
      value: 123456,
      unit: 'm',
    });
    expect(readings[2]).toMatchObject({ key: 'batteryVoltage', kind: 'number', value: 12.65, unit: 'V' });
    expect(readings[3]).toMatchObject({ key: 'fuelLitres', value: 0.3, unit: 'L' });
    expect(readings[4]).toMatchObject({ key: 'doorStatus', kind: 'enum', value: 7, label: null });
    expect(readings[5]).toMatchObject({
      key: 'sleepMode',
      kind: 'enum',
      value: 2,
      label: { en: 'Deep sleep' },
    });
    expect(readings[6]).toMatchObject({ key: 'ignition', kind: 'boolean', value: true });
    expect(readings[7]).toMatchObject({ key: 'emergencyButton', kind: 'boolean', value: false });
    expect(readings[8]).toEqual({
      id: 9999,
      sourceKey: '9999',
      key: 'io_9999',
      name: null,
      raw: 'abc',
      kind: 'raw',
      value: 'abc',
    });
    expect(readings[9]).toMatchObject({ id: null, key: 'io_weird', kind: 'raw', value: 5 });
  });

  it.each<[unknown, boolean | null]>([
    [1, true],
    [0, false],
    ['1', true],
    [true, true],
    [false, false],
    ['TRUE', true],
    ['false', false],
    [2, null],
    ['maybe', null],
    [null, null],
  ])('boolean element value %j', (value, expected) => {
    const [reading] = decodeIoElements({ '239': { value } });
    if (expected === null) expect(reading).toMatchObject({ kind: 'raw', value });
    else expect(reading).toMatchObject({ kind: 'boolean', value: expected });
  });

  it('number element without scale or unit, and non-finite values kept raw', () => {
    expect(decodeIoElements({ '21': { value: '4' } })[0]).toMatchObject({ kind: 'number', value: 4 });
    expect(decodeIoElements({ '21': { value: '4' } })[0]).not.toHaveProperty('unit');
    expect(decodeIoElements({ '21': { value: Infinity } })[0]).toMatchObject({ kind: 'raw' });
    expect(decodeIoElements({ '200': { value: '' } })[0]).toMatchObject({ kind: 'raw', value: '' });
    expect(decodeIoElements({ '90': { value: 1 } })[0]).toMatchObject({
      kind: 'enum',
      label: { en: 'Open', ar: 'مفتوح' },
    });
  });

  it('sorts several non-numeric keys by name', () => {
    expect(decodeIoElements({ b: 1, a: 2 }).map((r) => r.sourceKey)).toEqual(['a', 'b']);
  });
});

describe('value helpers', () => {
  const io = { '251': { value: '1' }, '16': { value: 'x' }, '67': 5 };
  it.each<[number, unknown, number | null]>([
    [251, '1', 1],
    [16, 'x', null],
    [67, 5, 5],
    [1, undefined, null],
  ])('id %i', (id, value, number) => {
    expect(ioElementValue(io, id)).toBe(value);
    expect(ioElementNumber(io, id)).toBe(number);
  });

  it('absent io', () => {
    expect(ioElementValue(null, 251)).toBeUndefined();
    expect(ioElementNumber(undefined, 251)).toBeNull();
  });

  it.each<[unknown, number | null]>([
    [3, 3],
    ['3.5', 3.5],
    [' ', null],
    [NaN, null],
    [{}, null],
  ])('toFiniteNumber(%j)', (value, expected) => {
    expect(toFiniteNumber(value)).toBe(expected);
  });
});
