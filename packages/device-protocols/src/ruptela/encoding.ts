/**
 * Ruptela encoding: server -> device frames (command answers and acknowledgements) and the device ->
 * server messages the simulator sends (records, identification, heartbeat, command answers).
 */
import { asciiToBytes } from '../common/byte-reader';
import { ByteWriter } from '../common/byte-writer';
import { crc16Kermit } from '../common/crc16';
import { ProtocolEncodeError } from '../common/errors';
import type { DecodedRecord, IoValue } from '../records';
import {
  RUPTELA_CMD_HEARTBEAT,
  RUPTELA_CMD_IDENTIFICATION,
  RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE,
} from './constants';
import { unmapRuptelaIo } from './io-map';

/** "No fix" coordinates of a record (the decoder treats them the same, see ./records.ts). */
const INT32_MIN = -0x8000_0000;

/** Encodes a server -> device frame: `uint16 len`, command id, payload, CRC-16/KERMIT over command..payload. */
export function encodeRuptelaServerFrame(command: number, payload: Uint8Array): Uint8Array {
  if (payload.length + 1 > 0xffff) throw new ProtocolEncodeError('invalid_argument', 'payload too long');
  const w = new ByteWriter(payload.length + 5);
  w.u16(payload.length + 1)
    .u8(command & 0xff)
    .bytes(payload);
  w.u16(crc16Kermit(w.subarray(2)));
  return w.toBytes();
}

function deviceFrame(imei: string, command: number, payload: Uint8Array): Uint8Array {
  if (!/^\d{1,19}$/.test(imei)) throw new ProtocolEncodeError('bad_imei', `IMEI ${imei} is not numeric`);
  const w = new ByteWriter(payload.length + 16);
  w.u16(payload.length + 9)
    .u64(BigInt(imei))
    .u8(command)
    .bytes(payload);
  w.u16(crc16Kermit(w.subarray(2)));
  return w.toBytes();
}

function sizeOf(value: IoValue): 1 | 2 | 4 | 8 {
  if (typeof value === 'bigint') return 8;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ProtocolEncodeError(
      'invalid_argument',
      `Ruptela parameters are unsigned integers, got ${String(value)}`,
    );
  }
  return value <= 0xff ? 1 : value <= 0xffff ? 2 : value <= 0xffffffff ? 4 : 8;
}

/**
 * Device -> server records message (command 1, or 68 with `extended`). Parameters come from
 * `record.deviceIo` when present, otherwise from the spec `io` translated back to Ruptela ids.
 */
export function encodeRuptelaRecords(
  imei: string,
  records: readonly DecodedRecord[],
  options: { extended?: boolean; recordsLeft?: number; recordExtensions?: readonly number[] } = {},
): Uint8Array {
  const extended = options.extended ?? false;
  if (records.length > 255)
    throw new ProtocolEncodeError('invalid_argument', 'at most 255 records per message');
  const w = new ByteWriter(64 + records.length * 48);
  w.u8(options.recordsLeft ?? 0).u8(records.length);
  records.forEach((rec, index) => {
    w.u32(Math.floor(rec.fixTime / 1000)).u8(0);
    // Record extension (68 only): high nibble = parts merged, low nibble = this part's number.
    if (extended) w.u8(options.recordExtensions?.[index] ?? 0);
    w.u8(rec.priority ?? 0);
    if (rec.valid) {
      w.i32(Math.round(rec.longitude * 1e7)).i32(Math.round(rec.latitude * 1e7));
      w.u16(Math.max(0, Math.min(0xffff, Math.round(rec.altitude * 10))));
      w.u16(Math.max(0, Math.min(0xffff, Math.round(rec.course * 100))));
      w.u8(Math.min(255, rec.satellites));
      w.u16(Math.max(0, Math.min(0xffff, Math.round(rec.speed))));
      w.u8(Math.max(0, Math.min(255, Math.round((rec.hdop ?? 0) * 10))));
    } else {
      w.i32(INT32_MIN).i32(INT32_MIN).u32(0).u32(0);
    }
    if (extended) w.u16(rec.eventId);
    else w.u8(rec.eventId);
    const params = rec.deviceIo ?? unmapRuptelaIo(rec.io);
    const groups: Record<number, Array<[number, IoValue]>> = { 1: [], 2: [], 4: [], 8: [] };
    for (const key of Object.keys(params)) {
      const id = Number(key);
      const value = params[id];
      if (value === undefined) continue;
      if (id > (extended ? 0xffff : 0xff))
        throw new ProtocolEncodeError('invalid_argument', `parameter id ${id}`);
      (groups[sizeOf(value)] as Array<[number, IoValue]>).push([id, value]);
    }
    for (const size of [1, 2, 4, 8] as const) {
      const group = groups[size] as Array<[number, IoValue]>;
      w.u8(group.length);
      for (const [id, value] of group) {
        if (extended) w.u16(id);
        else w.u8(id);
        if (size === 8) w.u64(value as number | bigint);
        else if (size === 4) w.u32(value as number);
        else if (size === 2) w.u16(value as number);
        else w.u8(value as number);
      }
    }
  });
  return deviceFrame(imei, extended ? 68 : 1, w.toBytes());
}

/** Device -> server identification (command 15) with a firmware text, answered by the server with `01`. */
export function encodeRuptelaIdentification(imei: string, firmware = 'FMPRO.SIM'): Uint8Array {
  return deviceFrame(imei, RUPTELA_CMD_IDENTIFICATION, asciiToBytes(firmware));
}

/** Device -> server heartbeat (command 16). */
export function encodeRuptelaHeartbeat(imei: string): Uint8Array {
  return deviceFrame(imei, RUPTELA_CMD_HEARTBEAT, new Uint8Array(0));
}

/** Device -> server answer to an SMS-via-GPRS command (command 7), for the simulator. */
export function encodeRuptelaCommandResponse(imei: string, text: string): Uint8Array {
  return deviceFrame(imei, RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE, asciiToBytes(text));
}
