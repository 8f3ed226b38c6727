import { ByteReader } from '../common/byte-reader';
import type { ByteWriter } from '../common/byte-writer';
import { ProtocolEncodeError, ProtocolFault } from '../common/errors';
import { newIoMap, type AttributeValue, type DecodedRecord, type IoValue } from '../records';
import { BLE_IO_IDS, decodeBleTags } from './ble';
import {
  CODEC_16,
  CODEC_8,
  CODEC_8E,
  CODEC_GH3000,
  GH3000_EPOCH_SECONDS,
  type TeltonikaAvlCodec,
} from './constants';

/** Options that change how AVL records are read (mirrors Traccar's per-device settings). */
export interface TeltonikaRecordOptions {
  /**
   * Device model (e.g. `FMB130`). With an FM* model, IO 10800-10803 are also exposed as
   * `eyeTemp1..4` attributes (signed 0.01 °C), as Traccar does with `modelOverride`.
   */
  model?: string;
  /** The device sends an extra 16-byte IO group after the 8-byte group (Traccar `teltonika.extended`). */
  extendedIo16?: boolean;
}

function readGh3000Record(r: ByteReader, imei: string): DecodedRecord {
  const raw = r.u32();
  const fixTime = ((raw & 0x3fffffff) + GH3000_EPOCH_SECONDS) * 1000;
  const priority = raw >>> 30;
  const globalMask = r.u8();
  const io = newIoMap();
  const record: DecodedRecord = {
    imei,
    protocol: 'teltonika',
    fixTime,
    valid: false,
    latitude: 0,
    longitude: 0,
    altitude: 0,
    speed: 0,
    course: 0,
    satellites: 0,
    priority,
    eventId: 0,
    io,
  };
  if (globalMask & 0x01) {
    const locationMask = r.u8();
    if (locationMask & 0x01) {
      record.latitude = r.f32();
      record.longitude = r.f32();
      record.valid =
        Number.isFinite(record.latitude) &&
        Number.isFinite(record.longitude) &&
        Math.abs(record.latitude) <= 90 &&
        Math.abs(record.longitude) <= 180;
      if (!record.valid) {
        record.latitude = 0;
        record.longitude = 0;
      }
    }
    if (locationMask & 0x02) record.altitude = r.u16();
    if (locationMask & 0x04) record.course = (r.u8() * 360) / 256;
    if (locationMask & 0x08) record.speed = r.u8();
    if (locationMask & 0x10) record.satellites = r.u8();
    const attributes: Record<string, AttributeValue> = {};
    if (locationMask & 0x20) {
      attributes['lac'] = r.u16();
      attributes['cid'] = r.u16();
    }
    if (locationMask & 0x40) io[21] = r.u8();
    if (locationMask & 0x80) attributes['operator'] = r.u32();
    if (locationMask & 0xa0) record.attributes = attributes;
  }
  for (let bit = 1, size = 1; bit <= 3; bit++, size *= 2) {
    if (!(globalMask & (1 << bit))) continue;
    const count = r.u8();
    for (let j = 0; j < count; j++) {
      const id = r.u8();
      io[id] = size === 1 ? r.u8() : size === 2 ? r.u16() : r.u32();
    }
  }
  return record;
}

/**
 * Reads one AVL record of Codec 8, 8 Extended or 16. Width rules: Codec 8 uses 1-byte event id, counts
 * and IO ids; 8E uses 2 bytes for all of them plus the NX group; Codec 16 uses 2-byte event and IO ids,
 * 1-byte counts and one generation-type byte after the event id.
 */
