import type { IoElementDefinition, LocalizedName } from './catalogue';

/**
 * Tyre (TPMS) elements: a product extension of the spec's IO table (decision, documented here once).
 *
 * The spec names no tyre elements and vendors number them differently (Teltonika's TPMS ids depend on
 * the sensor kit, Ruptela and iStartek carry them in CAN or serial frames), yet the wheel dashboard needs
 * one meaning per wheel. The product therefore fixes a convention: whatever decodes a device's tyre
 * data (a protocol decoder, a TPMS gateway, an MQTT bridge) writes pressure in kPa to 11001-11006 and
 * temperature in degrees Celsius to 11101-11106, one pair per wheel position below. The ids sit far
 * above every AVL id in use, so they never collide with a device's own elements.
 */

export interface TyrePosition {
  /** Short code used in reports and exports: FL, FR, RL, RR, RL2, RR2. */
  code: string;
  name: LocalizedName;
  pressureId: number;
  temperatureId: number;
}

export const TYRE_PRESSURE_UNIT = 'kPa';
export const TYRE_TEMPERATURE_UNIT = '°C';

export const tyrePositions: readonly TyrePosition[] = [
  { code: 'FL', name: { en: 'front left', ar: 'الأمامي الأيسر' }, pressureId: 11_001, temperatureId: 11_101 },
  {
    code: 'FR',
    name: { en: 'front right', ar: 'الأمامي الأيمن' },
    pressureId: 11_002,
    temperatureId: 11_102,
  },
  { code: 'RL', name: { en: 'rear left', ar: 'الخلفي الأيسر' }, pressureId: 11_003, temperatureId: 11_103 },
  { code: 'RR', name: { en: 'rear right', ar: 'الخلفي الأيمن' }, pressureId: 11_004, temperatureId: 11_104 },
  {
    code: 'RL2',
    name: { en: 'second rear left', ar: 'الخلفي الثاني الأيسر' },
    pressureId: 11_005,
    temperatureId: 11_105,
  },
  {
    code: 'RR2',
    name: { en: 'second rear right', ar: 'الخلفي الثاني الأيمن' },
    pressureId: 11_006,
    temperatureId: 11_106,
  },
];

/** The tyre elements as catalogue entries (names such as "Tyre pressure, front left"). */
export const tyreElementCatalogue: Record<number, IoElementDefinition> = Object.fromEntries(
  tyrePositions.flatMap((p) => [
    [
      p.pressureId,
      {
        key: `tyrePressure${p.code}`,
        name: { en: `Tyre pressure, ${p.name.en}`, ar: `ضغط الإطار ${p.name.ar}` },
        unit: TYRE_PRESSURE_UNIT,
        kind: 'number',
      },
    ],
    [
      p.temperatureId,
      {
        key: `tyreTemperature${p.code}`,
        name: { en: `Tyre temperature, ${p.name.en}`, ar: `حرارة الإطار ${p.name.ar}` },
        unit: TYRE_TEMPERATURE_UNIT,
        kind: 'number',
      },
    ],
  ]),
);
