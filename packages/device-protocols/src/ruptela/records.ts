/**
 * Ruptela records: the record layouts of command 1 (standard) and 68 (extended, with split records held
 * back until their last part), the IO parameters (kept as sent in `deviceIo`, mapped to the spec's ids
 * in `io`, named attributes derived from 8-byte pairs), and the decoding of each command's body into
 * messages and replies. Framing (length, CRC, stream) is ./framing.ts; encoders are ./encoding.ts.
 */
import { ByteReader, bytesToAscii } from '../common/byte-reader';
import { concatBytes } from '../common/byte-writer';
import { ProtocolFault } from '../common/errors';
import { isPrintableAscii, toHex } from '../common/hex';
import type { AttributeValue, DecodedMessage, DecodedRecord, IoValue } from '../records';
import {
  RUPTELA_CMD_DEVICE_CONFIGURATION,
  RUPTELA_CMD_DEVICE_VERSION,
  RUPTELA_CMD_DTCS,
  RUPTELA_CMD_EXTENDED_RECORDS,
  RUPTELA_CMD_FILES,
  RUPTELA_CMD_FIRMWARE_UPDATE,
  RUPTELA_CMD_HEARTBEAT,
  RUPTELA_CMD_IDENTIFICATION,
  RUPTELA_CMD_RECORDS,
  RUPTELA_CMD_SET_IO,
  RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE,
  RUPTELA_DTCS_ACK,
  RUPTELA_RECORDS_ACK,
} from './constants';
import { mapRuptelaIo } from './io-map';
import { encodeRuptelaServerFrame } from './encoding';

interface ParsedRecord {
  record: DecodedRecord;
  mergeCount: number;
  current: number;
}

const INT32_MIN = -0x8000_0000;
/** Bound on held-back split records per session (memory guard against IMEI-hopping peers). */
const MAX_PENDING = 16;

function eightBytes(v: IoValue | undefined): Uint8Array | undefined {
  if (v === undefined || typeof v === 'string' || v instanceof Uint8Array) return undefined;
  const big = BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(v));
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, big);
  return out;
}

/** Named values Traccar derives from pairs of 8-byte parameters (driver card / tag ids). */
function deriveAttributes(deviceIo: Record<number, IoValue>): Record<string, AttributeValue> | undefined {
  let attributes: Record<string, AttributeValue> | undefined;
  const ibutton = deviceIo[34]; // iButton / driver key, 8 bytes, shown as 16 hex digits
  if (typeof ibutton === 'number' || typeof ibutton === 'bigint') {
    attributes = { driverUniqueId: ibutton.toString(16).padStart(16, '0') };
  }
  for (const [a, b] of [
    [126, 127], // CAN driver id
    [155, 156], // tachograph driver id
  ] as const) {
    const p1 = eightBytes(deviceIo[a]);
    const p2 = eightBytes(deviceIo[b]);
    if (p1 && p2) {
      attributes ??= {};
      attributes['driverUniqueId'] = bytesToAscii(concatBytes([p1, p2]));
    }
  }
  const t1 = deviceIo[760];
  const t2 = deviceIo[761];
  if (
    (typeof t1 === 'number' || typeof t1 === 'bigint') &&
    (typeof t2 === 'number' || typeof t2 === 'bigint')
  ) {
    attributes ??= {};
    attributes['tagId'] = t1.toString(16) + t2.toString(16);
  }
  return attributes;
}

function readRecord(r: ByteReader, imei: string, extended: boolean): ParsedRecord {
  const seconds = r.u32();
  r.u8(); // timestamp extension (orders records within one second)
  let mergeCount = 0;
  let current = 0;
  if (extended) {
    const ext = r.u8();
    mergeCount = ext >> 4;
    current = ext & 0x0f;
  }
  const priority = r.u8();
  const lon = r.i32();
  const lat = r.i32();
  const record: DecodedRecord = {
    imei,
    protocol: 'ruptela',
    fixTime: seconds * 1000,
    valid: false,
    latitude: 0,
    longitude: 0,
    altitude: 0,
    speed: 0,
    course: 0,
    satellites: 0,
    priority,
    eventId: 0,
    io: {},
  };
  if (lon > INT32_MIN && lat > INT32_MIN) {
    record.valid = true;
    record.longitude = lon / 1e7;
    record.latitude = lat / 1e7;
    record.altitude = r.u16() / 10;
    record.course = r.u16() / 100;
    record.satellites = r.u8();
    record.speed = r.u16();
    record.hdop = r.u8() / 10;
  } else {
    r.skip(8); // "no position" marker: the location fields carry nothing
  }
  record.eventId = extended ? r.u16() : r.u8();
  const deviceIo: Record<number, IoValue> = {};
  for (let size = 1; size <= 8; size *= 2) {
    const count = r.u8();
    r.need(count * ((extended ? 2 : 1) + size), 'parameter group');
    for (let j = 0; j < count; j++) {
      const id = extended ? r.u16() : r.u8();
      deviceIo[id] = size === 1 ? r.u8() : size === 2 ? r.u16() : size === 4 ? r.u32() : r.u64();
    }
  }
  record.deviceIo = deviceIo;
  record.io = mapRuptelaIo(deviceIo);
  const attributes = deriveAttributes(deviceIo);
  if (attributes) record.attributes = attributes;
  return { record, mergeCount, current };
}

function mergeInto(target: DecodedRecord, part: DecodedRecord): void {
  Object.assign((target.deviceIo ??= {}), part.deviceIo);
  target.io = mapRuptelaIo(target.deviceIo);
  const attributes = deriveAttributes(target.deviceIo);
  if (attributes) target.attributes = { ...target.attributes, ...attributes };
}

