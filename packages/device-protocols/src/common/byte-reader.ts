import { ProtocolFault } from './errors';

const TWO_32 = 0x1_0000_0000;

/**
 * Big-endian reader over a `Uint8Array` window with bounds checks on every read. A read past the
 * window raises an internal {@link ProtocolFault} (`truncated`) that the decoder boundary turns into a
 * typed error, so no decoder ever indexes outside its frame or allocates from an unchecked length.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Absolute index of the next byte to read. */
  pos: number;
  /** Absolute index one past the last readable byte. */
  readonly end: number;
  private readonly start: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.start = start;
    this.pos = start;
    this.end = Math.min(end, bytes.length);
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Offset relative to the reader's window start (for error messages). */
  get offset(): number {
    return this.pos - this.start;
  }

  need(n: number, what = 'field'): void {
    if (n < 0 || this.pos + n > this.end) {
      throw new ProtocolFault(
        'truncated',
        `need ${n} byte(s) for ${what}, ${this.end - this.pos} left`,
        this.pos - this.start,
      );
    }
  }

  u8(): number {
    if (this.pos >= this.end) this.need(1);
    return this.view.getUint8(this.pos++);
  }

  i8(): number {
    if (this.pos >= this.end) this.need(1);
    return this.view.getInt8(this.pos++);
  }

  u16(): number {
    if (this.pos + 2 > this.end) this.need(2);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  i16(): number {
    if (this.pos + 2 > this.end) this.need(2);
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  i32(): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  /** Unsigned 64-bit value: a `number` while it is a safe integer, otherwise a `bigint`. */
  u64(): number | bigint {
    if (this.pos + 8 > this.end) this.need(8);
    const hi = this.view.getUint32(this.pos);
    const lo = this.view.getUint32(this.pos + 4);
    this.pos += 8;
    if (hi < 0x20_0000) return hi * TWO_32 + lo;
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** Signed 64-bit value as a number (used for millisecond timestamps, always far below 2^53). */
  i64AsNumber(): number {
    if (this.pos + 8 > this.end) this.need(8);
    const hi = this.view.getInt32(this.pos);
    const lo = this.view.getUint32(this.pos + 4);
    this.pos += 8;
    return hi * TWO_32 + lo;
  }

  f32(): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getFloat32(this.pos);
    this.pos += 4;
    return v;
  }

  /** A zero-copy view of the next `n` bytes (bounds-checked before anything is created). */
  slice(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A copy of the next `n` bytes (for values kept after the input buffer is reused). */
  copy(n: number, what = 'bytes'): Uint8Array {
    return this.slice(n, what).slice();
  }

  ascii(n: number, what = 'text'): string {
    return bytesToAscii(this.slice(n, what));
  }

  skip(n: number): void {
    this.need(n, 'skip');
    this.pos += n;
  }
}

/** Latin-1 / ASCII decoding without TextDecoder (works everywhere, never throws). */
export function bytesToAscii(bytes: Uint8Array): string {
  if (bytes.length <= 32) {
    let short = '';
    for (let i = 0; i < bytes.length; i++) short += String.fromCharCode(bytes[i] as number);
    return short;
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    // `apply` with a typed array avoids the cost of spreading it into an argument list.
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(bytes.length, i + 8192)) as unknown as number[],
    );
  }
  return out;
}

/** ASCII encoding; characters above 0xff are replaced by `?` (protocols here are 8-bit text). */
export function asciiToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c > 0xff ? 0x3f : c;
  }
  return out;
}
