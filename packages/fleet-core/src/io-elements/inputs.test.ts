import { describe, expect, it } from 'vitest';
import { ioElementIds } from './catalogue';
import { decodeIoElements } from './decode';
import { inputElementCatalogue } from './inputs';

describe('input elements (product extension)', () => {
  it('DIN3/DIN4, AIN2-4 and the external supply, none of them a spec id, named in both languages', () => {
    expect(Object.keys(inputElementCatalogue).map(Number)).toEqual([3, 4, 10, 11, 66, 245]);
    for (const [id, def] of Object.entries(inputElementCatalogue)) {
      expect(ioElementIds).not.toContain(Number(id));
      expect(def.name.en.length).toBeGreaterThan(0);
      expect(def.name.ar).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('decodes as named readings (DIN4 boolean, AIN2 in volts)', () => {
    const readings = decodeIoElements({ '4': { value: 1 }, '10': { value: 12_300 } });
    const din4 = readings.find((r) => r.id === 4);
    const ain2 = readings.find((r) => r.id === 10);
    expect(din4?.name?.en).toBe('Digital input 4');
    expect(ain2?.name?.ar).toBe('الإدخال التناظري 2');
    expect(ain2?.kind === 'number' ? ain2.value : null).toBe(12.3);
    expect(din4?.value).toBe(true);
  });
});
