import { describe, expect, it } from 'vitest';
import { fuelLitres, parseCalibrationCsv, validateCalibration } from './fuel-calibration';

describe('fuel calibration', () => {
  const table = [
    [0, 0],
    [1000, 20],
    [3000, 90],
    [4500, 120],
  ] as const;

  it('interpolates between points and clamps at the ends', () => {
    expect(fuelLitres(500, table)).toBe(10);
    expect(fuelLitres(2000, table)).toBe(55);
    expect(fuelLitres(3000, table)).toBe(90);
    expect(fuelLitres(-5, table)).toBe(0);
    expect(fuelLitres(9999, table)).toBe(120);
    expect(fuelLitres(100, null)).toBeNull();
    expect(fuelLitres(Number.NaN, table)).toBeNull();
  });

  it('CSV with a header, semicolons and decimal commas; unsorted rows are sorted', () => {
    const r = parseCalibrationCsv('raw;litres\n3000;90,5\n0;0\n\n1000;20\n');
    expect(r).toEqual({
      table: [
        [0, 0],
        [1000, 20],
        [3000, 90.5],
      ],
    });
  });

  it('bad input names the line', () => {
    expect(parseCalibrationCsv('raw,litres\n0,0\n10,abc')).toEqual({
      error: { code: 'not_a_number', line: 3 },
    });
    expect(parseCalibrationCsv('0,0')).toEqual({ error: { code: 'too_few_points' } });
    expect(
      validateCalibration([
        [0, 0],
        [5, 1],
        [5, 2],
      ]),
    ).toEqual({ error: { code: 'duplicate_raw', line: 3 } });
    expect(
      validateCalibration([
        [0, -1],
        [5, 1],
      ]),
    ).toEqual({ error: { code: 'negative_litres', line: 1 } });
  });
});
