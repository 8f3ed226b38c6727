import { asciiToBytes, bytesToAscii, ByteReader } from '../common/byte-reader';
import { ProtocolEncodeError, protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { AttributeValue, DecodedMessage, DecodedRecord, DecodeResult, IoValue } from '../records';
import { decodeGoSafeText } from './text';

/** Largest frame (text up to `#`, binary between `f8` markers) we buffer before refusing the connection. */
export const GOSAFE_MAX_FRAME_SIZE = 8192;
/** The server's reply to every GoSafe message. */
export const GOSAFE_ACK: Uint8Array = asciiToBytes('1234');
/** Binary frames count seconds from 2000-01-01T00:00:00Z. */
const EPOCH_2000 = 946_684_800;

interface Building {
  record: DecodedRecord;
  attributes: Record<string, AttributeValue>;
}

function newRecord(imei: string, fixTime: number): Building {
  return {
    record: {
      imei,
      protocol: 'gosafe',
      fixTime,
      valid: false,
      latitude: 0,
      longitude: 0,
      altitude: 0,
      speed: 0,
      course: 0,
      satellites: 0,
      eventId: 0,
      io: {},
    },
    attributes: {},
  };
}

function finish(b: Building): DecodedRecord {
  if (Object.keys(b.attributes).length > 0) b.record.attributes = b.attributes;
  return b.record;
}

/** Removes the binary escaping: `1b 00` -> `1b`, `1b e3` -> `f8`. */
export function unescapeGoSafe(frame: Uint8Array): Uint8Array | ProtocolError {
  const out = new Uint8Array(frame.length);
  let n = 0;
  for (let i = 0; i < frame.length; i++) {
    const b = frame[i] as number;
    if (b === 0x1b && i > 0 && i < frame.length - 1) {
      const next = frame[i + 1] as number;
      if (next === 0x00) out[n++] = 0x1b;
      else if (next === 0xe3) out[n++] = 0xf8;
      else return protocolError('malformed', `bad escape 1b ${next.toString(16)}`, i);
      i += 1;
    } else out[n++] = b;
  }
  return out.slice(0, n);
}

/** Escapes a binary frame body (between the markers) for the wire. */
export function escapeGoSafe(body: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const b of body) {
    if (b === 0x1b) out.push(0x1b, 0x00);
    else if (b === 0xf8) out.push(0x1b, 0xe3);
    else out.push(b);
  }
  return Uint8Array.from(out);
}

/** Decodes one unescaped binary frame `f8 ... f8`. */
function decodeBinary(frame: Uint8Array): DecodedMessage[] {
  const r = new ByteReader(frame, 0, frame.length - 1);
  r.u8(); // marker
  r.u8(); // protocol version
  const type = r.u8();
  const imei = String(r.u32() * 0x1000000 + ((r.u8() << 16) | r.u16()));
  const fixTime = (r.u32() + EPOCH_2000) * 1000;
  const b = newRecord(imei, fixTime);
  if (type === 0x41) b.record.eventId = r.u8();
  const mask = r.u16();
  if (mask & 0x01) r.skip(r.u8()); // SYS
  if (mask & 0x02) {
    const length = r.u8();
    const end = r.pos + length;
    const fragmentMask = r.u16();
    if (fragmentMask & 0x01) {
      const flags = r.u8();
      b.record.valid = ((flags >> 5) & 0x03) > 0;
      b.record.satellites = flags & 0x1f;
    }
    if (fragmentMask & 0x02) {
      b.record.latitude = r.i32() / 1e6;
      b.record.longitude = r.i32() / 1e6;
    }
    if (fragmentMask & 0x04) b.record.speed = Math.max(0, r.i16());
    if (fragmentMask & 0x08) b.record.course = r.u16();
    if (fragmentMask & 0x10) b.record.altitude = r.i16();
    if (fragmentMask & 0x20) b.record.hdop = r.u16() / 100;
    if (fragmentMask & 0x40) b.attributes['vdop'] = r.u16() / 100;
    if (r.pos < end) r.skip(end - r.pos);
  }
  for (let bit = 2; bit <= 7; bit++) if (mask & (1 << bit)) r.skip(r.u8()); // GSM, COT, ADC, DTT, IWD, ETD
  return [{ type: 'records', protocol: 'gosafe', imei, records: [finish(b)] }];
}

