import type { ProtocolError } from './common/errors';

/** Device types of the product (spec §3) plus the two generic transports. */
export const deviceTypes = ['teltonika', 'ruptela', 'gosafe', 'door_technologies', 'istartek'] as const;
export type DeviceType = (typeof deviceTypes)[number];

export type ProtocolName = 'teltonika' | 'ruptela' | 'gosafe' | 'istartek' | 'osmand' | 'mqtt';

/** One IO element value: integers as numbers (bigint beyond 2^53), variable-length data as bytes. */
export type IoValue = number | bigint | string | Uint8Array;

/** Derived, protocol-specific named values (driver id, BLE tag readings, command result, ...). */
export type AttributeValue = string | number | boolean;

/**
 * The common decoded record every codec produces.
 *
 * - `fixTime` is milliseconds since the Unix epoch (UTC).
 * - `speed` is km/h (Traccar stores knots; we do not).
 * - `valid` false means the device had no GPS fix for this record; latitude/longitude are then the
 *   device's last known values or 0 (GH3000 records without a location block, Ruptela records with
 *   the "no position" marker): consumers keep their previous coordinates (spec §4, live updates).
 * - `io` is keyed by the device's numeric IO id (Teltonika AVL ids, Ruptela parameter ids). Text
 *   protocols (GoSafe, iStartek, OsmAnd) and Ruptela map their fields onto the spec's ids (see
 *   {@link IO}); Ruptela's native ids are kept in `deviceIo`.
 */
export interface DecodedRecord {
  imei: string;
  protocol: ProtocolName;
  fixTime: number;
  valid: boolean;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  satellites: number;
  hdop?: number;
  priority?: number;
  eventId: number;
  io: Record<number, IoValue>;
  /**
   * The device's own parameter list, keyed by its native ids, for protocols whose numbering differs
   * from the spec's (Ruptela). Known parameters are also translated into `io`.
   */
  deviceIo?: Record<number, IoValue>;
  attributes?: Record<string, AttributeValue>;
}

/** A command answer coming back from a device (Codec 12/13, Ruptela responses, iStartek replies). */
export interface CommandResponse {
  imei: string;
  protocol: ProtocolName;
  /** Printable answers as text (trimmed), others as lower-case hex. */
  text: string;
  isHex: boolean;
  /** Protocol-specific type of the answer (Teltonika type 0x06, Ruptela command id, iStartek type). */
  responseType: number | string;
  /** Device time of the answer (Codec 13 only). */
  deviceTime?: number;
  attributes?: Record<string, AttributeValue>;
}

export type DecodedMessage =
  | {
      type: 'identification';
      protocol: ProtocolName;
      imei: string;
      attributes?: Record<string, AttributeValue>;
    }
  | { type: 'heartbeat'; protocol: ProtocolName; imei?: string }
  | { type: 'records'; protocol: ProtocolName; imei: string; records: DecodedRecord[] }
  | { type: 'command-response'; response: CommandResponse }
  | { type: 'ignored'; protocol: ProtocolName; imei?: string; reason: string }
  /**
   * A complete frame (its boundaries and checksum are sound) whose content the decoder cannot read:
   * an unknown layout or a bad field. It is consumed, never acknowledged (no reply covers it), and the
   * gateway keeps `frame` in the raw-frame archive so a later decoder can replay it. A frame is either
   * decoded whole or reported here whole: never half-decoded.
   */
  | { type: 'undecodable'; protocol: ProtocolName; imei?: string; frame: Uint8Array; reason: string };

/**
 * What every stream decoder returns. `consumed` bytes may be dropped by the caller; with a partial frame
 * it is 0 (buffer and call again with more bytes). `reply` is what the server writes back (ACKs), to be
 * sent only after the messages are durably stored. With `error` the connection should be closed;
 * messages decoded before the bad frame are still returned (and `consumed` covers only them).
 */
export interface DecodeResult {
  consumed: number;
  messages: DecodedMessage[];
  reply?: Uint8Array;
  error?: ProtocolError;
}

/** IO element ids of the spec (§3) shared by all protocols. */
export const IO = {
  digitalInput1: 1,
  digitalInput2: 2,
  analogInput: 9,
  odometer: 16,
  gsmSignal: 21,
  temperature: 25,
  batteryVoltage: 67,
  batteryCurrent: 68,
  speed: 81,
  fuelConsumed: 83,
  fuelLitres: 84,
  engineRpm: 85,
  humidity: 86,
  totalMileage: 87,
  fuelLevel: 89,
  doorStatus: 90,
  batteryLevel: 113,
  digitalOutput1: 179,
  digitalOutput2: 180,
  sleepMode: 200,
  ignition: 239,
  /** Teltonika "external voltage" (mV); 0 or near 0 means the tracker was unplugged from power. */
  externalVoltage: 66,
  emergencyButton: 251,
} as const;

