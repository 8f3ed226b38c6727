import { asciiToBytes, bytesToAscii, ByteReader } from '../common/byte-reader';
import { ProtocolEncodeError, protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { AttributeValue, DecodedMessage, DecodedRecord, DecodeResult, IoValue } from '../records';

/** Largest frame (text up to `#`, binary between `f8` markers) we buffer before refusing the connection. */
export const GOSAFE_MAX_FRAME_SIZE = 8192;
/** The server's reply to every GoSafe message. */
export const GOSAFE_ACK: Uint8Array = asciiToBytes('1234');
/** Binary frames count seconds from 2000-01-01T00:00:00Z. */
const EPOCH_2000 = 946_684_800;

const TIME_RE = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/;

/**
 * `HHmmssddMMyy` -> epoch ms. Decision: GoSafe devices report GPS (UTC) time, so we read it as UTC
 * (Traccar parses it in the server's default zone, which on a UTC server is the same thing).
 * Returns undefined for impossible dates (e.g. the all-zero time some buffered records carry).
 */
function parseTime(text: string): number | undefined {
  const m = TIME_RE.exec(text);
  if (!m) return undefined;
  const [hh, mi, ss, dd, mo, yy] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) return undefined;
  const t = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
  return new Date(t).getUTCDate() === dd ? t : undefined;
}

