import { describe, expect, it } from 'vitest';
import { asciiToBytes, ByteReader, bytesToAscii } from './byte-reader';
import { ByteWriter } from './byte-writer';
import { crc16Ibm, crc16Kermit } from './crc16';
import { ProtocolFault, toProtocolError } from './errors';
import { fromHex, isPrintableAscii, toHex, tryFromHex } from './hex';
import { createPrng } from './prng';

const CHECK = asciiToBytes('123456789');

describe('crc16', () => {
  it.each([
    ['IBM/ARC check value', crc16Ibm, CHECK, 0xbb3d],
    ['KERMIT check value', crc16Kermit, CHECK, 0x2189],
    ['IBM of nothing', crc16Ibm, new Uint8Array(0), 0],
    [
      'IBM of the setdigout command data field',
      crc16Ibm,
      fromHex('0c01050000000c7365746469676f757420313101'),
      0xbed5,
    ],
    ['KERMIT of a Ruptela server frame body', crc16Kermit, fromHex('6c20536574696f20322c31'), 0xeb3e],
  ])('%s', (_n, fn, data, expected) => {
    expect(fn(data)).toBe(expected);
  });

  it('honours start/end', () => {
    const framed = new Uint8Array([0xff, ...CHECK, 0xff]);
    expect(crc16Ibm(framed, 1, 10)).toBe(0xbb3d);
  });
});

describe('ByteReader', () => {
  it('reads big-endian values of every width', () => {
    const r = new ByteReader(
      fromHex('01 fffe 80000000 ffffffff 0000016c0a81c320 001fffffffffffff 0020000000000000 3f800000'),
    );
    expect(r.u8()).toBe(1);
    expect(r.i16()).toBe(-2);
    expect(r.i32()).toBe(-0x80000000);
    expect(r.u32()).toBe(0xffffffff);
    expect(r.i64AsNumber()).toBe(0x16c0a81c320);
    expect(r.u64()).toBe(Number.MAX_SAFE_INTEGER);
    expect(r.u64()).toBe(2n ** 53n);
    expect(r.f32()).toBe(1);
    expect(r.remaining).toBe(0);
  });

  it.each([
    ['u8', (r: ByteReader) => r.u8()],
    ['u16', (r: ByteReader) => r.u16()],
    ['u32', (r: ByteReader) => r.u32()],
    ['u64', (r: ByteReader) => r.u64()],
    ['slice', (r: ByteReader) => r.slice(5)],
    ['negative length', (r: ByteReader) => r.slice(-1)],
  ])('%s past the window raises a truncated fault (never reads outside)', (_n, read) => {
    const bytes = fromHex('0102030405060708');
    const r = new ByteReader(bytes, 4, 5);
    r.u8();
    let caught: unknown;
    try {
      read(r);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ProtocolFault);
    expect(toProtocolError(caught)).toMatchObject({ code: 'truncated' });
  });

  it('toProtocolError reports unexpected exceptions as malformed', () => {
    expect(toProtocolError(new TypeError('boom'))).toEqual({
      code: 'malformed',
      message: 'decoder failure: boom',
    });
  });
});

describe('ByteWriter and hex helpers', () => {
  it('grows and patches', () => {
    const w = new ByteWriter(2);
    w.u32(0)
      .u16(0xabcd)
      .i16(-1)
      .u64(2n ** 60n)
      .i64(-2)
      .f32(1);
    w.patchU32(0, 0x01020304);
    expect(toHex(w.toBytes())).toBe('01020304abcdffff1000000000000000fffffffffffffffe3f800000');
    expect(() => new ByteWriter().u64(-1n)).toThrow(/64 bits/);
  });

  it.each([
    ['00ff10', true],
    ['0', false],
    ['zz', false],
    ['', true],
  ])('tryFromHex(%j) valid: %s', (text, ok) => {
    expect(tryFromHex(text) !== undefined).toBe(ok);
  });

  it('ascii conversions and printable check', () => {
    const long = 'x'.repeat(20_000);
    expect(bytesToAscii(asciiToBytes(long))).toBe(long);
    expect(bytesToAscii(asciiToBytes('GTSL|1'))).toBe('GTSL|1');
    expect(asciiToBytes('é€')).toEqual(Uint8Array.of(0xe9, 0x3f));
    expect(isPrintableAscii(asciiToBytes('OK\r\n'))).toBe(true);
    expect(isPrintableAscii(Uint8Array.of(0x01))).toBe(false);
  });

  it('prng is deterministic per seed', () => {
    const a = createPrng(5);
    const b = createPrng(5);
    expect(Array.from({ length: 5 }, () => a.int(0, 1000))).toEqual(
      Array.from({ length: 5 }, () => b.int(0, 1000)),
    );
  });
});
