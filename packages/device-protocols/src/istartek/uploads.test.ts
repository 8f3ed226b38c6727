// iStartek position uploads 000 / 010 / 020 from frames written by hand after the vendor layout:
// `&&<index><len>,<IMEI>,<type>,<content><checksum>\r\n`, len counting from the first comma up to the
// checksum, checksum the byte sum of everything before it (two upper-case hex digits).
import { describe, expect, it } from 'vitest';
import type { DecodedRecord } from '../records';
import { createIStartekSession } from './codec';

const IMEI = '868703050178631';
const latin1 = (t: string) => Uint8Array.from(Buffer.from(t, 'latin1'));

function handFrame(index: string, type: string, content: string): Uint8Array {
  const body = `,${IMEI},${type},${content}`;
  const head = `&&${index}${body.length}${body}`;
  let sum = 0;
  for (const c of Buffer.from(head, 'latin1')) sum += c;
  return latin1(`${head}${(sum & 0xff).toString(16).toUpperCase().padStart(2, '0')}\r\n`);
}

function handReply(index: string, type: string, n: number): string {
  const body = `,${IMEI},${type},${n}`;
  const head = `$$${index}${body.length}${body}`;
  let sum = 0;
  for (const c of Buffer.from(head, 'latin1')) sum += c;
  return `${head}${(sum & 0xff).toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

// 25 Nov 2026 14:30:00 UTC, Dubai Marina, 12 satellites, 54 km/h heading 90, inputs 02 (input 2 on),
// outputs 01, supply 12.00 V (0x04B0), battery 4.00 V (0x0190), odometer 123456 m.
const POSITION =
  '0,,261125143000,A,25.078360,55.180720,12,0.8,54,90,12,123456,424|2|2B0C|00A1B2C3,28,0000001D,02,01,04B0|0190|0000|0000,1';
const POSITION_2 =
  '0,,261125143030,A,25.079000,55.181000,11,0.9,40,92,12,123800,424|2|2B0C|00A1B2C3,27,0000001D,00,00,04AF|0190|0000|0000,1';

function records(r: ReturnType<ReturnType<typeof createIStartekSession>['decode']>): DecodedRecord[] {
  return r.messages.flatMap((m) => (m.type === 'records' ? m.records : []));
}

describe('istartek uploads', () => {
  it('000: a position, no reply', () => {
    const r = createIStartekSession().decode(handFrame('A', '000', POSITION));
    expect(r.error).toBeUndefined();
    expect(r.reply).toBeUndefined();
    const [rec] = records(r);
    expect(rec).toMatchObject({
      fixTime: Date.UTC(2026, 10, 25, 14, 30, 0),
      valid: true,
      latitude: 25.07836,
      longitude: 55.18072,
      speed: 54,
      course: 90,
      satellites: 12,
    });
    expect(rec?.io).toMatchObject({ 16: 123456, 66: 12000, 67: 4000, 239: 1, 179: 1 });
  });

  it('010: the same position, answered $$<pack-no><len>,<IMEI>,010,1<checksum>', () => {
    const bytes = handFrame('q', '010', POSITION);
    const r = createIStartekSession().decode(bytes);
    expect(r.error).toBeUndefined();
    expect(r.consumed).toBe(bytes.length);
    expect(records(r)).toHaveLength(1);
    expect(records(r)[0]?.latitude).toBe(25.07836);
    expect(Buffer.from(r.reply ?? []).toString('latin1')).toBe(handReply('q', '010', 1));
    expect(Buffer.from(r.reply ?? []).toString('latin1')).toMatch(
      /^\$\$q\d+,868703050178631,010,1[0-9A-F]{2}\r\n$/,
    );
  });

  it('020: a compressed batch of positions, answered with the count', () => {
    const r = createIStartekSession().decode(handFrame('7', '020', `${POSITION}\r\n${POSITION_2}`));
    expect(r.error).toBeUndefined();
    const recs = records(r);
    expect(recs.map((x) => x.fixTime)).toEqual([
      Date.UTC(2026, 10, 25, 14, 30, 0),
      Date.UTC(2026, 10, 25, 14, 30, 30),
    ]);
    expect(recs[1]?.io[239]).toBe(0);
    expect(Buffer.from(r.reply ?? []).toString('latin1')).toBe(handReply('7', '020', 2));
  });

  it('two 010 frames in one read: two replies in order', () => {
    const a = handFrame('a', '010', POSITION);
    const b = handFrame('b', '010', POSITION_2);
    const r = createIStartekSession().decode(Uint8Array.from([...a, ...b]));
    expect(records(r)).toHaveLength(2);
    expect(Buffer.from(r.reply ?? []).toString('latin1')).toBe(
      handReply('a', '010', 1) + handReply('b', '010', 1),
    );
  });

  it('a 010 or 020 frame with a bad record is undecodable whole: no record, no reply', () => {
    for (const [type, content] of [
      ['010', POSITION.replace('25.078360', 'N25.07')],
      ['020', `${POSITION}\r\n${POSITION_2.replace('261125143030', '2611251430')}`],
    ] as const) {
      const bytes = handFrame('c', type, content);
      const r = createIStartekSession().decode(bytes);
      expect(r.error).toBeUndefined();
      expect(r.consumed).toBe(bytes.length);
      expect(r.reply).toBeUndefined();
      expect(records(r)).toEqual([]);
      expect(r.messages.map((m) => m.type)).toEqual(['undecodable']);
    }
  });

  it('an acknowledged frame followed by an undecodable one: only the first is answered', () => {
    const good = handFrame('d', '010', POSITION);
    const bad = handFrame('e', '010', 'x,y');
    const r = createIStartekSession().decode(Uint8Array.from([...good, ...bad]));
    expect(r.messages.map((m) => m.type)).toEqual(['records', 'undecodable']);
    expect(Buffer.from(r.reply ?? []).toString('latin1')).toBe(handReply('d', '010', 1));
  });

  it('other types stay command answers (900 engine stop answer)', () => {
    const r = createIStartekSession().decode(handFrame('f', '900', '1,1,OK'));
    expect(r.reply).toBeUndefined();
    const m = r.messages[0];
    expect(m?.type === 'command-response' ? [m.response.responseType, m.response.text] : m?.type).toEqual([
      '900',
      '1,1,OK',
    ]);
  });
});