function num(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function hexNum(text: string | undefined): number | undefined {
  if (text === undefined || !/^[0-9a-fA-F]{1,8}$/.test(text)) return undefined;
  return parseInt(text, 16);
}

function coordinate(text: string | undefined, negative: string): number | undefined {
  if (!text || text.length < 2) return undefined;
  const value = num(text.slice(1));
  if (value === undefined) return undefined;
  return text[0] === negative ? -value : value;
}

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

/** Applies one `TAG:v1;v2;...` fragment (unknown tags and unparsable values are skipped, never thrown). */
function applyFragment(b: Building, fragment: string): void {
  const colon = fragment.indexOf(':');
  if (colon < 0) return;
  const tag = fragment.slice(0, colon);
  const v = colon === fragment.length - 1 ? [] : fragment.slice(colon + 1).split(';');
  const { record, attributes } = b;
  const io: Record<number, IoValue> = record.io;
  switch (tag) {
    case 'GPS': {
      record.valid = v[0] === 'A';
      record.satellites = num(v[1]) ?? 0;
      const lat = coordinate(v[2], 'S');
      const lon = coordinate(v[3], 'W');
      if (lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
        record.latitude = lat;
        record.longitude = lon;
      } else record.valid = false;
      record.speed = num(v[4]) ?? 0;
      record.course = num(v[5]) ?? 0;
      const alt = num(v[6]);
      if (alt !== undefined) record.altitude = alt;
      const hdop = num(v[7]);
      if (hdop !== undefined) record.hdop = hdop;
      const vdop = num(v[8]);
      if (vdop !== undefined) attributes['vdop'] = vdop;
      break;
    }
    case 'GSM': {
      const signal = num(v[1]);
      if (signal !== undefined) io[21] = signal;
      const mcc = num(v[2]);
      const mnc = num(v[3]);
      const lac = hexNum(v[4]);
      const cid = hexNum(v[5]);
      const rssi = num(v[6]);
      if (mcc !== undefined) attributes['mcc'] = mcc;
      if (mnc !== undefined) attributes['mnc'] = mnc;
      if (lac !== undefined) attributes['lac'] = lac;
      if (cid !== undefined) attributes['cid'] = cid;
      if (rssi !== undefined) attributes['rssi'] = rssi;
      break;
    }
    case 'COT': {
      const odometer = num(v[0]);
      if (odometer !== undefined) io[16] = odometer;
      if (v[1] !== undefined && v[1] !== '') {
        const parts = v[1].split('-').map((x) => num(x) ?? 0);
        attributes['hours'] = ((parts[0] ?? 0) * 3600 + (parts[1] ?? 0) * 60 + (parts[2] ?? 0)) * 1000;
      }
      break;
    }
    case 'ADC': {
      const power = num(v[0]);
      const battery = num(v[1]);
      if (power !== undefined) io[66] = Math.round(power * 1000);
      if (battery !== undefined) io[67] = Math.round(battery * 1000);
      const adc1 = num(v[2]);
      const adc2 = num(v[3]);
      if (adc1 !== undefined) {
        attributes['adc1'] = adc1;
        io[9] = Math.round(adc1 * 1000);
      }
      if (adc2 !== undefined) attributes['adc2'] = adc2;
      break;
    }
    case 'DTT': {
      const status = hexNum(v[0]);
      if (status !== undefined) attributes['status'] = status;
      const bits = hexNum(v[1]);
      if (bits !== undefined) {
        io[239] = bits & 1;
        io[1] = (bits >> 1) & 1;
        io[2] = (bits >> 2) & 1;
        attributes['in3'] = ((bits >> 3) & 1) === 1;
        attributes['in4'] = ((bits >> 4) & 1) === 1;
        io[179] = (bits >> 5) & 1;
        io[180] = (bits >> 6) & 1;
        attributes['out3'] = ((bits >> 7) & 1) === 1;
      }
      if (v[2] !== undefined || v[3] !== undefined) attributes['geofence'] = (v[2] ?? '') + (v[3] ?? '');
      if (v[4] !== undefined) attributes['eventStatus'] = v[4];
      if (v[5] !== undefined) attributes['packetType'] = v[5];
      break;
    }
    case 'ETD':
      if (v[0] !== undefined) attributes['eventData'] = v[0];
      break;
    case 'OBD':
      if (v[0] !== undefined) attributes['obd'] = v[0];
      break;
    case 'TAG':
      if (v[0] !== undefined) attributes['tagData'] = v[0];
      break;
    case 'IWD': {
      let i = 0;
      while (i + 1 < v.length) {
        const sensor = num(v[i++]);
        const kind = num(v[i++]);
        if (kind === 0) attributes['driverUniqueId'] = v[i++] ?? '';
        else if (kind === 1) {
          i += 1; // sensor serial number
          const temp = num(v[i++]);
          if (sensor !== undefined && temp !== undefined) attributes[`temp${sensor}`] = temp;
        } else break;
      }
      break;
    }
    case 'SYS':
      if (v[0] !== undefined) attributes['model'] = v[0];
      if (v[1] !== undefined) attributes['firmware'] = v[1];
      break;
    default:
      break;
  }
}

function finish(b: Building): DecodedRecord {
  if (Object.keys(b.attributes).length > 0) b.record.attributes = b.attributes;
  return b.record;
}

function decodeItem(imei: string, item: string, out: DecodedMessage[], records: DecodedRecord[]): void {
  const fragments = item.split(',');
  const first = fragments[0] ?? '';
  if (!/^\d{12}$/.test(first)) {
    // Not a position: a command answer (e.g. `RST`).
    out.push({
      type: 'command-response',
      response: { imei, protocol: 'gosafe', text: item, isHex: false, responseType: 'text' },
    });
    return;
  }
  const time = parseTime(first);
  if (time === undefined) {
    out.push({ type: 'ignored', protocol: 'gosafe', imei, reason: `record with invalid time ${first}` });
    return;
  }
  const b = newRecord(imei, time);
  for (let i = 1; i < fragments.length; i++) {
    const f = fragments[i] as string;
    if (f === '') continue;
    if (/^[0-9a-fA-F]+$/.test(f)) b.record.eventId = parseInt(f.slice(-8), 16);
    else applyFragment(b, f);
  }
  records.push(finish(b));
}

const OLD_RE =
  /^GPS:(\d\d)(\d\d)(\d\d);(?:\d;)?([AV]);([NS])(\d+\.\d+);([EW])(\d+\.\d+);(\d+)?;(\d+);(\d+\.?\d*)?(\d\d)(\d\d)(\d\d)/;

/** Decodes one text message (`*GS..,imei,...` with or without the trailing `#`). */
function decodeText(text: string): DecodedMessage[] | ProtocolError {
  const body = text.endsWith('#') ? text.slice(0, -1) : text;
  const head = /^\*GS(\d+),(\d{1,20})(?:,(.*))?$/s.exec(body);
  if (!head) return protocolError('malformed', 'not a *GS text message');
  const version = head[1] as string;
  const imei = head[2] as string;
  const data = head[3];
  const out: DecodedMessage[] = [];
  if (data === undefined || data === '') {
    out.push({ type: 'heartbeat', protocol: 'gosafe', imei });
    return out;
  }
  if (version === '02') {
    const m = OLD_RE.exec(data);
    if (!m) {
      out.push({ type: 'ignored', protocol: 'gosafe', imei, reason: 'unrecognised *GS02 content' });
      return out;
    }
    const [hh, mi, ss] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const [dd, mo, yy] = [Number(m[12]), Number(m[13]), Number(m[14])];
    const fixTime = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
    const b = newRecord(imei, fixTime);
    b.record.valid = m[4] === 'A';
    b.record.latitude = (m[5] === 'S' ? -1 : 1) * Number(m[6]);
    b.record.longitude = (m[7] === 'W' ? -1 : 1) * Number(m[8]);
    b.record.speed = Number(m[9] ?? 0);
    b.record.course = Number(m[10]);
    if (m[11] !== undefined) b.record.hdop = Number(m[11]);
    out.push({ type: 'records', protocol: 'gosafe', imei, records: [finish(b)] });
    return out;
  }
  const records: DecodedRecord[] = [];
  for (const item of data.split('$')) decodeItem(imei, item, out, records);
  if (records.length > 0) out.unshift({ type: 'records', protocol: 'gosafe', imei, records });
  return out;
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
 * Reply is always `1234`, as the device expects for every message. With `unescaped` the binary frame's
 * `1b` escaping was already removed (Traccar's protocol-decoder vectors are given that way). Never throws.
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
      const result = decodeText(bytesToAscii(message));
      if (!Array.isArray(result)) return { consumed: 0, messages: [], error: result };
      return { consumed: message.length, messages: result, reply: GOSAFE_ACK.slice() };
    }
    if (message[0] === 0xf8 && message.length >= 2 && message[message.length - 1] === 0xf8) {
      const plain = options.unescaped ? message : unescapeGoSafe(message);
      if (!(plain instanceof Uint8Array)) return { consumed: 0, messages: [], error: plain };
      return { consumed: message.length, messages: decodeBinary(plain), reply: GOSAFE_ACK.slice() };
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
        replies += 1;
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
