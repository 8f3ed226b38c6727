import { newIoMap, type IoValue } from '../records';

/**
 * Ruptela parameter id -> spec IO id (Teltonika numbering used by the spec's table) and scale
 * (spec value = raw * scale, rounded to 3 decimals). Only parameters whose meaning is the same on the
 * common Ruptela FM-Eco/Pro/Tco firmwares are translated; everything stays in `deviceIo` anyway.
 */
export const RUPTELA_IO_MAP: ReadonlyArray<readonly [ruptelaId: number, specId: number, scale: number]> = [
  [2, 1, 1], // DIN1 -> digital input 1
  [3, 2, 1], // DIN2 -> digital input 2
  // DIN3/DIN4 are in command-1 records too (1-byte group); installers commonly wire ignition to DIN4.
  [4, 3, 1], // DIN3 -> digital input 3
  [5, 4, 1], // DIN4 -> digital input 4
  [22, 9, 1], // AIN1 -> analog input
  [23, 10, 1], // AIN2 (mV) -> analog input 2
  [24, 11, 1], // AIN3 (mV) -> analog input 3
  [25, 245, 1], // AIN4 (mV) -> analog input 4
  [27, 21, 1], // GSM signal level
  [29, 66, 1], // external power (mV) -> external voltage (unplugged detection)
  [30, 67, 1], // internal battery (mV) -> battery voltage
  [65, 16, 1], // virtual odometer (m) -> odometer
  [95, 81, 1], // CAN/OBD speed (km/h) -> speed
  [197, 85, 0.125], // CAN engine rpm -> engine rpm
  [205, 89, 1], // CAN fuel level (%) -> fuel level
  [409, 239, 1], // ignition -> ignition
];

function scaled(value: IoValue, scale: number): IoValue {
  if (scale === 1) return value;
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(n) ? Math.round(n * scale * 1000) / 1000 : value;
}

/** Translates known Ruptela parameters to spec IO ids. */
export function mapRuptelaIo(deviceIo: Record<number, IoValue>): Record<number, IoValue> {
  const io = newIoMap();
  for (const [ruptelaId, specId, scale] of RUPTELA_IO_MAP) {
    const v = deviceIo[ruptelaId];
    if (v !== undefined) io[specId] = scaled(v, scale);
  }
  return io;
}

/** Inverse of {@link mapRuptelaIo} for the simulator: spec IO -> Ruptela parameters. */
export function unmapRuptelaIo(io: Record<number, IoValue>): Record<number, IoValue> {
  const out: Record<number, IoValue> = {};
  for (const [ruptelaId, specId, scale] of RUPTELA_IO_MAP) {
    const v = io[specId];
    if (v === undefined) continue;
    out[ruptelaId] = typeof v === 'number' && scale !== 1 ? Math.round(v / scale) : v;
  }
  return out;
}
