/**
 * The IO elements of spec section 3. Units and scales follow Teltonika's AVL ID list where it
 * defines them (e.g. 67 battery voltage in mV -> V with scale 0.001); the raw value times `scale`
 * gives the value in `unit`. 251 is the product's emergency button (spec), read as a boolean.
 */

export type IoElementKind = 'number' | 'boolean' | 'enum';

export interface LocalizedName {
  en: string;
  ar: string;
}

export interface IoElementDefinition {
  key: string;
  name: LocalizedName;
  unit?: string;
  scale?: number;
  kind: IoElementKind;
  /** Labels of the values of an enum element. */
  values?: Record<number, LocalizedName>;
}

export const IO_EMERGENCY_BUTTON = 251;
export const IO_IGNITION = 239;

export const ioElementCatalogue: Record<number, IoElementDefinition> = {
  1: { key: 'digitalInput1', name: { en: 'Digital input 1', ar: 'الإدخال الرقمي 1' }, kind: 'boolean' },
  2: { key: 'digitalInput2', name: { en: 'Digital input 2', ar: 'الإدخال الرقمي 2' }, kind: 'boolean' },
  9: {
    key: 'analogInput',
    name: { en: 'Analog input', ar: 'الإدخال التناظري' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
  16: { key: 'odometer', name: { en: 'Odometer', ar: 'عداد المسافة' }, unit: 'm', kind: 'number' },
  21: { key: 'gsmSignal', name: { en: 'GSM signal', ar: 'إشارة GSM' }, kind: 'number' },
  25: {
    key: 'temperature',
    name: { en: 'Temperature', ar: 'درجة الحرارة' },
    unit: '°C',
    scale: 0.01,
    kind: 'number',
  },
  67: {
    key: 'batteryVoltage',
    name: { en: 'Battery voltage', ar: 'جهد البطارية' },
    unit: 'V',
    scale: 0.001,
    kind: 'number',
  },
  68: {
    key: 'batteryCurrent',
    name: { en: 'Battery current', ar: 'تيار البطارية' },
    unit: 'A',
    scale: 0.001,
    kind: 'number',
  },
  81: { key: 'speed', name: { en: 'Speed', ar: 'السرعة' }, unit: 'km/h', kind: 'number' },
  83: {
    key: 'fuelConsumed',
    name: { en: 'Fuel consumed', ar: 'الوقود المستهلك' },
    unit: 'L',
    scale: 0.1,
    kind: 'number',
  },
  84: {
    key: 'fuelLitres',
    name: { en: 'Fuel litres', ar: 'لترات الوقود' },
    unit: 'L',
    scale: 0.1,
    kind: 'number',
  },
  85: { key: 'engineRpm', name: { en: 'Engine RPM', ar: 'دورات المحرك' }, unit: 'rpm', kind: 'number' },
  86: { key: 'humidity', name: { en: 'Humidity', ar: 'الرطوبة' }, unit: '%', scale: 0.1, kind: 'number' },
  87: {
    key: 'totalMileage',
    name: { en: 'Total mileage', ar: 'إجمالي المسافة المقطوعة' },
    unit: 'm',
    kind: 'number',
  },
  89: { key: 'fuelLevel', name: { en: 'Fuel level', ar: 'مستوى الوقود' }, unit: '%', kind: 'number' },
  90: {
    key: 'doorStatus',
    name: { en: 'Door status', ar: 'حالة الباب' },
    kind: 'enum',
    values: { 0: { en: 'Closed', ar: 'مغلق' }, 1: { en: 'Open', ar: 'مفتوح' } },
  },
  113: {
    key: 'batteryLevel',
    name: { en: 'Battery level', ar: 'مستوى البطارية' },
    unit: '%',
    kind: 'number',
  },
  179: { key: 'digitalOutput1', name: { en: 'Digital output 1', ar: 'الإخراج الرقمي 1' }, kind: 'boolean' },
  180: { key: 'digitalOutput2', name: { en: 'Digital output 2', ar: 'الإخراج الرقمي 2' }, kind: 'boolean' },
  200: {
    key: 'sleepMode',
    name: { en: 'Sleep mode', ar: 'وضع السكون' },
    kind: 'enum',
    values: {
      0: { en: 'No sleep', ar: 'بدون سكون' },
      1: { en: 'GPS sleep', ar: 'سكون GPS' },
      2: { en: 'Deep sleep', ar: 'سكون عميق' },
      3: { en: 'Online sleep', ar: 'سكون متصل' },
      4: { en: 'Ultra sleep', ar: 'سكون فائق' },
    },
  },
  239: { key: 'ignition', name: { en: 'Ignition', ar: 'الإشعال' }, kind: 'boolean' },
  251: { key: 'emergencyButton', name: { en: 'Emergency button', ar: 'زر الطوارئ' }, kind: 'boolean' },
};

/** Ids of the catalogue, ascending. */
export const ioElementIds: readonly number[] = Object.keys(ioElementCatalogue)
  .map(Number)
  .sort((a, b) => a - b);
