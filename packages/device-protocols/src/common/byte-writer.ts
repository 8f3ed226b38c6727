import { ProtocolEncodeError } from './errors';

/** Growable big-endian writer used by the encoders (ACKs, commands, simulator frames). */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
    return this;
  }

  i16(v: number): this {
    this.ensure(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.length, v >>> 0);
    this.length += 4;
    return this;
  }

  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
    return this;
  }

  /** Unsigned 64-bit from a non-negative safe integer or a bigint. */
  u64(v: number | bigint): this {
    const big = typeof v === 'bigint' ? v : BigInt(v);
    if (big < 0n || big > 0xffff_ffff_ffff_ffffn) {
      throw new ProtocolEncodeError('invalid_argument', `value ${String(v)} does not fit in 64 bits`);
    }
    this.u32(Number(big >> 32n));
    this.u32(Number(big & 0xffff_ffffn));
    return this;
  }

  i64(v: number): this {
    return this.u64(BigInt.asUintN(64, BigInt(v)));
  }

  f32(v: number): this {
    this.ensure(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
    return this;
  }

  bytes(data: Uint8Array): this {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
    return this;
  }

  /** Overwrites a big-endian uint32 at an absolute position already written. */
  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0);
  }

  patchU16(at: number, v: number): void {
    this.view.setUint16(at, v);
  }

  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  subarray(from: number, to = this.length): Uint8Array {
    return this.buf.subarray(from, to);
  }
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
