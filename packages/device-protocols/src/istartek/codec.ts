import { asciiToBytes, bytesToAscii } from '../common/byte-reader';
import { ProtocolEncodeError, protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { AttributeValue, DecodedMessage, DecodedRecord, DecodeResult, IoValue } from '../records';

/** Largest `&&` frame we accept (positions are ~150 bytes, 710 CAN blocks ~600). */
export const ISTARTEK_MAX_FRAME_SIZE = 4096;

export interface IStartekOptions {
  /**
   * Verify the declared length and the checksum (default true). A mismatch is a typed error and the
   * connection is closed (iStartek expects no ACK, so nothing is lost: the device re-sends from its
   * buffer on reconnect). With false, a frame whose declared length does not land on `\r\n` is cut
   * at the first `\r\n` instead and the checksum is ignored (replaying old firmware captures).
   */
  verifyChecksum?: boolean;
  maxFrameSize?: number;
  /** Clock for records that carry no time of their own (710 serial/CAN blocks). Default Date.now. */
  now?: () => number;
}

function checksumOf(bytes: Uint8Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += bytes[i] as number;
  return sum & 0xff;
}

function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}

function num(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function hexNum(text: string | undefined): number | undefined {
  return text !== undefined && /^[0-9a-fA-F]{1,8}$/.test(text) ? parseInt(text, 16) : undefined;
}

function blankRecord(imei: string, fixTime: number): DecodedRecord {
  return {
    imei,
    protocol: 'istartek',
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
  };
}

const TIME_RE = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/;

/** Position content (type 000); undefined when the mandatory fields are missing or unparsable. */
function decodePosition(imei: string, content: string): DecodedRecord | undefined {
  const f = content.split(',');
  const t = TIME_RE.exec(f[2] ?? '');
  const event = num(f[0]);
  const lat = num(f[4]);
  const lon = num(f[5]);
  if (!t || event === undefined || lat === undefined || lon === undefined) return undefined;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  const [yy, mo, dd, hh, mi, ss] = t.slice(1).map(Number) as [number, number, number, number, number, number];
  const fixTime = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
  if (!Number.isFinite(fixTime)) return undefined;
  const r = blankRecord(imei, fixTime);
  const io: Record<number, IoValue> = r.io;
  const attributes: Record<string, AttributeValue> = {};
  r.eventId = event;
  if (event === 53 && f[1]) attributes['driverUniqueId'] = f[1];
  else if (f[1]) attributes['eventData'] = f[1];
  if (event === 1) io[251] = 1; // SOS -> emergency button
  if (event === 18) attributes['powerCut'] = true;
  if (event === 19) attributes['powerCut'] = false;
  r.valid = f[3] === 'A';
  r.latitude = lat;
  r.longitude = lon;
  r.satellites = num(f[6]) ?? 0;
  const hdop = num(f[7]);
  if (hdop !== undefined) r.hdop = hdop;
  r.speed = num(f[8]) ?? 0;
  r.course = num(f[9]) ?? 0;
  r.altitude = num(f[10]) ?? 0;
  const odometer = num(f[11]);
  if (odometer !== undefined) io[16] = odometer;
  const cell = (f[12] ?? '').split('|');
  if (cell.length === 4) {
    const [mcc, mnc, lac, cid] = [num(cell[0]), num(cell[1]), hexNum(cell[2]), hexNum(cell[3])];
    if (mcc !== undefined) attributes['mcc'] = mcc;
    if (mnc !== undefined) attributes['mnc'] = mnc;
    if (lac !== undefined) attributes['lac'] = lac;
    if (cid !== undefined) attributes['cid'] = cid;
  }
  const rssi = num(f[13]);
  if (rssi !== undefined) io[21] = rssi;
  const status = hexNum(f[14]);
  if (status !== undefined) attributes['status'] = status;
  const inputs = hexNum(f[15]);
  if (inputs !== undefined) {
    attributes['input'] = inputs;
    // Inputs as wired: input 1 -> io 1, input 2 -> io 2 (a device's sensor setting may name either as
    // the ignition); input 2 is the vendor's ignition line and also io 239.
    io[1] = inputs & 1;
    io[2] = (inputs >> 1) & 1;
    io[239] = (inputs >> 1) & 1;
    io[90] = (inputs >> 2) & 1;
  }
  const outputs = hexNum(f[16]);
  if (outputs !== undefined) {
    attributes['output'] = outputs;
    io[179] = outputs & 1;
    io[180] = (outputs >> 1) & 1;
  }
  const analog = (f[17] ?? '').split('|');
  const power = hexNum(analog[0]);
  const battery = hexNum(analog[1]);
  if (power !== undefined) io[66] = power * 10; // 0.01 V -> mV
  if (battery !== undefined) io[67] = battery * 10;
  for (let i = 2; i < analog.length; i++) {
    const adc = hexNum(analog[i]);
    if (adc === undefined) continue;
    attributes[`adc${i - 1}`] = adc / 100;
    if (i === 2) io[9] = adc * 10;
  }
  // Optional tail: extended flag, fuel sensors, temperature sensors, OBD block, driver id, hours.
  for (const fuel of (f[19] ?? '').split('|')) {
    const m = /^(\d\d)([0-9a-fA-F]+)$/.exec(fuel);
    if (m) attributes[`fuel${Number(m[1])}`] = parseInt(m[2] as string, 16) / 10;
  }
  for (const temp of (f[20] ?? '').split('|')) {
    const m = /^(\d\d)([0-9a-fA-F]{1,4})$/.exec(temp);
    if (!m) continue;
    const raw = parseInt(m[2] as string, 16);
    const magnitude = (raw & 0x7fff) / 10;
    attributes[`temp${Number(m[1])}`] = raw & 0x8000 ? -magnitude : magnitude;
  }
  const obd = f[21] ? f[21].split('|') : [];
  if (obd.length >= 8) {
    const [rpm, load, , , airTemp, throttle, coolant, instant, level] = obd.map((x) => num(x));
    if (rpm !== undefined) io[85] = rpm;
    if (load !== undefined) attributes['engineLoad'] = load;
    if (airTemp !== undefined) attributes['airTemp'] = airTemp - 40;
    if (throttle !== undefined) attributes['throttle'] = throttle;
    if (coolant !== undefined) attributes['coolantTemp'] = coolant - 40;
    if (instant !== undefined) attributes['fuelConsumption'] = Math.round(instant) / 10;
    if (level !== undefined) io[89] = level;
  }
  for (const extra of f.slice(22)) {
    if (extra.length >= 20) attributes['driverUniqueId'] = extra;
    else if (/^\d+$/.test(extra)) attributes['hours'] = Number(extra) * 1000;
  }
  if (Object.keys(attributes).length > 0) r.attributes = attributes;
  return r;
}

/** 710 serial / CAN block: `T1,...\r\nT2,...` lines of J1939-like values. */
function decodeSerial(imei: string, content: string, now: number): DecodedRecord {
  const r = blankRecord(imei, now);
  const attributes: Record<string, AttributeValue> = {};
  for (const line of content.split('\r\n')) {
    const v = line.split(',');
    if (v[0] === 'T1') {
      const rpm = num(v[2]);
      const level = num(v[4]);
      const coolant = num(v[10]);
      const power = num(v[14]);
      const oilTemp = num(v[16]);
      const ignition = num(v[26]);
      if (rpm !== undefined) r.io[85] = rpm;
      if (level !== undefined) r.io[89] = level;
      if (coolant !== undefined) attributes['coolantTemp'] = coolant;
      if (power !== undefined) r.io[66] = Math.round(power * 1000);
      if (oilTemp !== undefined) attributes['oilTemp'] = oilTemp;
      if (ignition === 0 || ignition === 1) r.io[239] = ignition;
    } else if (v[0] === 'T2') {
      const odometerKm = num(v[1]);
      const hours = num(v[17]);
      const fuelUsed = num(v[21]);
      if (odometerKm !== undefined && odometerKm < 1e12) r.io[16] = Math.round(odometerKm * 1000);
      if (hours !== undefined) attributes['hours'] = hours;
      if (fuelUsed !== undefined && fuelUsed < 1e12) r.io[83] = fuelUsed;
    }
  }
  attributes['serialLines'] = content.split('\r\n').filter((x) => x !== '').length;
  r.attributes = attributes;
  return r;
}

const HEADER_RE = /^&&([\s\S])(\d{1,5}),/;

/**
 * Position uploads (decision, from the vendor's VT-series protocol document):
 * - `000` ordinary upload, no reply expected;
 * - `010` ordinary upload that expects the server's reply: the device keeps the record and resends it
 *   until it gets `$$<pack-no><len>,<IMEI>,010,<n><checksum>\r\n` (`<pack-no>` echoes the frame's index
 *   character, `<n>` is the number of positions received);
 * - `020` compressed (batched) upload of buffered positions: several records of the `000` layout in one
 *   frame, separated by CRLF (as the 710 block separates its lines), answered like `010` with `020` and
 *   the record count.
 * A frame whose position content does not parse (any of its records) is `undecodable` as a whole and
 * gets no reply: the device keeps it, the gateway archives the bytes.
 */
export const ISTARTEK_POSITION_TYPES: ReadonlySet<string> = new Set(['000', '010', '020']);
const REPLY_TYPES = new Set(['010', '020']);

interface FrameDecode {
  messages: DecodedMessage[];
  reply?: Uint8Array;
}

/** Decodes one complete `&&` frame (checked by the caller) into messages (and the reply it needs). */
function decodeFrameText(text: string, frame: Uint8Array, now: number): FrameDecode | ProtocolError {
  // Strip the `&&`, index, length, checksum and CRLF.
  const header = HEADER_RE.exec(text);
  if (!header) return protocolError('bad_header', 'frame does not start with &&<index><length>,');
  const packNo = header[1] as string;
  const body = text.slice(header[0].length, text.length - 4);
  const m = /^(\d{1,20}),([0-9A-Fa-f]{3}),([\s\S]*)$/.exec(body);
  if (!m) return protocolError('malformed', 'missing IMEI or type');
  const imei = m[1] as string;
  const type = (m[2] as string).toUpperCase();
  const content = m[3] as string;
  if (ISTARTEK_POSITION_TYPES.has(type)) {
    const items = type === '020' ? content.split('\r\n').filter((x) => x !== '') : [content];
    const records: DecodedRecord[] = [];
    for (const item of items) {
      const record = decodePosition(imei, item);
      if (!record) {
        const reason = `unparsable position in a ${type} frame`;
        return {
          messages: [{ type: 'undecodable', protocol: 'istartek', imei, frame: frame.slice(), reason }],
        };
      }
      records.push(record);
    }
    if (records.length === 0) {
      const reason = `${type} frame without positions`;
      return {
        messages: [{ type: 'undecodable', protocol: 'istartek', imei, frame: frame.slice(), reason }],
      };
    }
    const out: FrameDecode = { messages: [{ type: 'records', protocol: 'istartek', imei, records }] };
    if (REPLY_TYPES.has(type)) out.reply = encodeIStartekReply(imei, type, records.length, packNo);
    return out;
  }
  if (type === '710') {
    return {
      messages: [
        { type: 'records', protocol: 'istartek', imei, records: [decodeSerial(imei, content, now)] },
      ],
    };
  }
  return {
    messages: [
      {
        type: 'command-response',
        response: { imei, protocol: 'istartek', text: content.trim(), isHex: false, responseType: type },
      },
    ],
  };
}

/**
 * Server -> device acknowledgement of a `010` / `020` upload: `$$<pack-no><len>,<IMEI>,<type>,<n>` +
 * checksum + CRLF (the same framing as a command).
 */
export function encodeIStartekReply(imei: string, type: string, count: number, packNo = ':'): Uint8Array {
  return encodeIStartekCommand(imei, `${type},${count}`, packNo);
}

export interface IStartekSession {
  decode(input: Uint8Array): DecodeResult;
}

/**
 * TCP stream decoder. Frame: `&&`, index char, decimal length, `,`, IMEI, `,`, 3-hex type, `,`, content,
 * 2-hex checksum, CRLF. The length counts from the comma after it up to the checksum; the checksum is
 * the byte sum of everything before it. Only `010` and `020` uploads are answered (see above).
 */
export function createIStartekSession(options: IStartekOptions = {}): IStartekSession {
  const strict = options.verifyChecksum ?? true;
  const max = options.maxFrameSize ?? ISTARTEK_MAX_FRAME_SIZE;
  const now = options.now ?? Date.now;
  return {
    decode(input: Uint8Array): DecodeResult {
      const messages: DecodedMessage[] = [];
      const replies: Uint8Array[] = [];
      let consumed = 0;
      let error: ProtocolError | undefined;
      try {
        while (consumed < input.length) {
          const at = consumed;
          const available = input.length - at;
          if (input[at] !== 0x26 || (available >= 2 && input[at + 1] !== 0x26)) {
            error = protocolError('bad_header', 'frame does not start with &&', 0);
            break;
          }
          // `&&`, index, up to 5 digits, comma.
          let p = at + 3;
          let length = 0;
          let digits = 0;
          while (p < input.length && digits <= 5) {
            const c = input[p] as number;
            if (c >= 0x30 && c <= 0x39) {
              length = length * 10 + (c - 0x30);
              digits += 1;
              p += 1;
            } else break;
          }
          if (p >= input.length) {
            if (available > 9) error = protocolError('bad_length', 'length field is not decimal', 3);
            break;
          }
          if (digits === 0 || digits > 5 || input[p] !== 0x2c) {
            error = protocolError('bad_length', 'length field is not decimal', 3);
            break;
          }
          const checksumAt = p + length;
          let total = checksumAt + 4 - at;
          if (total > max) {
            error = protocolError('frame_too_large', `frame of ${total} bytes exceeds ${max}`, 3);
            break;
          }
          const crlfOk = (end: number): boolean => input[end - 2] === 0x0d && input[end - 1] === 0x0a;
          if (available < total) {
            if (strict) break;
            // Lenient: a frame might still end earlier at CRLF.
            const crlf = findCrlf(input, at, Math.min(input.length, at + max));
            if (crlf < 0) break;
            total = crlf + 2 - at;
          } else if (!crlfOk(at + total)) {
            if (strict) {
              error = protocolError('bad_length', 'declared length does not end at CRLF', total - 2);
              break;
            }
            const crlf = findCrlf(input, at, Math.min(input.length, at + max));
            if (crlf < 0) {
              if (input.length - at > max)
                error = protocolError('frame_too_large', 'no CRLF within the limit');
              break;
            }
            total = crlf + 2 - at;
          }
          if (total < 8) {
            error = protocolError('bad_length', 'frame too short', 0);
            break;
          }
          if (strict) {
            const sent = bytesToAscii(input.subarray(at + total - 4, at + total - 2));
            const computed = hex2(checksumOf(input, at, at + total - 4));
            if (sent.toUpperCase() !== computed) {
              error = protocolError(
                'crc_mismatch',
                `checksum ${sent} but bytes sum to ${computed}`,
                total - 4,
              );
              break;
            }
          }
          const frame = input.subarray(at, at + total);
          const decoded = decodeFrameText(bytesToAscii(frame), frame, now());
          if ('code' in decoded) {
            error = decoded;
            break;
          }
          messages.push(...decoded.messages);
          if (decoded.reply) replies.push(decoded.reply);
          consumed += total;
        }
      } catch (caught) {
        error = toProtocolError(caught);
      }
      const result: DecodeResult = { consumed, messages };
      if (replies.length === 1) result.reply = replies[0] as Uint8Array;
      else if (replies.length > 1) {
        const size = replies.reduce((n, r) => n + r.length, 0);
        const reply = new Uint8Array(size);
        let o = 0;
        for (const r of replies) {
          reply.set(r, o);
          o += r.length;
        }
        result.reply = reply;
      }
      if (error) result.error = error;
      return result;
    },
  };
}

function findCrlf(bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i + 1 < to; i++) if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) return i;
  return -1;
}

