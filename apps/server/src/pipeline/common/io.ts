/**
 * Tiny pure accessors for device IO elements, keyed by the numeric ids of the spec's IO table.
 *
 * @fleet/core owns the catalogue and the display decoder (`decodeIoElements`, which names every element
 * and builds a reading object per element); the pipeline reads a handful of elements of every record on
 * its hot path, so it keeps these allocation-free value readers instead. They accept the two shapes the
 * rest of the system uses for `io_elements`: a bare number per id, or `{ value }` per id (the spec's
 * "keyed by numeric id, each with a value").
 */

import { tyrePositions } from '@fleet/core';

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
 * Tyre (TPMS) elements per wheel position, from @fleet/core's tyre convention (pressure in kPa at
 * 11001-11006, temperature in degrees Celsius at 11101-11106; see `tyrePositions` there).
 */
export const TYRE_IO: Readonly<Record<string, { pressure: number; temperature: number }>> =
  Object.fromEntries(
    tyrePositions.map((p) => [p.code, { pressure: p.pressureId, temperature: p.temperatureId }]),
  );

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
