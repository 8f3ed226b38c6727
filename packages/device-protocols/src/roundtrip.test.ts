// Property tests with a seeded PRNG: encode -> decode gives back the input (fast-check is not installed).
import { describe, expect, it } from 'vitest';
import { createPrng, type Prng } from './common/prng';
import type { DecodedRecord, IoValue } from './records';
import { createTeltonikaSession, encodeTeltonikaAvl, encodeTeltonikaImei } from './teltonika/tcp';
import { decodeTeltonikaUdp, encodeTeltonikaUdp } from './teltonika/udp';
import { CODEC_16, CODEC_8, CODEC_8E, type TeltonikaAvlCodec } from './teltonika/constants';
import { encodeTeltonikaCodec13, encodeTeltonikaCommandResponse } from './teltonika/codec12';
import { createRuptelaSession, encodeRuptelaCommandResponse, encodeRuptelaRecords } from './ruptela';
import { mapRuptelaIo } from './ruptela/io-map';
import { createGoSafeSession, encodeGoSafeText } from './gosafe';
import { createIStartekSession, encodeIStartekFrame, encodeIStartekPosition } from './istartek/codec';

const IMEI = '356307042441013';
const RUNS = 300;
const RESERVED_TELTONIKA = new Set([548, 10828, 10829, 10830, 10831]);
const RESERVED_RUPTELA = new Set([34, 126, 127, 155, 156, 760, 761]);

function baseRecord(rnd: Prng, protocol: DecodedRecord['protocol']): DecodedRecord {
  const valid = rnd.next() < 0.85;
  return {
    imei: IMEI,
    protocol,
    fixTime: Date.UTC(2020, 0, 1) + rnd.int(0, 300_000_000) * 1000,
    valid,
    latitude: valid ? rnd.int(-900_000_000, 900_000_000) / 1e7 : 0,
    longitude: valid ? rnd.int(-1_800_000_000, 1_800_000_000) / 1e7 : 0,
    altitude: 0,
    speed: 0,
    course: 0,
    satellites: valid ? rnd.int(1, 30) : 0,
    eventId: 0,
    io: {},
  };
}

function randomValue(rnd: Prng, size: 1 | 2 | 4 | 8): IoValue {
  if (size === 1) return rnd.int(0, 0xff);
  if (size === 2) return rnd.int(0x100, 0xffff);
  if (size === 4) return rnd.int(0x10000, 0xffffffff);
  return rnd.next() < 0.5
    ? rnd.int(0x1_0000_0000, Number.MAX_SAFE_INTEGER)
    : (BigInt(rnd.int(0x20_0000, 0xffff_ffff)) << 32n) | BigInt(rnd.int(0, 0xffff_ffff));
}

function teltonikaRecord(rnd: Prng, codec: TeltonikaAvlCodec): DecodedRecord {
  const r = baseRecord(rnd, 'teltonika');
  const wide = codec !== CODEC_8;
  r.altitude = rnd.int(-500, 9000);
  r.speed = rnd.int(0, 300);
  r.course = rnd.int(0, 359);
  r.priority = rnd.int(0, 2);
  r.eventId = rnd.int(0, wide ? 0xffff : 0xff);
  const count = rnd.int(0, 40);
  for (let i = 0; i < count; i++) {
    const id = rnd.int(1, wide ? 0xffff : 0xff);
    if (RESERVED_TELTONIKA.has(id)) continue;
    if (codec === CODEC_8E && rnd.next() < 0.1) r.io[id] = rnd.bytes(rnd.int(0, 40));
    else r.io[id] = randomValue(rnd, rnd.pick([1, 2, 4, 8] as const));
  }
  if (codec === CODEC_16) r.attributes = { generationType: rnd.int(0, 7) };
  return r;
}

