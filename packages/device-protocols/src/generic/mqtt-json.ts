import { protocolError, type ProtocolError } from '../common/errors';
import { newIoMap, type AttributeValue, type DecodedRecord } from '../records';

/** Largest MQTT JSON payload we parse. */
export const MQTT_MAX_PAYLOAD_SIZE = 64 * 1024;
/** Most records one payload may carry (an array payload). */
export const MQTT_MAX_RECORDS = 500;

/**
 * JSON location schema for generic trackers over MQTT (one object or an array of them):
 *
 * ```json
 * { "imei": "356307042441013", "time": "2026-11-21T03:00:00Z" | 1763694000000,
 *   "lat": 25.2, "lon": 55.27, "speed": 42.5, "course": 180, "altitude": 12,
 *   "satellites": 9, "hdop": 0.9, "valid": true, "event": 0, "ignition": true,
 *   "io": { "66": 12800, "179": 0 }, "attributes": { "door": "open" } }
 * ```
 * `speed` is km/h. `imei` may be omitted when the topic carries it (`options.imei`). Unknown top-level
 * keys are ignored. Io ids are the spec's numeric ids; values numbers or strings.
 */
export interface MqttLocation {
  imei?: string;
  time: string | number;
  lat: number;
  lon: number;
  speed?: number;
  course?: number;
  altitude?: number;
  satellites?: number;
  hdop?: number;
  valid?: boolean;
  event?: number;
  ignition?: boolean | 0 | 1;
  io?: Record<string, number | string>;
  attributes?: Record<string, string | number | boolean>;
}

export type MqttParseResult =
  { records: DecodedRecord[]; error?: undefined } | { records: []; error: ProtocolError };

function fail(message: string): MqttParseResult {
  return { records: [], error: protocolError('malformed', message) };
}

function num(
  v: unknown,
  name: string,
  min: number,
  max: number,
  required = false,
): number | undefined | string {
  if (v === undefined || v === null) return required ? `${name} is required` : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    return `${name} must be a number in [${min}, ${max}]`;
  return v;
}

function one(raw: unknown, imeiFromTopic: string | undefined, index: number): DecodedRecord | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return `record ${index} is not an object`;
  const o = raw as Record<string, unknown>;
  const imei = typeof o['imei'] === 'string' ? o['imei'] : imeiFromTopic;
  if (!imei || !/^\d{5,20}$/.test(imei)) return `record ${index}: imei must be 5-20 digits`;
  const t = o['time'];
  const fixTime = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : NaN;
  if (!Number.isFinite(fixTime)) return `record ${index}: time must be an ISO string or epoch milliseconds`;
  const fields = {
    lat: num(o['lat'], 'lat', -90, 90, true),
    lon: num(o['lon'], 'lon', -180, 180, true),
    speed: num(o['speed'], 'speed', 0, 2000),
    course: num(o['course'], 'course', 0, 360),
    altitude: num(o['altitude'], 'altitude', -12262, 18000),
    satellites: num(o['satellites'], 'satellites', 0, 255),
    hdop: num(o['hdop'], 'hdop', 0, 100),
    event: num(o['event'], 'event', 0, 0xffff),
  };
  for (const v of Object.values(fields)) if (typeof v === 'string') return `record ${index}: ${v}`;
  const f = fields as Record<keyof typeof fields, number | undefined>;
  const io = newIoMap();
  const rawIo = o['io'];
  if (rawIo !== undefined) {
    if (rawIo === null || typeof rawIo !== 'object' || Array.isArray(rawIo))
      return `record ${index}: io must be an object`;
    for (const [k, v] of Object.entries(rawIo as Record<string, unknown>)) {
      if (!/^\d{1,5}$/.test(k)) return `record ${index}: io id ${k} is not numeric`;
      if (typeof v === 'number' && Number.isFinite(v)) io[Number(k)] = v;
      else if (typeof v === 'string' && v.length <= 256) io[Number(k)] = v;
      else return `record ${index}: io ${k} must be a number or a short string`;
    }
  }
  const ignition = o['ignition'];
  if (ignition !== undefined) {
    if (ignition === true || ignition === 1) io[239] = 1;
    else if (ignition === false || ignition === 0) io[239] = 0;
    else return `record ${index}: ignition must be a boolean`;
  }
  const record: DecodedRecord = {
    imei,
    protocol: 'mqtt',
    fixTime,
    valid: o['valid'] === undefined ? true : o['valid'] === true,
    latitude: f.lat as number,
    longitude: f.lon as number,
    altitude: f.altitude ?? 0,
    speed: f.speed ?? 0,
    course: f.course ?? 0,
    satellites: f.satellites ?? 0,
    eventId: f.event ?? 0,
    io,
  };
  if (f.hdop !== undefined) record.hdop = f.hdop;
  const attrs = o['attributes'];
  if (attrs !== undefined) {
    if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs))
      return `record ${index}: attributes must be an object`;
    const out: Record<string, AttributeValue> = {};
    for (const [k, v] of Object.entries(attrs as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
        out[k] = v;
    }
    record.attributes = out;
  }
  return record;
}

/** Parses an MQTT JSON payload (see {@link MqttLocation}). Never throws. */
export function parseMqttLocationPayload(
  payload: Uint8Array | string,
  options: { imei?: string } = {},
): MqttParseResult {
  if (payload.length > MQTT_MAX_PAYLOAD_SIZE)
    return { records: [], error: protocolError('frame_too_large', 'payload too large') };
  const text =
    typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: false }).decode(payload);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return fail(`payload is not JSON: ${text.slice(0, 40)}`);
  }
  const items = Array.isArray(doc) ? doc : [doc];
  if (items.length === 0) return fail('empty record list');
  if (items.length > MQTT_MAX_RECORDS) return fail(`more than ${MQTT_MAX_RECORDS} records`);
  const records: DecodedRecord[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = one(items[i], options.imei, i);
    if (typeof r === 'string') return fail(r);
    records.push(r);
  }
  return { records };
}

/** The inverse, for the simulator and tests. */
export function encodeMqttLocation(record: DecodedRecord): string {
  const io: Record<string, number | string> = {};
  for (const [k, v] of Object.entries(record.io)) {
    if (typeof v === 'number' || typeof v === 'string') io[k] = v;
    else if (typeof v === 'bigint') io[k] = v.toString();
  }
  const out: MqttLocation = {
    imei: record.imei,
    time: new Date(record.fixTime).toISOString(),
    lat: record.latitude,
    lon: record.longitude,
    speed: record.speed,
    course: record.course,
    altitude: record.altitude,
    satellites: record.satellites,
    valid: record.valid,
    event: record.eventId,
    io,
  };
  if (record.hdop !== undefined) out.hdop = record.hdop;
  return JSON.stringify(out);
}
