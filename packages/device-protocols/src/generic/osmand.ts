import { protocolError, type ProtocolError } from '../common/errors';
import { knotsToKmh, newIoMap, type AttributeValue, type DecodedRecord } from '../records';

/** Largest OsmAnd request body we parse (the JSON form is well under 2 KiB). */
export const OSMAND_MAX_BODY_SIZE = 64 * 1024;

export interface OsmAndRequest {
  /** The URL query (`?id=...&lat=...`), with or without the leading `?`, or already-parsed params. */
  query?: string | URLSearchParams | Record<string, string>;
  /** Request body: form-encoded params or the JSON document newer Traccar Client versions post. */
  body?: string;
  contentType?: string;
}

export interface OsmAndOptions {
  /** Clock for requests without a timestamp. Default Date.now. */
  now?: () => number;
}

export type OsmAndResult =
  { record: DecodedRecord; error?: undefined } | { record?: undefined; error: ProtocolError };

function parseTimestamp(value: string): number | undefined {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed);
    // Seconds up to year 33658; beyond that it is milliseconds.
    return n > 1e12 ? Math.round(n) : Math.round(n * 1000);
  }
  const iso = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/.test(trimmed)
    ? trimmed.replace(' ', 'T') + (/(Z|[+-]\d\d:?\d\d)$/.test(trimmed) ? '' : 'Z')
    : undefined;
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

function finite(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function scalar(value: string): AttributeValue {
  if (value === 'true') return true;
  if (value === 'false') return false;
  const n = finite(value);
  return n !== undefined && /^-?\d+(\.\d+)?$/.test(value.trim()) ? n : value;
}

function toParams(query: OsmAndRequest['query']): Map<string, string> {
  const out = new Map<string, string>();
  if (query === undefined) return out;
  const params =
    typeof query === 'string'
      ? new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
      : query instanceof URLSearchParams
        ? query
        : new URLSearchParams(query);
  for (const [k, v] of params) out.set(k, v);
  return out;
}

function truthy(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(1|true|on)$/i.test(value)) return true;
  if (/^(0|false|off)$/i.test(value)) return false;
  return undefined;
}

const KNOWN = new Set([
  'id',
  'deviceid',
  'device_id',
  'valid',
  'timestamp',
  'lat',
  'lon',
  'location',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'accuracy',
  'hdop',
  'batt',
  'battery',
  'ignition',
  'event',
  'sat',
  'satellites',
]);

function fromParams(params: Map<string, string>, now: () => number): OsmAndResult {
  const id = params.get('id') ?? params.get('deviceid') ?? params.get('device_id');
  if (!id || !/^[\w.-]{1,64}$/.test(id))
    return { error: protocolError('bad_imei', 'missing or invalid device id') };
  let lat = finite(params.get('lat'));
  let lon = finite(params.get('lon'));
  const location = params.get('location');
  if ((lat === undefined || lon === undefined) && location) {
    const [a, b] = location.split(',');
    lat = finite(a);
    lon = finite(b);
  }
  if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    return { error: protocolError('malformed', 'missing or invalid lat/lon') };
  }
  const ts = params.get('timestamp');
  const fixTime = ts === undefined ? now() : parseTimestamp(ts);
  if (fixTime === undefined) return { error: protocolError('malformed', `invalid timestamp ${ts}`) };
  const io = newIoMap();
  const attributes: Record<string, AttributeValue> = {};
  const batt = finite(params.get('batt') ?? params.get('battery'));
  if (batt !== undefined) io[113] = batt;
  const ignition = truthy(params.get('ignition'));
  if (ignition !== undefined) io[239] = ignition ? 1 : 0;
  const accuracy = finite(params.get('accuracy'));
  if (accuracy !== undefined) attributes['accuracy'] = accuracy;
  for (const [k, v] of params) if (!KNOWN.has(k)) attributes[k] = scalar(v);
  const record: DecodedRecord = {
    imei: id,
    protocol: 'osmand',
    fixTime,
    valid: truthy(params.get('valid')) ?? true,
    latitude: lat,
    longitude: lon,
    altitude: finite(params.get('altitude')) ?? 0,
    speed: knotsToKmh(finite(params.get('speed')) ?? 0), // OsmAnd speed is in knots
    course: finite(params.get('bearing') ?? params.get('heading')) ?? 0,
    satellites: finite(params.get('sat') ?? params.get('satellites')) ?? 0,
    eventId: 0,
    io,
  };
  const hdop = finite(params.get('hdop'));
  if (hdop !== undefined) record.hdop = hdop;
  if (Object.keys(attributes).length > 0) record.attributes = attributes;
  return { record };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function obj(v: Json | undefined): Record<string, Json> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