/**
 * Decodes one complete GoSafe message whose boundaries the caller knows (a UDP datagram, a capture):
 * text `*GS...` (the trailing `#` optional) or a binary `f8 ... f8` frame (escaped as on the wire).
 * The reply `1234` is given only for a message that decoded: an `undecodable` one (see ./text.ts) is
 * consumed without a reply so the device keeps it, and the gateway archives its bytes. With `unescaped`
 * the binary frame's `1b` escaping was already removed (Traccar's protocol-decoder vectors are given
 * that way). Never throws.
 */
export function decodeGoSafeMessage(
  message: Uint8Array,
  options: { unescaped?: boolean } = {},
): DecodeResult {
  if (message.length > GOSAFE_MAX_FRAME_SIZE) {
    return {
      consumed: 0,
      messages: [],
      error: protocolError('frame_too_large', 'message exceeds the size limit'),
    };
  }
  try {
    if (message[0] === 0x2a) {
      const result = decodeGoSafeText(bytesToAscii(message), message);
      if ('malformed' in result)
        return { consumed: 0, messages: [], error: protocolError('malformed', result.malformed) };
      const out: DecodeResult = { consumed: message.length, messages: result.messages };
      if (result.answered) out.reply = GOSAFE_ACK.slice();
      return out;
    }
    if (message[0] === 0xf8 && message.length >= 2 && message[message.length - 1] === 0xf8) {
      const plain = options.unescaped ? message : unescapeGoSafe(message);
      const undecodable = (reason: string): DecodeResult => ({
        consumed: message.length,
        messages: [{ type: 'undecodable', protocol: 'gosafe', frame: message.slice(), reason }],
      });
      if (!(plain instanceof Uint8Array)) return undecodable(plain.message);
      let messages: DecodedMessage[];
      try {
        messages = decodeBinary(plain);
      } catch (caught) {
        return undecodable(toProtocolError(caught).message);
      }
      return { consumed: message.length, messages, reply: GOSAFE_ACK.slice() };
    }
    return {
      consumed: 0,
      messages: [],
      error: protocolError('bad_header', 'message starts with neither * nor f8'),
    };
  } catch (caught) {
    return { consumed: 0, messages: [], error: toProtocolError(caught) };
  }
}

export interface GoSafeSession {
  decode(input: Uint8Array): DecodeResult;
}

/**
 * TCP stream decoder: text frames run from `*` to `#`, binary frames from `f8` to the next `f8`.
 * CR/LF between frames is skipped. Anything else at a frame start is `bad_header`; no terminator
 * within {@link GOSAFE_MAX_FRAME_SIZE} bytes is `frame_too_large`.
 */
export function createGoSafeSession(options: { maxFrameSize?: number } = {}): GoSafeSession {
  const max = options.maxFrameSize ?? GOSAFE_MAX_FRAME_SIZE;
  return {
    decode(input: Uint8Array): DecodeResult {
      const messages: DecodedMessage[] = [];
      let replies = 0;
      let consumed = 0;
      let error: ProtocolError | undefined;
      while (consumed < input.length) {
        const first = input[consumed] as number;
        if (first === 0x0d || first === 0x0a || first === 0x20) {
          consumed += 1;
          continue;
        }
        let end = -1;
        if (first === 0x2a) end = input.indexOf(0x23, consumed + 1);
        else if (first === 0xf8) end = input.indexOf(0xf8, consumed + 1);
        else {
          error = protocolError('bad_header', `unexpected byte 0x${first.toString(16)} at a frame start`, 0);
          break;
        }
        if (end < 0) {
          if (input.length - consumed > max)
            error = protocolError('frame_too_large', `no terminator within ${max} bytes`);
          break;
        }
        if (end + 1 - consumed > max) {
          error = protocolError('frame_too_large', `frame exceeds ${max} bytes`);
          break;
        }
        const result = decodeGoSafeMessage(input.subarray(consumed, end + 1));
        if (result.error) {
          error = result.error;
          break;
        }
        messages.push(...result.messages);
        if (result.reply) replies += 1;
        consumed = end + 1;
      }
      const out: DecodeResult = { consumed, messages };
      if (replies > 0) {
        const reply = new Uint8Array(4 * replies);
        for (let i = 0; i < replies; i++) reply.set(GOSAFE_ACK, i * 4);
        out.reply = reply;
      }
      if (error) out.error = error;
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Encoder (simulator)

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
