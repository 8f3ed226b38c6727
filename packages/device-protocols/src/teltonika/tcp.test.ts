import { describe, expect, it } from 'vitest';
import { crc16Ibm } from '../common/crc16';
import { fromHex, toHex } from '../common/hex';
import type { DecodedRecord } from '../records';
import { encodeTeltonikaCommand, encodeTeltonikaCommandResponse } from './codec12';
import { CODEC_8, CODEC_8E, TELTONIKA_MAX_FRAME_SIZE } from './constants';
import {
  createTeltonikaSession,
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  teltonikaHandshakeReply,
  teltonikaTcpAck,
} from './tcp';
import { decodeTeltonikaUdp, encodeTeltonikaUdp, teltonikaUdpAck } from './udp';

const IMEI = '356307042441013';

function record(overrides: Partial<DecodedRecord> = {}): DecodedRecord {
  return {
    imei: IMEI,
    protocol: 'teltonika',
    fixTime: Date.UTC(2026, 10, 21, 3, 0, 0),
    valid: true,
    latitude: 25.2048,
    longitude: 55.2708,
    altitude: 12,
    speed: 42,
    course: 180,
    satellites: 9,
    priority: 0,
    eventId: 0,
    io: { 239: 1, 66: 12_800, 179: 0, 16: 123_456 },
    ...overrides,
  };
}

function identified() {
  const s = createTeltonikaSession();
  s.decode(encodeTeltonikaImei(IMEI));
  return s;
}

describe('teltonika TCP framing', () => {
  it('handshake reply bytes and ACKs', () => {
    expect(toHex(teltonikaHandshakeReply(true))).toBe('01');
    expect(toHex(teltonikaHandshakeReply(false))).toBe('00');
    expect(toHex(teltonikaTcpAck(2))).toBe('00000002');
    expect(toHex(teltonikaUdpAck(0xcafe, 0x22, 1))).toBe('0005cafe012201');
  });

  it('a frame fed one byte at a time is decoded once, when complete', () => {
    const s = identified();
    const frame = encodeTeltonikaAvl([record(), record({ fixTime: record().fixTime + 1000 })], CODEC_8E);
    for (let n = 1; n < frame.length; n++) expect(s.decode(frame.subarray(0, n)).consumed).toBe(0);
    const done = s.decode(frame);
    expect(done.consumed).toBe(frame.length);
    expect(toHex(done.reply as Uint8Array)).toBe('00000002');
  });

  it('several frames in one read: all decoded, ACKs concatenated in order', () => {
    const s = createTeltonikaSession();
    const a = encodeTeltonikaAvl([record()], CODEC_8);
    const b = encodeTeltonikaAvl([record(), record(), record()], CODEC_8E);
    const input = new Uint8Array([...encodeTeltonikaImei(IMEI), 0xff, ...a, ...b, ...a.subarray(0, 10)]);
    const r = s.decode(input);
    expect(r.messages.map((m) => m.type)).toEqual(['identification', 'heartbeat', 'records', 'records']);
    expect(toHex(r.reply as Uint8Array)).toBe('0000000100000003');
    expect(r.consumed).toBe(input.length - 10);
  });

  it.each([
    [
      'data before the handshake',
      () => createTeltonikaSession(),
      encodeTeltonikaAvl([record()]),
      'not_identified',
    ],
    ['non-zero preamble', identified, fromHex('0000000100000010'), 'bad_preamble'],
    ['early non-zero preamble byte', identified, fromHex('000001'), 'bad_preamble'],
    ['absurd IMEI length', () => createTeltonikaSession(), fromHex('0100'), 'bad_imei'],
    ['IMEI with letters', () => createTeltonikaSession(), fromHex('0003414243'), 'bad_imei'],
    [
      'unknown codec',
      identified,
      fromHex(`00000000000000030e00000000${crc16Ibm(fromHex('0e0000')).toString(16).padStart(4, '0')}`),
      'unsupported_codec',
    ],
  ])('%s -> %s', (_n, make, bytes, code) => {
    const r = make().decode(bytes);
    expect(r.error?.code).toBe(code);
    expect(r.reply).toBeUndefined();
  });

  it('a declared length beyond the frame limit is refused at once, before buffering', () => {
    const header = fromHex('00000000');
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, TELTONIKA_MAX_FRAME_SIZE);
    const r = identified().decode(new Uint8Array([...header, ...len]));
    expect(r.error?.code).toBe('frame_too_large');
  });

  it('count mismatch and trailing garbage inside the data field are errors', () => {
    const frame = encodeTeltonikaAvl([record()], CODEC_8E).slice();
    frame[frame.length - 5] = 2; // count2
    expect(
      createTeltonikaSession({ verifyCrc: false }).decode(
        new Uint8Array([...encodeTeltonikaImei(IMEI), ...frame]),
      ).error?.code,
    ).toBe('count_mismatch');
  });

  it('codec 12 command out and response in; no ACK for responses', () => {
    expect(toHex(encodeTeltonikaCommand('setdigout 11'))).toBe(
      '00000000000000140c01050000000c7365746469676f7574203131010000bed5',
    );
    const r = identified().decode(encodeTeltonikaCommandResponse('DOUT1:1 DOUT2:1'));
    expect(r.messages).toEqual([
      {
        type: 'command-response',
        response: {
          imei: IMEI,
          protocol: 'teltonika',
          text: 'DOUT1:1 DOUT2:1',
          isHex: false,
          responseType: 6,
        },
      },
    ]);
    expect(r.reply).toBeUndefined();
    expect(() => encodeTeltonikaCommand('')).toThrow(/empty/);
  });

  it('encoders refuse what the codec cannot carry', () => {
    expect(() => encodeTeltonikaAvl([record({ io: { 300: 1 } })], CODEC_8)).toThrow(/does not fit/);
    expect(() => encodeTeltonikaAvl([record({ io: { 1: Uint8Array.of(1) } })], CODEC_8)).toThrow(/Extended/);
    expect(() => encodeTeltonikaAvl([record({ io: { 1: -1 } })], CODEC_8E)).toThrow(/non-negative/);
  });
});

describe('teltonika UDP', () => {
  it.each([
    ['length field wrong', (b: Uint8Array) => (b[1] = (b[1] as number) + 1), 'bad_length'],
    ['IMEI length zero', (b: Uint8Array) => ((b[6] = 0), (b[7] = 0)), 'bad_imei'],
    ['IMEI not digits', (b: Uint8Array) => (b[8] = 0x41), 'bad_imei'],
    ['codec 12 over UDP', (b: Uint8Array) => (b[23] = 0x0c), 'unsupported_codec'],
  ])('%s -> %s', (_n, damage, code) => {
    const datagram = encodeTeltonikaUdp(IMEI, [record()], { packetId: 1, avlPacketId: 2 });
    damage(datagram);
    expect(decodeTeltonikaUdp(datagram).error?.code).toBe(code);
  });
});
