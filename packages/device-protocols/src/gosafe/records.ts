import { ByteReader } from '../common/byte-reader';
import type { AttributeValue, DecodedMessage, DecodedRecord, IoValue } from '../records';

/**
 * GoSafe text messages `*GS<version>,<IMEI>[,<record>[$<record>...]]#`.
 *
 * Two record families exist in the field and are told apart per record (never per firmware setting):
 *
 * - **time-first** (G79/G6S/G3C/G737, the layout of GoSafe's own protocol document): the record opens
 *   with `HHmmssddMMyy`, then an optional hex event id, then tags: `SYS`, `GPS:<A|V|L>;<sats>;<lat>;
 *   <lon>;<speed>;<course>;<alt>;<hdop>;<vdop>`, `GSM`, `COT:<odometer m>;<h-m-s>`, `ADC:<ext V>;<bat V>;
 *   <adc1>;<adc2>`, `DTT:<status>;<io bits hex>;...`, `ETD`, `OBD`, `TAG`, `IWD`.
 * - **tag-first** (the older G-series / Proma Sat family described by the open-source glonassd decoder):
 *   no leading time; the time is inside the GPS tag, `GPS:HHMMSS;<fix>;<lat>;<lon>;<speed>;<course>;
 *   [<hdop>;]DDMMYY` where `<fix>` is 2/3 (2D/3D fix, 0/1 none) or A/V, and the status tags are
 *   `STT:<status hex>;<alarm>`, `MGR:<odometer m>`, `ADC:<index>;<value>;...` pairs (0 = external
 *   supply V, 1 = temperature, 2 = backup battery V), `CLL:<time>;<mcc>;<mnc>;<lac>;<cid>`, `GFS`, `FUL`.
 *
 * A record either decodes whole or the message is `undecodable` whole (and is not answered): a known tag
 * with a value that does not parse, a GPS tag without coordinates, or a record without a time is never
 * stored half. Unknown tags are kept verbatim as attributes (`tag<NAME>`), so nothing is lost silently.
 *
 * Records whose time is all zeros (buffered "no data" slots some firmwares send) are `ignored`: there is
 * no time to store them under, and the device expects the message answered.
 */

class Unreadable extends Error {}

function fail(reason: string): never {
  throw new Unreadable(reason);
}

const TIME12_RE = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/;
const HHMMSS_RE = /^(\d\d)(\d\d)(\d\d)$/;
const TAG_RE = /^([A-Z][A-Z0-9]{2}):/;
const NUMBER_RE = /^-?\d+(\.\d+)?$/;

function utc(yy: number, mo: number, dd: number, hh: number, mi: number, ss: number): number | undefined {
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) return undefined;
  const t = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
  return new Date(t).getUTCDate() === dd ? t : undefined;
}

/** `HHmmssddMMyy` -> epoch ms, read as UTC (GPS time). */
export function parseGoSafeTime(text: string): number | undefined {
  const m = TIME12_RE.exec(text);
  if (!m) return undefined;
  const [hh, mi, ss, dd, mo, yy] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return utc(yy, mo, dd, hh, mi, ss);
}

/** An optional number: empty -> undefined; present but not a number -> the record is unreadable. */
function optNum(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (!NUMBER_RE.test(text.trim())) fail(`${what} "${text.slice(0, 20)}" is not a number`);
  return Number(text);
}

function optHex(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^[0-9a-fA-F]{1,8}$/.test(text)) fail(`${what} "${text.slice(0, 20)}" is not hex`);
  return parseInt(text, 16);
}