// ---------------------------------------------------------------------------------------------------
// Encoders

/** Server -> device command: `$$` + index + len + `,` + IMEI + `,` + payload + checksum + CRLF. */
export function encodeIStartekCommand(imei: string, payload: string, index = ':'): Uint8Array {
  if (!/^\d{1,20}$/.test(imei)) throw new ProtocolEncodeError('bad_imei', `IMEI ${imei} is not numeric`);
  if (index.length !== 1) throw new ProtocolEncodeError('invalid_argument', 'index must be one character');
  const body = `,${imei},${payload}`;
  const head = `$$${index}${body.length}`;
  const bytes = asciiToBytes(head + body);
  return asciiToBytes(head + body + hex2(checksumOf(bytes, 0, bytes.length)) + '\r\n');
}

/** Device -> server frame of any type (simulator): `&&` + index + len + `,imei,type,content` + checksum. */
export function encodeIStartekFrame(imei: string, type: string, content: string, index = 'A'): Uint8Array {
  if (!/^\d{1,20}$/.test(imei)) throw new ProtocolEncodeError('bad_imei', `IMEI ${imei} is not numeric`);
  if (!/^[0-9A-Fa-f]{3}$/.test(type))
    throw new ProtocolEncodeError('invalid_argument', 'type must be 3 hex digits');
  const body = `,${imei},${type},${content}`;
  const head = `&&${index}${body.length}`;
  const bytes = asciiToBytes(head + body);
  return asciiToBytes(head + body + hex2(checksumOf(bytes, 0, bytes.length)) + '\r\n');
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function ioNumber(io: Record<number, IoValue>, id: number): number {
  const v = io[id];
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}

/** Device -> server position (type 000) for the simulator. */
export function encodeIStartekPosition(record: DecodedRecord, index = 'A'): Uint8Array {
  const d = new Date(record.fixTime);
  const time =
    two(d.getUTCFullYear() % 100) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes()) +
    two(d.getUTCSeconds());
  const inputs = (ioNumber(record.io, 239) ? 2 : 0) | (ioNumber(record.io, 90) ? 4 : 0);
  const outputs = (ioNumber(record.io, 179) ? 1 : 0) | (ioNumber(record.io, 180) ? 2 : 0);
  const powerHex = Math.round(ioNumber(record.io, 66) / 10)
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
  const batteryHex = Math.round(ioNumber(record.io, 67) / 10)
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
  const driver = record.attributes?.['driverUniqueId'];
  const content = [
    record.eventId,
    record.eventId === 53 && typeof driver === 'string' ? driver : '',
    time,
    record.valid ? 'A' : 'V',
    record.latitude.toFixed(6),
    record.longitude.toFixed(6),
    record.satellites,
    (record.hdop ?? 1).toFixed(1),
    Math.round(record.speed),
    Math.round(record.course),
    Math.round(record.altitude),
    Math.round(ioNumber(record.io, 16)),
    '424|2|0001|00000001',
    ioNumber(record.io, 21),
    '0000001D',
    two(inputs),
    two(outputs),
    `${powerHex}|${batteryHex}|0000|0000`,
    '1',
  ].join(',');
  return encodeIStartekFrame(record.imei, '000', content, index);
}
