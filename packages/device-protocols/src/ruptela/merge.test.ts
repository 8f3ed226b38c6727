import { describe, expect, it } from 'vitest';
import { toHex } from '../common/hex';
import type { DecodedRecord } from '../records';
import {
  createRuptelaSession,
  decodeRuptelaMessage,
  encodeRuptelaHeartbeat,
  encodeRuptelaIdentification,
  encodeRuptelaRecords,
} from '.';
import { RUPTELA_MAX_FRAME_SIZE } from './constants';
import { mapRuptelaIo, unmapRuptelaIo } from './io-map';

const IMEI = '863071016796572';

function rec(seconds: number, deviceIo: Record<number, number>): DecodedRecord {
  return {
    imei: IMEI,
    protocol: 'ruptela',
    fixTime: seconds * 1000,
    valid: true,
    latitude: 25.1,
    longitude: 55.2,
    altitude: 10,
    speed: 30,
    course: 90,
    satellites: 8,
    hdop: 0.9,
    priority: 0,
    eventId: 0,
    io: mapRuptelaIo(deviceIo),
    deviceIo,
  };
}

describe('ruptela extended records split over messages', () => {
  it('a first part at the end of a message is held back (ACK still sent) and merged with the next message', () => {
    const s = createRuptelaSession();
    const head = rec(1_700_000_000, { 2: 1, 29: 12_500 });
    const first = s.decode(encodeRuptelaRecords(IMEI, [head], { extended: true, recordExtensions: [0x10] }));
    expect(first.messages).toEqual([{ type: 'records', protocol: 'ruptela', imei: IMEI, records: [] }]);
    expect(toHex(first.reply as Uint8Array)).toBe('0002640113bc');
    const tail = rec(1_700_000_000, { 409: 1, 65: 5000 });
    const next = rec(1_700_000_010, { 2: 0 });
    const second = s.decode(
      encodeRuptelaRecords(IMEI, [tail, next], { extended: true, recordExtensions: [0x11, 0x00] }),
    );
    const msg = second.messages[0];
    expect(msg?.type).toBe('records');
    if (msg?.type !== 'records') return;
    expect(msg.records).toHaveLength(2);
    expect(msg.records[0]?.deviceIo).toEqual({ 2: 1, 29: 12_500, 409: 1, 65: 5000 });
    expect(msg.records[0]?.io).toEqual({ 1: 1, 66: 12_500, 239: 1, 16: 5000 });
    expect(msg.records[1]?.fixTime).toBe(1_700_000_010_000);
    expect(s.flush()).toEqual([]);
  });

  it('flush hands out a held part when the connection ends', () => {
    const s = createRuptelaSession();
    s.decode(encodeRuptelaRecords(IMEI, [rec(1, { 2: 1 })], { extended: true, recordExtensions: [0x20] }));
    expect(s.flush().map((r) => r.deviceIo)).toEqual([{ 2: 1 }]);
  });

  it('held-back parts are bounded per session (IMEI-hopping peers cannot grow memory)', () => {
    const s = createRuptelaSession();
    for (let i = 0; i < 40; i++) {
      const imei = String(863071016796000 + i);
      s.decode(
        encodeRuptelaRecords(imei, [{ ...rec(1, { 2: 1 }), imei }], {
          extended: true,
          recordExtensions: [0x10],
        }),
      );
    }
    expect(s.flush()).toHaveLength(16);
  });

  it('parts inside one message merge directly', () => {
    const r = createRuptelaSession().decode(
      encodeRuptelaRecords(IMEI, [rec(5, { 2: 1 }), rec(5, { 3: 1 }), rec(5, { 22: 7 })], {
        extended: true,
        recordExtensions: [0x20, 0x21, 0x22],
      }),
    );
    const msg = r.messages[0];
    expect(msg?.type === 'records' && msg.records.map((x) => x.deviceIo)).toEqual([{ 2: 1, 3: 1, 22: 7 }]);
  });
});

describe('ruptela framing and errors', () => {
  it('identification and heartbeat frames from the encoder are answered', () => {
    const s = createRuptelaSession();
    const r = s.decode(
      new Uint8Array([...encodeRuptelaIdentification(IMEI), ...encodeRuptelaHeartbeat(IMEI)]),
    );
    expect(r.messages.map((m) => m.type)).toEqual(['identification', 'heartbeat']);
    expect(r.reply?.length).toBe(12); // two 6-byte server frames (len, 100+cmd, 01, CRC)
  });

  it.each([
    ['length below minimum', Uint8Array.of(0, 3, 1, 2, 3), 'bad_length'],
    ['length beyond the limit', Uint8Array.of(0xff, 0xff), 'frame_too_large'],
  ])('%s -> %s', (_n, bytes, code) => {
    expect(createRuptelaSession().decode(bytes).error?.code).toBe(code);
  });

  it('a flipped payload bit is a CRC mismatch, and partial frames wait', () => {
    const frame = encodeRuptelaRecords(IMEI, [rec(1, { 2: 1 })]).slice();
    expect(createRuptelaSession().decode(frame.subarray(0, frame.length - 1))).toEqual({
      consumed: 0,
      messages: [],
    });
    frame[12] = (frame[12] as number) ^ 1;
    expect(createRuptelaSession().decode(frame).error?.code).toBe('crc_mismatch');
    expect(decodeRuptelaMessage(new Uint8Array(RUPTELA_MAX_FRAME_SIZE + 1)).error?.code).toBe(
      'frame_too_large',
    );
  });

  it('io map round trip', () => {
    expect(unmapRuptelaIo(mapRuptelaIo({ 2: 1, 197: 8000, 409: 1 }))).toEqual({ 2: 1, 197: 8000, 409: 1 });
  });
});
