import { ByteReader, asciiToBytes, bytesToAscii } from '../common/byte-reader';
import { ByteWriter, concatBytes } from '../common/byte-writer';
import { crc16Kermit } from '../common/crc16';
import {
  ProtocolEncodeError,
  ProtocolFault,
  protocolError,
  toProtocolError,
  type ProtocolError,
} from '../common/errors';
import { isPrintableAscii, toHex } from '../common/hex';
import type { AttributeValue, DecodedMessage, DecodedRecord, DecodeResult, IoValue } from '../records';
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
  RUPTELA_MAX_FRAME_SIZE,
  RUPTELA_RECORDS_ACK,
} from './constants';
import { mapRuptelaIo, unmapRuptelaIo } from './io-map';

export interface RuptelaSessionOptions {
  maxFrameSize?: number;
}

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

interface FrameContext {
  messages: DecodedMessage[];
  replies: Uint8Array[];
  pending: Map<string, DecodedRecord>;
}

/** Decodes the body of one CRC-checked frame spanning `[start, end)` (length field .. before CRC). */
function decodeBody(bytes: Uint8Array, start: number, end: number, ctx: FrameContext): void {
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

function undecodableFrame(frame: Uint8Array, reason: string): DecodedMessage {
  let imei = 0n;
  for (let i = 2; i < 10 && i < frame.length; i++) imei = (imei << 8n) | BigInt(frame[i] as number);
  return {
    type: 'undecodable',
    protocol: 'ruptela',
    imei: imei.toString().padStart(15, '0'),
    frame,
    reason,
  };
}

export interface RuptelaSession {
  decode(input: Uint8Array): DecodeResult;
  /** Records held back while waiting for the rest of a split extended record (emit them on close). */
  flush(): DecodedRecord[];
}

function checkCrc(bytes: Uint8Array, at: number, crcAt: number): ProtocolError | undefined {
  const sent = ((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number);
  const computed = crc16Kermit(bytes, at + 2, crcAt);
  if (sent !== computed) {
    return protocolError(
      'crc_mismatch',
      `CRC-16/KERMIT mismatch: frame says 0x${sent.toString(16)}, data gives 0x${computed.toString(16)}`,
      crcAt - at,
    );
  }
  return undefined;
}

/**
 * Stateful TCP decoder for one Ruptela connection. Frames: `uint16 N`, IMEI (uint64), command,
 * payload, CRC-16/KERMIT over IMEI..payload; N counts IMEI + command + payload. The CRC is always
 * checked (a mismatch is `crc_mismatch`: no ACK, the connection is closed, the device resends).
 */
export function createRuptelaSession(options: RuptelaSessionOptions = {}): RuptelaSession {
  const maxFrame = options.maxFrameSize ?? RUPTELA_MAX_FRAME_SIZE;
  const pending = new Map<string, DecodedRecord>();
  return {
    decode(input: Uint8Array): DecodeResult {
      const ctx: FrameContext = { messages: [], replies: [], pending };
      let consumed = 0;
      let error: ProtocolError | undefined;
      while (input.length - consumed >= 2) {
        const at = consumed;
        const n = ((input[at] as number) << 8) | (input[at + 1] as number);
        const total = n + 4;
        if (total > maxFrame) {
          error = protocolError('frame_too_large', `frame of ${total} bytes exceeds ${maxFrame}`, 0);
          break;
        }
        if (n < 9) {
          error = protocolError('bad_length', `length ${n} cannot hold an IMEI and a command`, 0);
          break;
        }
        if (input.length - at < total) break;
        error = checkCrc(input, at, at + 2 + n);
        if (error) break;
        const mark = [ctx.messages.length, ctx.replies.length] as const;
        try {
          decodeBody(input, at, at + 2 + n, ctx);
        } catch (caught) {
          // The CRC holds, so the frame arrived as sent: its content is what we cannot read. It is
          // handed over whole as undecodable (archived by the gateway), never half-decoded or answered.
          ctx.messages.length = mark[0];
          ctx.replies.length = mark[1];
          ctx.messages.push(undecodableFrame(input.slice(at, at + total), toProtocolError(caught).message));
        }
        consumed += total;
      }
      const result: DecodeResult = { consumed, messages: ctx.messages };
      if (ctx.replies.length > 0) result.reply = concatBytes(ctx.replies);
      if (error) result.error = error;
      return result;
    },
    flush(): DecodedRecord[] {
      const out = [...pending.values()];
      pending.clear();
      return out;
    },
  };
}

/**
 * Decodes exactly one complete message whose boundaries the caller knows (a capture, a datagram). The
 * CRC over the whole message must match. A length field disagreeing with the message size is an error
 * unless `acceptLengthMismatch` (two upstream vectors carry a wrong length with a valid CRC).
 */
export function decodeRuptelaMessage(
  message: Uint8Array,
  options: { acceptLengthMismatch?: boolean } = {},
): DecodeResult {
  const ctx: FrameContext = { messages: [], replies: [], pending: new Map() };
  if (message.length < 13)
    return { consumed: 0, messages: [], error: protocolError('truncated', 'message too short') };
  if (message.length > RUPTELA_MAX_FRAME_SIZE) {
    return { consumed: 0, messages: [], error: protocolError('frame_too_large', 'message too large') };
  }
  const n = ((message[0] as number) << 8) | (message[1] as number);
  if (n + 4 !== message.length && !options.acceptLengthMismatch) {
    return {
      consumed: 0,
      messages: [],
      error: protocolError(
        'bad_length',
        `length field ${n} but the message has ${message.length - 4} bytes`,
        0,
      ),
    };
  }
  const crcError = checkCrc(message, 0, message.length - 2);
  if (crcError) return { consumed: 0, messages: [], error: crcError };
  try {
    decodeBody(message, 0, message.length - 2, ctx);
  } catch (caught) {
    const reason = toProtocolError(caught).message;
    return { consumed: message.length, messages: [undecodableFrame(message.slice(), reason)] };
  }
  const result: DecodeResult = { consumed: message.length, messages: ctx.messages };
  if (ctx.replies.length > 0) result.reply = concatBytes(ctx.replies);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Device -> server encoders (simulator)

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
