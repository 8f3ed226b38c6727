import { describe, expect, it } from 'vitest';
import { asciiToBytes } from '../common/byte-reader';
import {
  ISTARTEK_MAX_FRAME_SIZE,
  createIStartekSession,
  encodeIStartekCommand,
  encodeIStartekFrame,
} from './codec';

const IMEI = '860262050015424';

describe('istartek framing', () => {
  it.each([
    ['not &&', asciiToBytes('$$A12,1\r\n'), 'bad_header'],
    ['length not decimal', asciiToBytes('&&AB2,123456789012345,000,x\r\n'), 'bad_length'],
    ['declared beyond the limit', asciiToBytes(`&&A${ISTARTEK_MAX_FRAME_SIZE},`), 'frame_too_large'],
  ])('%s -> %s', (_n, bytes, code) => {
    expect(createIStartekSession().decode(bytes).error?.code).toBe(code);
  });

  it('partial frames wait, complete ones decode; several per read', () => {
    const a = encodeIStartekFrame(IMEI, '129', 'OK');
    const b = encodeIStartekFrame(IMEI, '900', 'DONE', 'B');
    const s = createIStartekSession();
    expect(s.decode(a.subarray(0, 5))).toEqual({ consumed: 0, messages: [] });
    const r = s.decode(new Uint8Array([...a, ...b]));
    expect(r.consumed).toBe(a.length + b.length);
    expect(r.messages.map((m) => (m.type === 'command-response' ? m.response.text : m.type))).toEqual([
      'OK',
      'DONE',
    ]);
  });

  it('unparsable position content is undecodable (kept whole, no reply), not an error', () => {
    const bytes = encodeIStartekFrame(IMEI, '000', 'garbage,,');
    const r = createIStartekSession().decode(bytes);
    expect(r.error).toBeUndefined();
    expect(r.consumed).toBe(bytes.length);
    expect(r.reply).toBeUndefined();
    const m = r.messages[0];
    expect(m?.type).toBe('undecodable');
    if (m?.type === 'undecodable') expect(Buffer.from(m.frame).equals(Buffer.from(bytes))).toBe(true);
  });

  it('command encoder validates its inputs', () => {
    expect(() => encodeIStartekCommand('abc', '900,1,1')).toThrow();
    expect(() => encodeIStartekCommand(IMEI, '900,1,1', 'XY')).toThrow();
    expect(new TextDecoder().decode(encodeIStartekCommand(IMEI, '900,1,0'))).toMatch(
      /^\$\$:24,860262050015424,900,1,0[0-9A-F]{2}\r\n$/,
    );
  });
});