describe('round trips (seeded property tests)', () => {
  it.each([
    ['Codec 8', CODEC_8],
    ['Codec 8 Extended', CODEC_8E],
    ['Codec 16', CODEC_16],
  ] as const)('Teltonika TCP %s', (_name, codec) => {
    const rnd = createPrng(codec);
    const session = createTeltonikaSession();
    session.decode(encodeTeltonikaImei(IMEI));
    for (let run = 0; run < RUNS; run++) {
      const records = Array.from({ length: rnd.int(1, 5) }, () => teltonikaRecord(rnd, codec));
      const frame = encodeTeltonikaAvl(records, codec);
      const result = session.decode(frame);
      expect(result.error).toBeUndefined();
      expect(result.consumed).toBe(frame.length);
      expect(result.messages).toEqual([{ type: 'records', protocol: 'teltonika', imei: IMEI, records }]);
      expect(new DataView(result.reply!.buffer).getUint32(0)).toBe(records.length);
    }
  });

  it('Teltonika UDP', () => {
    const rnd = createPrng(17);
    for (let run = 0; run < RUNS; run++) {
      const records = Array.from({ length: rnd.int(1, 5) }, () => teltonikaRecord(rnd, CODEC_8E));
      const ids = { packetId: rnd.int(0, 0xffff), avlPacketId: rnd.int(0, 0xff) };
      const result = decodeTeltonikaUdp(encodeTeltonikaUdp(IMEI, records, ids, CODEC_8E));
      expect(result.messages).toEqual([{ type: 'records', protocol: 'teltonika', imei: IMEI, records }]);
      expect(result.header).toEqual({ ...ids, imei: IMEI });
    }
  });

  it('Teltonika Codec 12 / 13 answers', () => {
    const rnd = createPrng(12);
    const session = createTeltonikaSession();
    for (let run = 0; run < RUNS; run++) {
      const text = Array.from({ length: rnd.int(1, 60) }, () =>
        String.fromCharCode(rnd.int(0x21, 0x7e)),
      ).join('');
      const r12 = session.decode(encodeTeltonikaCommandResponse(text));
      expect(r12.messages).toEqual([
        {
          type: 'command-response',
          response: { imei: '', protocol: 'teltonika', text, isHex: false, responseType: 6 },
        },
      ]);
      expect(r12.reply).toBeUndefined();
      const time = Date.UTC(2026, 0, 1) + rnd.int(0, 1e8) * 1000;
      const r13 = session.decode(encodeTeltonikaCodec13(text, time));
      expect(r13.messages[0]).toMatchObject({
        type: 'command-response',
        response: { text, deviceTime: time },
      });
    }
  });

  it.each([false, true])('Ruptela records (extended: %s)', (extended) => {
    const rnd = createPrng(extended ? 68 : 1);
    const session = createRuptelaSession();
    for (let run = 0; run < RUNS; run++) {
      const records = Array.from({ length: rnd.int(1, 5) }, () => {
        const r = baseRecord(rnd, 'ruptela');
        r.priority = rnd.int(0, 3);
        r.eventId = rnd.int(0, extended ? 0xffff : 0xff);
        if (r.valid) {
          r.altitude = rnd.int(0, 65535) / 10;
          r.course = rnd.int(0, 35999) / 100;
          r.speed = rnd.int(0, 250);
          r.hdop = rnd.int(0, 255) / 10;
        }
        const deviceIo: Record<number, IoValue> = {};
        for (let i = rnd.int(0, 30); i > 0; i--) {
          const id = rnd.int(0, extended ? 1200 : 255);
          if (!RESERVED_RUPTELA.has(id)) deviceIo[id] = randomValue(rnd, rnd.pick([1, 2, 4, 8] as const));
        }
        r.deviceIo = deviceIo;
        r.io = mapRuptelaIo(deviceIo);
        return r;
      });
      const result = session.decode(encodeRuptelaRecords(IMEI, records, { extended }));
      expect(result.error).toBeUndefined();
      expect(result.messages).toEqual([{ type: 'records', protocol: 'ruptela', imei: IMEI, records }]);
    }
    expect(
      createRuptelaSession().decode(encodeRuptelaCommandResponse(IMEI, 'DOUT1=1')).messages[0],
    ).toMatchObject({
      type: 'command-response',
      response: { text: 'DOUT1=1', responseType: 7 },
    });
  });

  /** Text protocols carry fewer digits; records are drawn already quantised to what the wire holds. */
  function textRecord(rnd: Prng, protocol: 'gosafe' | 'istartek'): DecodedRecord {
    const r = baseRecord(rnd, protocol);
    r.latitude = rnd.int(-90_000_000, 90_000_000) / 1e6;
    r.longitude = rnd.int(-180_000_000, 180_000_000) / 1e6;
    r.altitude = rnd.int(-100, 5000);
    r.speed = rnd.int(0, 250);
    r.course = rnd.int(0, 359);
    r.hdop = protocol === 'gosafe' ? rnd.int(1, 999) / 100 : rnd.int(1, 99) / 10;
    r.eventId = protocol === 'gosafe' ? rnd.int(1, 0xff) : rnd.pick([0, 2, 5, 20, 37]);
    r.io = {
      239: rnd.int(0, 1),
      179: rnd.int(0, 1),
      180: rnd.int(0, 1),
      66: rnd.int(900, 3000) * 10,
      67: rnd.int(300, 420) * 10,
      16: rnd.int(0, 9_000_000),
    };
    if (protocol === 'istartek') r.io[21] = rnd.int(0, 31);
    return r;
  }

  function core(r: DecodedRecord) {
    const { attributes: _attributes, io, ...rest } = r;
    const picked: Record<number, IoValue | undefined> = {};
    for (const id of [239, 179, 180, 66, 67, 16]) picked[id] = io[id];
    return { ...rest, io: picked };
  }

  it('GoSafe text', () => {
    const rnd = createPrng(6);
    const session = createGoSafeSession();
    for (let run = 0; run < RUNS; run++) {
      const records = Array.from({ length: rnd.int(1, 4) }, () => textRecord(rnd, 'gosafe'));
      const result = session.decode(encodeGoSafeText(IMEI, records));
      expect(result.error).toBeUndefined();
      const msg = result.messages[0];
      expect(msg?.type).toBe('records');
      if (msg?.type === 'records') expect(msg.records.map(core)).toEqual(records.map(core));
    }
  });

  it('iStartek position and command answer', () => {
    const rnd = createPrng(7);
    const session = createIStartekSession();
    for (let run = 0; run < RUNS; run++) {
      const record = textRecord(rnd, 'istartek');
      const result = session.decode(encodeIStartekPosition(record, String.fromCharCode(rnd.int(0x21, 0x7e))));
      expect(result.error).toBeUndefined();
      const msg = result.messages[0];
      expect(msg?.type === 'records' && core(msg.records[0] as DecodedRecord)).toEqual(core(record));
      expect(msg?.type === 'records' && msg.records[0]?.io[21]).toBe(record.io[21]);
    }
    const answer = session.decode(encodeIStartekFrame(IMEI, '900', 'OK'));
    expect(answer.messages[0]).toMatchObject({
      type: 'command-response',
      response: { text: 'OK', responseType: '900' },
    });
  });
});