/** Lenient readers for the informational tags (GSM, IWD...): a bad value there is skipped. */
function num(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function hexNum(text: string | undefined): number | undefined {
  if (text === undefined || !/^[0-9a-fA-F]{1,8}$/.test(text)) return undefined;
  return parseInt(text, 16);
}

function coordinate(text: string | undefined, positive: string, negative: string, max: number): number {
  const m = /^([A-Z])(\d+(?:\.\d+)?)$/.exec(text ?? '');
  if (!m || (m[1] !== positive && m[1] !== negative)) fail(`coordinate "${(text ?? '').slice(0, 20)}"`);
  const value = Number(m[2]);
  if (value > max) fail(`coordinate ${value} out of range`);
  return m[1] === negative ? -value : value;
}

interface Building {
  record: DecodedRecord;
  attributes: Record<string, AttributeValue>;
  /** Tag-first family: ADC holds index/value pairs. */
  tagFirst: boolean;
  /** Time from the GPS tag (tag-first layout). */
  gpsTime?: number;
  hasGps: boolean;
}

function newBuilding(imei: string, tagFirst: boolean): Building {
  return {
    record: {
      imei,
      protocol: 'gosafe',
      fixTime: 0,
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
    tagFirst,
    hasGps: false,
  };
}

function applyGps(b: Building, v: string[]): void {
  const { record, attributes } = b;
  b.hasGps = true;
  const first = v[0] ?? '';
  const last = v[v.length - 1] ?? '';
  if (HHMMSS_RE.test(first) && HHMMSS_RE.test(last) && (v.length === 7 || v.length === 8)) {
    // Time-inside layout: HHMMSS;fix;lat;lon;speed;course;[hdop;]DDMMYY
    const t = HHMMSS_RE.exec(first)!;
    const d = HHMMSS_RE.exec(last)!;
    const time = utc(Number(d[3]), Number(d[2]), Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3]));
    if (time === undefined) fail(`GPS time ${first} ${last}`);
    b.gpsTime = time;
    const fix = v[1] ?? '';
    if (!/^[0-3AVL]$/.test(fix)) fail(`GPS fix "${fix.slice(0, 5)}"`);
    record.latitude = coordinate(v[2], 'N', 'S', 90);
    record.longitude = coordinate(v[3], 'E', 'W', 180);
    record.valid = fix === '2' || fix === '3' || fix === 'A';
    record.speed = optNum(v[4], 'speed') ?? 0;
    record.course = optNum(v[5], 'course') ?? 0;
    if (v.length === 8) {
      const hdop = optNum(v[6], 'hdop');
      if (hdop !== undefined) record.hdop = hdop;
    }
    if (/^[23]$/.test(fix)) attributes['fix'] = `${fix}D`;
    return;
  }
  // Time-first layout: A|V|L;sats;lat;lon;speed;course;alt;hdop;vdop
  if (!/^[AVL]$/.test(first)) fail(`GPS validity "${first.slice(0, 5)}"`);
  record.valid = first === 'A';
  record.satellites = optNum(v[1], 'satellites') ?? 0;
  record.latitude = coordinate(v[2], 'N', 'S', 90);
  record.longitude = coordinate(v[3], 'E', 'W', 180);
  record.speed = optNum(v[4], 'speed') ?? 0;
  record.course = optNum(v[5], 'course') ?? 0;
  const alt = optNum(v[6], 'altitude');
  if (alt !== undefined) record.altitude = alt;
  const hdop = optNum(v[7], 'hdop');
  if (hdop !== undefined) record.hdop = hdop;
  const vdop = optNum(v[8], 'vdop');
  if (vdop !== undefined) attributes['vdop'] = vdop;
}

function applyAdc(b: Building, v: string[]): void {
  const { record, attributes } = b;
  const io: Record<number, IoValue> = record.io;
  const pairs =
    b.tagFirst &&
    v.length >= 2 &&
    v.length % 2 === 0 &&
    v.every((x, i) => i % 2 === 1 || /^\d{1,2}$/.test(x));
  if (pairs) {
    for (let i = 0; i + 1 < v.length; i += 2) {
      const index = Number(v[i]);
      const value = optNum(v[i + 1], `ADC ${index}`);
      if (value === undefined) continue;
      if (index === 0) io[66] = Math.round(value * 1000);
      else if (index === 1) attributes['temp1'] = value;
      else if (index === 2) io[67] = Math.round(value * 1000);
      else attributes[`adc${index}`] = value;
    }
    return;
  }
  const power = optNum(v[0], 'ADC supply');
  const battery = optNum(v[1], 'ADC battery');
  if (power !== undefined) io[66] = Math.round(power * 1000);
  if (battery !== undefined) io[67] = Math.round(battery * 1000);
  const adc1 = optNum(v[2], 'ADC 1');
  const adc2 = optNum(v[3], 'ADC 2');
  if (adc1 !== undefined) {
    attributes['adc1'] = adc1;
    io[9] = Math.round(adc1 * 1000);
  }
  if (adc2 !== undefined) {
    attributes['adc2'] = adc2;
    io[10] = Math.round(adc2 * 1000);
  }
}

