/**
 * GoSafe encoding: the device -> server text messages the simulator sends (records, command answers).
 */
import { asciiToBytes } from '../common/byte-reader';
import { ProtocolEncodeError } from '../common/errors';
import type { DecodedRecord, IoValue } from '../records';

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function formatTime(ms: number): string {
  const d = new Date(ms);
  return (
    two(d.getUTCHours()) +
    two(d.getUTCMinutes()) +
    two(d.getUTCSeconds()) +
    two(d.getUTCDate()) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCFullYear() % 100)
  );
}

function bit(io: Record<number, IoValue>, id: number): number {
  const v = io[id];
  return v === undefined || v === 0 || v === 0n ? 0 : 1;
}

function formatRecord(r: DecodedRecord): string {
  const parts = [formatTime(r.fixTime)];
  parts.push(r.eventId ? r.eventId.toString(16).toUpperCase() : '');
  const lat = `${r.latitude < 0 ? 'S' : 'N'}${Math.abs(r.latitude).toFixed(6)}`;
  const lon = `${r.longitude < 0 ? 'W' : 'E'}${Math.abs(r.longitude).toFixed(6)}`;
  parts.push(
    `GPS:${r.valid ? 'A' : 'V'};${r.satellites};${lat};${lon};${Math.round(r.speed)};${Math.round(r.course)};` +
      `${Math.round(r.altitude)};${(r.hdop ?? 1).toFixed(2)}`,
  );
  const odometer = r.io[16];
  if (odometer !== undefined) parts.push(`COT:${String(odometer)}`);
  const power = r.io[66];
  const battery = r.io[67];
  if (power !== undefined) {
    parts.push(
      `ADC:${(Number(power) / 1000).toFixed(2)}${battery !== undefined ? `;${(Number(battery) / 1000).toFixed(2)}` : ''}`,
    );
  }
  const io =
    bit(r.io, 239) |
    (bit(r.io, 1) << 1) |
    (bit(r.io, 2) << 2) |
    (bit(r.io, 179) << 5) |
    (bit(r.io, 180) << 6);
  parts.push(`DTT:4000;${io.toString(16).toUpperCase()};0;0;0;1`);
  return parts.join(',');
}

/** Device -> server text message `*GS06,<imei>,<record>$<record>...#`. */
export function encodeGoSafeText(imei: string, records: readonly DecodedRecord[]): Uint8Array {
  if (!/^\d{1,20}$/.test(imei)) throw new ProtocolEncodeError('bad_imei', `IMEI ${imei} is not numeric`);
  if (records.length === 0) return asciiToBytes(`*GS06,${imei}#`);
  return asciiToBytes(`*GS06,${imei},${records.map(formatRecord).join('$')}#`);
}

/** Device -> server answer to a text command (e.g. `RST`). */
export function encodeGoSafeCommandResponse(imei: string, answer: string): Uint8Array {
  if (/[#$,]/.test(answer))
    throw new ProtocolEncodeError('invalid_argument', 'answer may not contain # $ or ,');
  return asciiToBytes(`*GS06,${imei},${answer}#`);
}