function ioNumber(record: Pick<DecodedRecord, 'io'>, id: number): number | undefined {
  const v = record.io[id];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Ignition from IO 239: true/false, or undefined when the record does not carry it. */
export function ignitionOf(record: Pick<DecodedRecord, 'io'>): boolean | undefined {
  const v = ioNumber(record, IO.ignition);
  return v === undefined ? undefined : v !== 0;
}

/** Digital output 1 / 2 (IO 179 / 180) as 0/1, undefined when absent. */
export function digitalOutputOf(record: Pick<DecodedRecord, 'io'>, output: 1 | 2): 0 | 1 | undefined {
  const v = ioNumber(record, output === 1 ? IO.digitalOutput1 : IO.digitalOutput2);
  return v === undefined ? undefined : v !== 0 ? 1 : 0;
}

/** Emergency button (IO 251) pressed. */
export function emergencyOf(record: Pick<DecodedRecord, 'io'>): boolean | undefined {
  const v = ioNumber(record, IO.emergencyButton);
  return v === undefined ? undefined : v !== 0;
}

/**
 * Power cut / unplugged: Teltonika external voltage (IO 66, mV) below `thresholdMv` (default 5 V,
 * below any vehicle battery), or an explicit `powerCut` attribute set by a decoder.
 */
export function unpluggedOf(
  record: Pick<DecodedRecord, 'io' | 'attributes'>,
  thresholdMv = 5000,
): boolean | undefined {
  const flag = record.attributes?.['powerCut'];
  if (typeof flag === 'boolean') return flag;
  const mv = ioNumber(record, IO.externalVoltage);
  return mv === undefined ? undefined : mv < thresholdMv;
}

/**
 * Idle = engine on but not moving: ignition on and speed under `maxSpeedKmh` (default 3 km/h, GPS
 * jitter). Undefined without ignition information.
 */
export function isIdle(record: Pick<DecodedRecord, 'io' | 'speed'>, maxSpeedKmh = 3): boolean | undefined {
  const ign = ignitionOf(record);
  if (ign === undefined) return undefined;
  return ign && record.speed < maxSpeedKmh;
}

const DIGITS = /^\d+$/;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * The one serialisation of a record's IO: the `io_elements` JSON of the spec's location record
 * (`{"<id>":{"value":v}}`), integers as numbers, bigint as a decimal string, bytes as hex, a non-finite
 * number as null. The gateway stores this text as it is (the jsonb column) and the live message carries
 * the same values; nothing else writes IO as JSON.
 *
 * Written by hand rather than `JSON.stringify` of an object: the gateway calls it once per record on
 * its hottest path, and one flat string is one allocation where the object would be ~20 (see
 * toLocationInput in the server's gateway/records.ts for the measurement behind that). The text is
 * grown in one string with each id's `"<id>":{"value":` built once, not as parts joined at the end.
 */
export function ioElementsJson(io: Record<number, IoValue>): string {
  let out = '{';
  for (const key in io) {
    const v = io[key as unknown as number];
    if (v === undefined) continue;
    let text: string;
    if (typeof v === 'number') text = Number.isFinite(v) ? String(v) : 'null';
    else if (typeof v === 'bigint') text = `"${v.toString()}"`;
    else if (typeof v === 'string') text = JSON.stringify(v);
    else {
      let hex = '';
      for (const b of v) hex += HEX[b];
      text = `"${hex}"`;
    }
    if (out.length > 1) out += ',';
    out += keyPrefix(key) + text + '}';
  }
  return out + '}';
}

/** `"<id>":{"value":` of each IO id seen, built once (the ids of a fleet are a few dozen). */
const PREFIXES = new Map<string, string>();
function keyPrefix(key: string): string {
  let p = PREFIXES.get(key);
  if (p === undefined) {
    p = `${DIGITS.test(key) ? `"${key}"` : JSON.stringify(key)}:{"value":`;
    // Bounded: ids come from devices, and a forged frame can carry 65,536 different ones.
    if (PREFIXES.size < 4096) PREFIXES.set(key, p);
  }
  return p;
}

/** An element index far past any IO id (see {@link newIoMap}). */
const SPARSE_INDEX = 1 << 24;

/**
 * An empty IO map for a decoder to fill. IO ids are integers, which V8 keeps as array elements: set in
 * a device's order (239, then 16, 84, 66) a plain `{}` grows a holey element store up to the highest
 * id, ~3 KB per record for four values (measured with --expose-gc over 20,000 objects), and `for...in`
 * walks every hole. Touching an index far past the end first turns the store into a dictionary, which
 * stays one when that index is deleted: ~300 bytes for the same four values, and `for...in` 3-5x
 * faster. Keys, values and their (ascending) order are the same either way.
 */
export function newIoMap(): Record<number, IoValue> {
  const io: Record<number, IoValue> = {};
  (io as Record<number, IoValue | null>)[SPARSE_INDEX] = null;
  delete io[SPARSE_INDEX];
  return io;
}

/** Knots to km/h (the OsmAnd protocol reports knots). */
export function knotsToKmh(knots: number): number {
  return knots * 1.852;
}