/** Applies one `TAG:v1;v2;...` fragment. */
function applyFragment(b: Building, tag: string, raw: string): void {
  const v = raw === '' ? [] : raw.split(';');
  const { record, attributes } = b;
  const io: Record<number, IoValue> = record.io;
  switch (tag) {
    case 'GPS':
      applyGps(b, v);
      break;
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
    case 'CLL': {
      const [mcc, mnc, lac, cid] = [num(v[1]), num(v[2]), num(v[3]), num(v[4])];
      if (mcc !== undefined) attributes['mcc'] = mcc;
      if (mnc !== undefined) attributes['mnc'] = mnc;
      if (lac !== undefined) attributes['lac'] = lac;
      if (cid !== undefined) attributes['cid'] = cid;
      break;
    }
    case 'COT': {
      const odometer = optNum(v[0], 'COT odometer');
      if (odometer !== undefined) io[16] = odometer;
      if (v[1] !== undefined && v[1] !== '') {
        const parts = v[1].split('-').map((x) => num(x) ?? 0);
        attributes['hours'] = ((parts[0] ?? 0) * 3600 + (parts[1] ?? 0) * 60 + (parts[2] ?? 0)) * 1000;
      }
      break;
    }
    case 'MGR': {
      const metres = optNum(v[0], 'MGR mileage');
      if (metres !== undefined) io[16] = metres;
      break;
    }
    case 'STT': {
      const status = optHex(v[0], 'STT status');
      if (status !== undefined) {
        attributes['status'] = status;
        // Bit 8 of the status word is the ignition (ACC) line, as glonassd reads it.
        io[239] = (status >> 8) & 1;
      }
      const alarm = optHex(v[1], 'STT alarm');
      if (alarm !== undefined) attributes['alarm'] = alarm;
      break;
    }
    case 'ADC':
      applyAdc(b, v);
      break;
    case 'DTT': {
      const status = optHex(v[0], 'DTT status');
      if (status !== undefined) attributes['status'] = status;
      const bits = optHex(v[1], 'DTT io');
      if (bits !== undefined) {
        io[239] = bits & 1;
        io[1] = (bits >> 1) & 1;
        io[2] = (bits >> 2) & 1;
        io[3] = (bits >> 3) & 1;
        io[4] = (bits >> 4) & 1;
        io[179] = (bits >> 5) & 1;
        io[180] = (bits >> 6) & 1;
        attributes['out3'] = ((bits >> 7) & 1) === 1;
      }
      if (v[2] !== undefined || v[3] !== undefined) attributes['geofence'] = (v[2] ?? '') + (v[3] ?? '');
      if (v[4] !== undefined) attributes['eventStatus'] = v[4];
      if (v[5] !== undefined) attributes['packetType'] = v[5];
      break;
    }
    case 'GFS':
      attributes['geofence'] = raw;
      break;
    case 'FUL': {
      const fuel = num(v[0]);
      if (fuel !== undefined) attributes['fuel'] = fuel;
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
      attributes[`tag${tag}`] = raw;
      break;
  }
}

function finish(b: Building): DecodedRecord {
  if (Object.keys(b.attributes).length > 0) b.record.attributes = b.attributes;
  return b.record;
}

type ItemResult =
  | { kind: 'record'; record: DecodedRecord }
  | { kind: 'answer'; text: string }
  | { kind: 'empty-time'; time: string };

function decodeItem(imei: string, item: string): ItemResult {
  const fragments = item.split(',');
  const first = fragments[0] ?? '';
  const timeFirst = /^\d{12}$/.test(first);
  if (!timeFirst && !TAG_RE.test(first)) {
    if (item.includes(':')) fail(`record opens with "${first.slice(0, 20)}", neither a time nor a tag`);
    return { kind: 'answer', text: item };
  }
  if (timeFirst && /^0{12}$/.test(first)) return { kind: 'empty-time', time: first };
  const b = newBuilding(imei, !timeFirst);
  let fixTime: number | undefined;
  if (timeFirst) {
    fixTime = parseGoSafeTime(first);
    if (fixTime === undefined) fail(`record time ${first}`);
  }
  const seen = new Set<string>();
  for (let i = timeFirst ? 1 : 0; i < fragments.length; i++) {
    const f = fragments[i] as string;
    if (f === '') continue;
    const tag = TAG_RE.exec(f);
    if (tag) {
      const name = tag[1] as string;
      if (seen.has(name)) fail(`tag ${name} twice in one record`);
      seen.add(name);
      applyFragment(b, name, f.slice(name.length + 1));
    } else if (/^[0-9a-fA-F]{1,8}$/.test(f)) b.record.eventId = parseInt(f, 16);
    else fail(`fragment "${f.slice(0, 20)}" is neither a tag nor an event id`);
  }
  if (!timeFirst) {
    if (b.gpsTime === undefined) fail('tag-first record without a GPS time');
    fixTime = b.gpsTime;
  }
  b.record.fixTime = fixTime as number;
  return { kind: 'record', record: finish(b) };
}

/**
 * Decodes one text message (with or without the trailing `#`). Returns the messages, and whether the
 * message is answered (`1234`): false when it is `undecodable`.
 */
export function decodeGoSafeText(
  text: string,
  frame: Uint8Array,
): { messages: DecodedMessage[]; answered: boolean } | { malformed: string } {
  const body = text.endsWith('#') ? text.slice(0, -1) : text;
  const head = /^\*GS(\d+),(\d{1,20})(?:,(.*))?$/s.exec(body);
  if (!head) return { malformed: 'not a *GS text message' };
  const imei = head[2] as string;
  const data = head[3];
  if (data === undefined || data === '') {
    return { messages: [{ type: 'heartbeat', protocol: 'gosafe', imei }], answered: true };
  }
  const out: DecodedMessage[] = [];
  const records: DecodedRecord[] = [];
  try {
    for (const item of data.split('$')) {
      const r = decodeItem(imei, item);
      if (r.kind === 'record') records.push(r.record);
      else if (r.kind === 'empty-time')
        out.push({ type: 'ignored', protocol: 'gosafe', imei, reason: `record with empty time ${r.time}` });
      else
        out.push({
          type: 'command-response',
          response: { imei, protocol: 'gosafe', text: r.text, isHex: false, responseType: 'text' },
        });
    }
  } catch (err) {
    if (!(err instanceof Unreadable)) throw err;
    return {
      messages: [
        { type: 'undecodable', protocol: 'gosafe', imei, frame: frame.slice(), reason: err.message },
      ],
      answered: false,
    };
  }
  if (records.length > 0) out.unshift({ type: 'records', protocol: 'gosafe', imei, records });
  return { messages: out, answered: true };
}

// ---------------------------------------------------------------------------------------------------
// Binary records

/** Binary frames count seconds from 2000-01-01T00:00:00Z. */
const EPOCH_2000 = 946_684_800;

interface BinaryBuilding {
  record: DecodedRecord;
  attributes: Record<string, AttributeValue>;
}

function newBinaryRecord(imei: string, fixTime: number): BinaryBuilding {
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

function finishBinary(b: BinaryBuilding): DecodedRecord {
  if (Object.keys(b.attributes).length > 0) b.record.attributes = b.attributes;
  return b.record;
}

/** Decodes one unescaped binary frame `f8 ... f8` (framing and escaping: ./framing.ts). */
export function decodeGoSafeBinary(frame: Uint8Array): DecodedMessage[] {
  const r = new ByteReader(frame, 0, frame.length - 1);
  r.u8(); // marker
  r.u8(); // protocol version
  const type = r.u8();
  const imei = String(r.u32() * 0x1000000 + ((r.u8() << 16) | r.u16()));
  const fixTime = (r.u32() + EPOCH_2000) * 1000;
  const b = newBinaryRecord(imei, fixTime);
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
  return [{ type: 'records', protocol: 'gosafe', imei, records: [finishBinary(b)] }];
}