function readRecord(
  r: ByteReader,
  codec: number,
  imei: string,
  options: TeltonikaRecordOptions,
): DecodedRecord {
  if (codec === CODEC_GH3000) return readGh3000Record(r, imei);
  const ext = codec === CODEC_8E;
  const wideIds = ext || codec === CODEC_16;
  r.need(24, 'AVL record header');
  const view = r.view;
  let p = r.pos;
  const fixTime = view.getInt32(p) * 0x1_0000_0000 + view.getUint32(p + 4);
  const priority = view.getUint8(p + 8);
  const longitude = view.getInt32(p + 9) / 1e7;
  const latitude = view.getInt32(p + 13) / 1e7;
  const altitude = view.getInt16(p + 17);
  const course = view.getUint16(p + 19);
  const satellites = view.getUint8(p + 21);
  const speed = view.getUint16(p + 22);
  p += 24;
  r.pos = p;
  const eventId = wideIds ? r.u16() : r.u8();
  let attributes: Record<string, AttributeValue> | undefined;
  if (codec === CODEC_16) attributes = { generationType: r.u8() };
  if (ext) r.u16();
  else r.u8(); // total IO count (not trusted; the per-group counts drive the walk)

  const io = newIoMap();
  for (let size = 1; size <= 8; size *= 2) {
    const count = ext ? r.u16() : r.u8();
    if (count === 0) continue;
    const entry = (wideIds ? 2 : 1) + size;
    r.need(count * entry, 'IO element group');
    let q = r.pos;
    for (let j = 0; j < count; j++) {
      let id: number;
      if (wideIds) {
        id = view.getUint16(q);
        q += 2;
      } else {
        id = view.getUint8(q);
        q += 1;
      }
      if (size === 1) io[id] = view.getUint8(q);
      else if (size === 2) io[id] = view.getUint16(q);
      else if (size === 4) io[id] = view.getUint32(q);
      else {
        const hi = view.getUint32(q);
        const lo = view.getUint32(q + 4);
        io[id] = hi < 0x20_0000 ? hi * 0x1_0000_0000 + lo : (BigInt(hi) << 32n) | BigInt(lo);
      }
      q += size;
    }
    r.pos = q;
  }
  if (options.extendedIo16) {
    const count = ext ? r.u16() : r.u8();
    for (let j = 0; j < count; j++) {
      const id = wideIds ? r.u16() : r.u8();
      io[id] = r.copy(16, 'IO element of 16 bytes');
    }
  }
  if (ext) {
    const count = r.u16();
    let tagIndex = 1;
    for (let j = 0; j < count; j++) {
      const id = r.u16();
      const len = r.u16();
      const value = r.copy(len, `NX IO element ${id}`);
      io[id] = value;
      if (id === 256 || id === 281) {
        // VIN and OBD fault codes arrive as ASCII text (DTCs comma-separated).
        attributes ??= {};
        let text = '';
        for (let k = 0; k < value.length; k++) text += String.fromCharCode(value[k] as number);
        if (id === 256) attributes['vin'] = text;
        else attributes['dtcs'] = text.replace(/,/g, ' ');
      } else if (BLE_IO_IDS.has(id)) {
        attributes ??= {};
        tagIndex = decodeBleTags(value, attributes, tagIndex);
      }
    }
  }
  if (options.model && /^FM/i.test(options.model)) {
    for (let n = 0; n < 4; n++) {
      const v = io[10800 + n];
      if (typeof v === 'number' && v <= 0xffff) {
        attributes ??= {};
        attributes[`eyeTemp${n + 1}`] = ((v << 16) >> 16) / 100;
      }
    }
  }
  const record: DecodedRecord = {
    imei,
    protocol: 'teltonika',
    fixTime,
    valid: satellites !== 0,
    latitude,
    longitude,
    altitude,
    speed,
    course,
    satellites,
    priority,
    eventId,
    io,
  };
  if (attributes) record.attributes = attributes;
  return record;
}

export function isAvlCodec(codec: number): boolean {
  return codec === CODEC_8 || codec === CODEC_8E || codec === CODEC_16 || codec === CODEC_GH3000;
}

/**
 * Decodes an AVL data field `codec count1 records... count2` spanning `[start, end)` of `bytes`.
 * Throws {@link ProtocolFault} (caught by the public decoders) on any structural problem: truncation,
 * count1 != count2, or bytes left between the last record and count2.
 */
export function decodeAvlRecords(
  bytes: Uint8Array,
  start: number,
  end: number,
  imei: string,
  options: TeltonikaRecordOptions = {},
): DecodedRecord[] {
  const r = new ByteReader(bytes, start, end);
  const codec = r.u8();
  if (!isAvlCodec(codec)) {
    throw new ProtocolFault('unsupported_codec', `codec 0x${codec.toString(16)} is not an AVL codec`, 0);
  }
  const count = r.u8();
  const records: DecodedRecord[] = new Array<DecodedRecord>(count);
  for (let i = 0; i < count; i++) records[i] = readRecord(r, codec, imei, options);
  const trailer = r.u8();
  if (trailer !== count) {
    throw new ProtocolFault(
      'count_mismatch',
      `record count ${count} but trailer says ${trailer}`,
      r.offset - 1,
    );
  }
  if (r.remaining !== 0) {
    throw new ProtocolFault(
      'bad_length',
      `${r.remaining} unexpected byte(s) after the record count`,
      r.offset,
    );
  }
  return records;
}