/** What one stream or message decode collects: messages, replies, split records held back. */
export interface FrameContext {
  messages: DecodedMessage[];
  replies: Uint8Array[];
  pending: Map<string, DecodedRecord>;
}

/** Decodes the body of one CRC-checked frame spanning `[start, end)` (length field .. before CRC). */
export function decodeBody(bytes: Uint8Array, start: number, end: number, ctx: FrameContext): void {
  const r = new ByteReader(bytes, start, end);
  r.u16(); // length (already validated by the caller)
  const imeiValue = r.u64();
  const imei = imeiValue.toString().padStart(15, '0');
  const command = r.u8();
  if (command === RUPTELA_CMD_RECORDS || command === RUPTELA_CMD_EXTENDED_RECORDS) {
    const extended = command === RUPTELA_CMD_EXTENDED_RECORDS;
    r.u8(); // records left in the device's memory
    const count = r.u8();
    const out: DecodedRecord[] = [];
    let heldFrom = ctx.pending.get(imei);
    ctx.pending.delete(imei);
    let last: ParsedRecord | undefined;
    for (let i = 0; i < count; i++) {
      const parsed = readRecord(r, imei, extended);
      const continuation = extended && parsed.current > 0 && parsed.current <= parsed.mergeCount;
      if (continuation) {
        const target = out.length > 0 ? out[out.length - 1] : heldFrom;
        if (target) {
          mergeInto(target, parsed.record);
          if (target === heldFrom) {
            out.push(heldFrom);
            heldFrom = undefined;
          }
        } else out.push(parsed.record);
      } else {
        if (heldFrom) {
          out.push(heldFrom);
          heldFrom = undefined;
        }
        out.push(parsed.record);
      }
      last = parsed;
    }
    if (heldFrom) out.push(heldFrom);
    if (r.remaining !== 0)
      throw new ProtocolFault('bad_length', `${r.remaining} byte(s) after the records`, r.offset);
    // A split record whose remaining parts come in the next message is held back (see module docs).
    // At most MAX_PENDING devices per connection can have one held back (a real connection carries one).
    const canHold = ctx.pending.size < MAX_PENDING;
    if (
      canHold &&
      extended &&
      last &&
      last.mergeCount > 0 &&
      last.current < last.mergeCount &&
      out.length > 0
    ) {
      ctx.pending.set(imei, out.pop() as DecodedRecord);
    }
    ctx.messages.push({ type: 'records', protocol: 'ruptela', imei, records: out });
    ctx.replies.push(RUPTELA_RECORDS_ACK.slice());
    return;
  }
  if (command === RUPTELA_CMD_DTCS) {
    const count = r.u8();
    const out: DecodedRecord[] = [];
    for (let i = 0; i < count; i++) {
      r.u8(); // reserved
      const seconds = r.u32();
      const lon = r.i32();
      const lat = r.i32();
      const archive = r.u8() === 2;
      const dtc = r.ascii(5, 'DTC code');
      out.push({
        imei,
        protocol: 'ruptela',
        fixTime: seconds * 1000,
        valid: true,
        latitude: lat / 1e7,
        longitude: lon / 1e7,
        altitude: 0,
        speed: 0,
        course: 0,
        satellites: 0,
        eventId: 0,
        io: {},
        attributes: archive ? { dtcs: dtc, archive: true } : { dtcs: dtc },
      });
    }
    ctx.messages.push({ type: 'records', protocol: 'ruptela', imei, records: out });
    ctx.replies.push(RUPTELA_DTCS_ACK.slice());
    return;
  }
  if (command === RUPTELA_CMD_IDENTIFICATION) {
    ctx.messages.push({ type: 'identification', protocol: 'ruptela', imei });
    ctx.replies.push(encodeRuptelaServerFrame(100 + RUPTELA_CMD_IDENTIFICATION, Uint8Array.of(1)));
    return;
  }
  if (command === RUPTELA_CMD_HEARTBEAT) {
    ctx.messages.push({ type: 'heartbeat', protocol: 'ruptela', imei });
    ctx.replies.push(encodeRuptelaServerFrame(100 + RUPTELA_CMD_HEARTBEAT, Uint8Array.of(1)));
    return;
  }
  if (command === RUPTELA_CMD_FILES) {
    ctx.messages.push({ type: 'ignored', protocol: 'ruptela', imei, reason: 'file transfer (command 37)' });
    return;
  }
  if (
    command === RUPTELA_CMD_DEVICE_CONFIGURATION ||
    command === RUPTELA_CMD_DEVICE_VERSION ||
    command === RUPTELA_CMD_FIRMWARE_UPDATE ||
    command === RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE
  ) {
    const payload = r.slice(r.remaining);
    const printable = isPrintableAscii(payload);
    ctx.messages.push({
      type: 'command-response',
      response: {
        imei,
        protocol: 'ruptela',
        text: printable ? bytesToAscii(payload).trim() : toHex(payload),
        isHex: !printable,
        responseType: command,
      },
    });
    return;
  }
  if (command === RUPTELA_CMD_SET_IO) {
    ctx.messages.push({
      type: 'command-response',
      response: { imei, protocol: 'ruptela', text: String(r.u8()), isHex: false, responseType: command },
    });
    return;
  }
  // A command this decoder does not know: kept whole for a later decoder, never answered.
  ctx.messages.push({
    type: 'undecodable',
    protocol: 'ruptela',
    imei,
    frame: bytes.slice(start, end + 2),
    reason: `unknown command ${command}`,
  });
}
