// Ruptela command-1 and command-68 records written byte by byte after Ruptela's public protocol
// description: length u16, IMEI u64, command, records left, count, then per record time u32, time
// extension, [record extension (68)], priority, lon/lat i32 (1e-7 deg), alt u16 (0.1 m), angle u16
// (0.01 deg), satellites, speed u16, HDOP (0.1), event id (u8; u16 in 68), and IO groups of 1/2/4/8-byte
// values (ids u8; u16 in 68), then CRC-16/KERMIT big-endian over everything after the length.
import { describe, expect, it } from 'vitest';
import type { DecodedRecord } from '../records';
import { createRuptelaSession } from '.';

function kermit(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc & 0xffff;
}

const be = (n: number, size: number) =>
  Array.from({ length: size }, (_, i) => (n >>> ((size - 1 - i) * 8)) & 0xff);
const IMEI = 868204005544720n;
const imeiBytes = Array.from({ length: 8 }, (_, i) => Number((IMEI >> BigInt((7 - i) * 8)) & 0xffn));

function frame(command: number, body: number[]): Uint8Array {
  const inner = [...imeiBytes, command, ...body];
  return Uint8Array.from([...be(inner.length, 2), ...inner, ...be(kermit(inner), 2)]);
}

const T = Date.UTC(2026, 10, 25, 10, 0, 0) / 1000;
const position = [
  ...be(Math.round(55.18072 * 1e7), 4), // lon
  ...be(Math.round(25.07836 * 1e7), 4), // lat
  ...be(125, 2), // 12.5 m
  ...be(27500, 2), // 275.00 deg
  11, // satellites
  ...be(42, 2), // km/h
  9, // HDOP 0.9
];

function records(bytes: Uint8Array): DecodedRecord[] {
  const r = createRuptelaSession().decode(bytes);
  expect(r.error).toBeUndefined();
  return r.messages.flatMap((m) => (m.type === 'records' ? m.records : []));
}

describe('ruptela inputs', () => {
  it('command 1: DIN1-4 (parameters 2-5) and AIN1-4 (22-25) are kept under the common input ids', () => {
    const body = [
      0, // records left
      1, // count
      ...be(T, 4),
      0, // time extension
      0, // priority
      ...position,
      7, // event id
      4,
      ...[2, 0],
      ...[3, 1],
      ...[4, 0],
      ...[5, 1], // 1-byte: DIN1..DIN4
      4,
      ...[22, ...be(12000, 2)],
      ...[23, ...be(3300, 2)],
      ...[24, ...be(0, 2)],
      ...[25, ...be(5000, 2)],
      1,
      ...[29, ...be(27900, 4)], // 4-byte: external power (mV)
      0, // 8-byte group
    ];
    const [rec] = records(frame(1, body));
    expect(rec).toMatchObject({ fixTime: T * 1000, latitude: 25.07836, longitude: 55.18072, speed: 42 });
    expect(rec?.io).toMatchObject({
      1: 0,
      2: 1,
      3: 0,
      4: 1,
      9: 12000,
      10: 3300,
      11: 0,
      245: 5000,
      66: 27900,
    });
    // Command-1 records cannot carry parameter 409: ignition is left to the device's sensor setting.
    expect(rec?.io[239]).toBeUndefined();
    expect(rec?.deviceIo).toMatchObject({ 2: 0, 3: 1, 4: 0, 5: 1 });
  });

  it('command 68 (extended): 2-byte ids, DIN4 and ignition 409 both kept', () => {
    const body = [
      0,
      1,
      ...be(T, 4),
      0,
      0, // record extension
      0,
      ...position,
      ...be(7, 2),
      3,
      ...be(5, 2),
      1,
      ...be(4, 2),
      1,
      ...be(409, 2),
      1, // 1-byte: DIN4, DIN3, ignition
      0,
      0,
      0,
    ];
    const [rec] = records(frame(68, body));
    expect(rec?.io).toMatchObject({ 3: 1, 4: 1, 239: 1 });
  });
});