// ---------------------------------------------------------------------------------------------------
// Encoding (simulator, tests)

type SizeClass = 1 | 2 | 4 | 8 | 'nx';

function sizeClassOf(id: number, value: IoValue, codec: TeltonikaAvlCodec): SizeClass {
  if (value instanceof Uint8Array || typeof value === 'string') {
    if (codec !== CODEC_8E) {
      throw new ProtocolEncodeError(
        'invalid_argument',
        `IO ${id}: variable-length values need Codec 8 Extended`,
      );
    }
    return 'nx';
  }
  if (typeof value === 'bigint') return 8;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ProtocolEncodeError('invalid_argument', `IO ${id}: ${value} is not a non-negative integer`);
  }
  if (value <= 0xff) return 1;
  if (value <= 0xffff) return 2;
  if (value <= 0xffffffff) return 4;
  return 8;
}

function textBytes(value: string): Uint8Array {
  const out = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = value.charCodeAt(i) & 0xff;
  return out;
}

/** Writes the AVL data field (`codec count records count`) of the given records. */
export function writeAvlData(
  w: ByteWriter,
  records: readonly DecodedRecord[],
  codec: TeltonikaAvlCodec,
): void {
  if (records.length > 255)
    throw new ProtocolEncodeError('invalid_argument', 'at most 255 records per packet');
  const ext = codec === CODEC_8E;
  const wideIds = ext || codec === CODEC_16;
  const maxId = wideIds ? 0xffff : 0xff;
  w.u8(codec).u8(records.length);
  for (const rec of records) {
    if (!Number.isInteger(rec.eventId) || rec.eventId < 0 || rec.eventId > maxId) {
      throw new ProtocolEncodeError(
        'invalid_argument',
        `event id ${rec.eventId} does not fit codec ${codec}`,
      );
    }
    w.i64(Math.round(rec.fixTime));
    w.u8(rec.priority ?? 0);
    w.i32(Math.round(rec.longitude * 1e7));
    w.i32(Math.round(rec.latitude * 1e7));
    w.i16(Math.max(-32768, Math.min(32767, Math.round(rec.altitude))));
    w.u16(Math.round(rec.course) % 65536);
    w.u8(rec.valid ? Math.max(1, Math.min(255, rec.satellites)) : 0);
    w.u16(Math.max(0, Math.min(0xffff, Math.round(rec.speed))));
    if (wideIds) w.u16(rec.eventId);
    else w.u8(rec.eventId);
    if (codec === CODEC_16) {
      const gen = rec.attributes?.['generationType'];
      w.u8(typeof gen === 'number' ? gen : 0);
    }
    const groups: Record<string, Array<[number, IoValue]>> = { 1: [], 2: [], 4: [], 8: [], nx: [] };
    let total = 0;
    for (const key of Object.keys(rec.io)) {
      const id = Number(key);
      const value = rec.io[id];
      if (value === undefined) continue;
      if (id > maxId)
        throw new ProtocolEncodeError('invalid_argument', `IO id ${id} does not fit codec ${codec}`);
      (groups[String(sizeClassOf(id, value, codec))] as Array<[number, IoValue]>).push([id, value]);
      total += 1;
    }
    if (ext) w.u16(total);
    else w.u8(Math.min(total, 255));
    for (const size of [1, 2, 4, 8] as const) {
      const group = groups[String(size)] as Array<[number, IoValue]>;
      if (ext) w.u16(group.length);
      else w.u8(group.length);
      for (const [id, value] of group) {
        if (wideIds) w.u16(id);
        else w.u8(id);
        const n = value as number | bigint;
        if (size === 1) w.u8(Number(n));
        else if (size === 2) w.u16(Number(n));
        else if (size === 4) w.u32(Number(n));
        else w.u64(n);
      }
    }
    if (ext) {
      const group = groups['nx'] as Array<[number, IoValue]>;
      w.u16(group.length);
      for (const [id, value] of group) {
        const data = typeof value === 'string' ? textBytes(value) : (value as Uint8Array);
        if (data.length > 0xffff) throw new ProtocolEncodeError('invalid_argument', `IO ${id} is too long`);
        w.u16(id).u16(data.length).bytes(data);
      }
    }
  }
  w.u8(records.length);
}
