/**
 * Tiny pure accessors for device IO elements, keyed by the numeric ids of the spec's IO table.
 *
 * @fleet/core is meant to own the full IO decoder (`decodeIoElements`); it did not exist yet when the
 * pipeline was written, so the pipeline keeps only these value readers. They accept the two shapes the
 * rest of the system uses for `io_elements`: a bare number per id, or `{ value }` per id (the spec's
 * "keyed by numeric id, each with a value").
 */

export const IO = {
  digitalInput1: 1,
  digitalInput2: 2,
  analogInput: 9,
  odometer: 16,
  gsmSignal: 21,
  temperature: 25,
  externalVoltage: 66,
  batteryVoltage: 67,
  batteryCurrent: 68,
  speed: 81,
  fuelConsumed: 83,
  fuelLitres: 84,
  engineRpm: 85,
  humidity: 86,
  totalMileage: 87,
  fuelLevel: 89,
  doorStatus: 90,
  batteryLevel: 113,
  digitalOutput1: 179,
  digitalOutput2: 180,
  sleepMode: 200,
  ignition: 239,
  emergencyButton: 251,
} as const;

/**
 * Tyre (TPMS) readings. Neither the spec's IO table nor @fleet/core's catalogue names tyre elements, and
 * vendors number them differently, so the product fixes one convention (decision): a TPMS gateway or the
 * protocol decoder maps each wheel to these ids, pressure in kPa and temperature in degrees Celsius
 * (scale 1). Positions follow the usual codes: front left/right, rear left/right, second rear axle.
 * When @fleet/core adopts tyre elements this table must follow it.
 */
export const TYRE_IO: Readonly<
  Record<string, { pressure: number; temperature: number; pressureScale: number; temperatureScale: number }>
> = {
  FL: { pressure: 11_001, temperature: 11_101, pressureScale: 1, temperatureScale: 1 },
  FR: { pressure: 11_002, temperature: 11_102, pressureScale: 1, temperatureScale: 1 },
  RL: { pressure: 11_003, temperature: 11_103, pressureScale: 1, temperatureScale: 1 },
  RR: { pressure: 11_004, temperature: 11_104, pressureScale: 1, temperatureScale: 1 },
  RL2: { pressure: 11_005, temperature: 11_105, pressureScale: 1, temperatureScale: 1 },
  RR2: { pressure: 11_006, temperature: 11_106, pressureScale: 1, temperatureScale: 1 },
};

export type IoValue = number | string | boolean | null | undefined | { readonly value?: unknown };
export type IoMap = Readonly<Record<string | number, IoValue>>;

/** Numeric value of IO element `id`, or undefined when absent or not a finite number. */
export function ioNumber(io: IoMap | null | undefined, id: number): number | undefined {
  if (!io) return undefined;
  const raw = io[id];
  const value = raw !== null && typeof raw === 'object' ? raw.value : raw;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Boolean reading of a 0/1 IO element (any non-zero number is true). */
export function ioFlag(io: IoMap | null | undefined, id: number): boolean | undefined {
  const n = ioNumber(io, id);
  return n === undefined ? undefined : n !== 0;
}
