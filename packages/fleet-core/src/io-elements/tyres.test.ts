import { describe, expect, it } from 'vitest';
import { ioElementIds } from './catalogue';
import { decodeIoElements } from './decode';
import { formatIoReading, ioReadingName } from './format-reading';
import { tyreElementCatalogue, tyrePositions } from './tyres';

describe('tyre elements (product extension)', () => {
  it('six positions, each with a pressure and a temperature id, none of them a spec id', () => {
    expect(tyrePositions.map((p) => p.code)).toEqual(['FL', 'FR', 'RL', 'RR', 'RL2', 'RR2']);
    const ids = tyrePositions.flatMap((p) => [p.pressureId, p.temperatureId]);
    expect(new Set(ids).size).toBe(12);
    expect(Object.keys(tyreElementCatalogue).map(Number).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(ioElementIds).not.toContain(id);
  });

  it('names every element in both languages with its unit', () => {
    for (const def of Object.values(tyreElementCatalogue)) {
      expect(def.key).toMatch(/^tyre(Pressure|Temperature)(FL|FR|RL|RR|RL2|RR2)$/);
      expect(def.name.en).toMatch(/^Tyre (pressure|temperature), /);
      expect(def.name.ar).toMatch(/[\u0600-\u06FF]/);
      expect(['kPa', '°C']).toContain(def.unit);
    }
  });

  it('decodes tyre readings as named numbers next to the spec elements', () => {
    const readings = decodeIoElements({ '11001': { value: 230 }, '11101': 31, '89': 55, '11999': 7 });
    expect(readings.map((r) => [r.id, r.key, r.kind])).toEqual([
      [89, 'fuelLevel', 'number'],
      [11001, 'tyrePressureFL', 'number'],
      [11101, 'tyreTemperatureFL', 'number'],
      [11999, 'io_11999', 'raw'],
    ]);
    const pressure = readings[1]!;
    expect(ioReadingName(pressure, 'en-US')).toBe('Tyre pressure, front left');
    expect(ioReadingName(pressure, 'ar')).toBe('ضغط الإطار الأمامي الأيسر');
    expect(formatIoReading(pressure, 'en-US')).toContain('kPa');
  });
});
