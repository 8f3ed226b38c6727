import { describe, expect, it } from 'vitest';
import { asciiToBytes } from '../common/byte-reader';
import { fromHex, toHex } from '../common/hex';
import { createPrng } from '../common/prng';
import {
  GOSAFE_MAX_FRAME_SIZE,
  createGoSafeSession,
  decodeGoSafeMessage,
  encodeGoSafeCommandResponse,
  escapeGoSafe,
  unescapeGoSafe,
} from '.';

const WIRE =
  'f80601013fb82203661b002ee46249007a13003f45feefeeb401db1b00be00000000060e00d602018904036412080c010111e121003100410051010807000000000000004655f8';
const PLAIN =
  'f80601013fb82203661b2ee46249007a13003f45feefeeb401db1bbe00000000060e00d602018904036412080c010111e121003100410051010807000000000000004655f8';

describe('gosafe framing', () => {
  it('the escaped wire frame and the unescaped frame decode to the same record', () => {
    const viaSession = createGoSafeSession().decode(fromHex(WIRE));
    const direct = decodeGoSafeMessage(fromHex(PLAIN), { unescaped: true });
    expect(viaSession.messages).toEqual(direct.messages);
    expect(toHex(unescapeGoSafe(fromHex(WIRE)) as Uint8Array)).toBe(PLAIN);
  });

  it('escape/unescape round-trips random bodies', () => {
    const rnd = createPrng(11);
    for (let i = 0; i < 500; i++) {
      const body = rnd.bytes(rnd.int(0, 64));
      const escaped = escapeGoSafe(body);
      expect(escaped.includes(0xf8)).toBe(false);
      const framed = new Uint8Array([0xf8, ...escaped, 0xf8]);
      expect(Array.from(unescapeGoSafe(framed) as Uint8Array)).toEqual([0xf8, ...body, 0xf8]);
    }
  });

  it('a bad escape inside a complete binary frame is undecodable: consumed, kept whole, not answered', () => {
    const r = decodeGoSafeMessage(fromHex('f8011b05f8'));
    expect(r.error).toBeUndefined();
    expect(r.reply).toBeUndefined();
    expect(r.messages.map((m) => m.type)).toEqual(['undecodable']);
  });

  it.each([
    ['neither * nor f8', asciiToBytes('hello#'), 'bad_header'],
    ['text that is not *GS', asciiToBytes('*XX06,1#'), 'malformed'],
  ])('%s -> %s', (_n, bytes, code) => {
    expect(decodeGoSafeMessage(bytes).error?.code).toBe(code);
  });

  it('no terminator within the limit is frame_too_large; before that it waits', () => {
    const s = createGoSafeSession();
    expect(s.decode(asciiToBytes('*GS06,123456,')).consumed).toBe(0);
    const long = asciiToBytes('*GS06,123456,' + 'A'.repeat(GOSAFE_MAX_FRAME_SIZE));
    expect(s.decode(long).error?.code).toBe('frame_too_large');
  });

  it('every message is answered 1234, several at once', () => {
    const two = asciiToBytes('*GS06,357330050846344,RST#\r\n*GS16,351535058709775#');
    const r = createGoSafeSession().decode(two);
    expect(new TextDecoder().decode(r.reply)).toBe('12341234');
    expect(r.messages.map((m) => m.type)).toEqual(['command-response', 'heartbeat']);
  });

  it('command answer encoder', () => {
    expect(new TextDecoder().decode(encodeGoSafeCommandResponse('123456', 'OK'))).toBe('*GS06,123456,OK#');
    expect(() => encodeGoSafeCommandResponse('123456', 'a#b')).toThrow();
  });
});