function jsonNumber(v: Json | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Traccar Client JSON form: `{device_id, location: {timestamp, coords: {...}, battery, is_moving}}`. */
function fromJson(doc: Json, now: () => number): OsmAndResult {
  const root = obj(doc);
  const location = obj(root?.['location']);
  const coords = obj(location?.['coords']);
  const id = root?.['device_id'];
  if (typeof id !== 'string' || !/^[\w.-]{1,64}$/.test(id)) {
    return { error: protocolError('bad_imei', 'missing or invalid device_id') };
  }
  const lat = jsonNumber(coords?.['latitude']);
  const lon = jsonNumber(coords?.['longitude']);
  if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    return { error: protocolError('malformed', 'missing or invalid coords') };
  }
  const ts = location?.['timestamp'];
  const fixTime = typeof ts === 'string' ? parseTimestamp(ts) : typeof ts === 'number' ? ts : now();
  if (fixTime === undefined) return { error: protocolError('malformed', 'invalid timestamp') };
  const io = newIoMap();
  const attributes: Record<string, AttributeValue> = {};
  const battery = obj(location?.['battery']);
  const level = jsonNumber(battery?.['level']);
  if (level !== undefined) io[113] = Math.round(level * 100);
  if (typeof battery?.['is_charging'] === 'boolean') attributes['charge'] = battery['is_charging'];
  if (typeof location?.['is_moving'] === 'boolean') attributes['motion'] = location['is_moving'];
  const accuracy = jsonNumber(coords?.['accuracy']);
  if (accuracy !== undefined) attributes['accuracy'] = accuracy;
  const speedMs = jsonNumber(coords?.['speed']);
  const record: DecodedRecord = {
    imei: id,
    protocol: 'osmand',
    fixTime,
    valid: true,
    latitude: lat,
    longitude: lon,
    altitude: jsonNumber(coords?.['altitude']) ?? 0,
    speed: speedMs !== undefined && speedMs > 0 ? speedMs * 3.6 : 0, // m/s in the JSON form
    course: Math.max(0, jsonNumber(coords?.['heading']) ?? 0),
    satellites: 0,
    eventId: 0,
    io,
  };
  if (Object.keys(attributes).length > 0) record.attributes = attributes;
  return { record };
}

/**
 * Parses an OsmAnd protocol request (what Traccar Client and OsmAnd send to port 5055) into a record:
 * query parameters (`id`, `lat`, `lon`, `timestamp`, `speed` in knots, `bearing`, `altitude`, `hdop`,
 * `batt`, `ignition`, anything else as an attribute), a form-encoded body, or the JSON body. Never
 * throws; bad requests get a typed error (answer HTTP 400).
 */
export function parseOsmAndRequest(request: OsmAndRequest, options: OsmAndOptions = {}): OsmAndResult {
  const now = options.now ?? Date.now;
  const body = request.body ?? '';
  if (body.length > OSMAND_MAX_BODY_SIZE)
    return { error: protocolError('frame_too_large', 'request body too large') };
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || /json/i.test(request.contentType ?? '')) {
    let doc: Json;
    try {
      doc = JSON.parse(trimmed) as Json;
    } catch {
      return { error: protocolError('malformed', 'body is not valid JSON') };
    }
    return fromJson(doc, now);
  }
  const params = toParams(request.query);
  if (trimmed !== '') for (const [k, v] of toParams(trimmed)) if (!params.has(k)) params.set(k, v);
  return fromParams(params, now);
}
