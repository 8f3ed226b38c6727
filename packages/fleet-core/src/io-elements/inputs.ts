import type { IoElementDefinition } from './catalogue';

/**
 * The common tracker inputs beyond the spec's table: a product extension (like the tyre elements).
 *
 * The spec names digital inputs 1-2 and one analog input, but installed trackers carry four of each
 * and the external supply: Ruptela command-1 records hold DIN1-4 (parameters 2-5) and AIN1-4 (22-25),
 * Teltonika numbers the same inputs 1-4 and 9/10/11/245 and the supply 66. Decoders translate onto
 * these ids (Teltonika numbering), so a sensor setting ("ignition is digital input 4", "fuel is
 * analog input 2") means the same on every device type.
 */
export const inputElementCatalogue: Record<number, IoElementDefinition> = {
  3: { key: 'digitalInput3', name: { en: 'Digital input 3', ar: 'الإدخال الرقمي 3' }, kind: 'boolean' },
  4: { key: 'digitalInput4', name: { en: 'Digital input 4', ar: 'الإدخال الرقمي 4' }, kind: 'boolean' },
  10: {
    key: 'analogInput2',
    name: { en: 'Analog input 2', ar: 'الإدخال التناظري 2' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
  11: {
    key: 'analogInput3',
    name: { en: 'Analog input 3', ar: 'الإدخال التناظري 3' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
  66: {
    key: 'externalVoltage',
    name: { en: 'External voltage', ar: 'الجهد الخارجي' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
  245: {
    key: 'analogInput4',
    name: { en: 'Analog input 4', ar: 'الإدخال التناظري 4' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
};
