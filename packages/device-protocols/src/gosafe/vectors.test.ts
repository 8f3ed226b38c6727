// Replays every GoSafe vector of ../shared/protocol-vectors.
import { describe, expect, it } from 'vitest';
import { caseBytes, expectPlausibleLocation, loadVectors, type VectorCase } from '../../test/vectors';
import { toHex } from '../common/hex';
import type { DecodeResult } from '../records';
import { createGoSafeSession, decodeGoSafeMessage, unescapeGoSafe } from '.';

const cases = loadVectors('gosafe');

/** Traccar attribute -> ours: `temp<n>` and driver ids stay named attributes, `event` is `eventId`. */
const attributeMap: Record<string, (r: DecodeResult) => unknown> = {
  temp3: (r) => firstRecord(r).attributes?.['temp3'],
  temp0: (r) => firstRecord(r).attributes?.['temp0'],
  event: (r) => firstRecord(r).eventId,
};

function firstRecord(r: DecodeResult) {
  const m = r.messages.find((x) => x.type === 'records');
  if (m?.type !== 'records' || !m.records[0]) throw new Error('no record');
  return m.records[0];
}

describe('gosafe vectors', () => {
  const decoderCases = cases.map((c, i) => [i, c] as const).filter(([, c]) => c.component === 'decoder');

  it.each(decoderCases)('case %i decodes as asserted (and is answered 1234)', (_i, c: VectorCase) => {
    // Decoder vectors are frame-decoder output: binary ones are already unescaped.
    const result = decodeGoSafeMessage(caseBytes(c), { unescaped: true });
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(toHex(result.reply as Uint8Array)).toBe(toHex(new TextEncoder().encode('1234')));
    const meaningful = result.messages.filter((m) => m.type === 'records' || m.type === 'command-response');
    switch (c.expect.kind) {
      case 'null':
        expect(meaningful).toEqual([]);
        break;
      case 'notNull':
        expect(meaningful.length).toBeGreaterThan(0);
        break;
      case 'position':
      case 'positions': {
        expect(meaningful.length).toBeGreaterThan(0);
        if (c.expect.checkLocation) {
          const records = meaningful.flatMap((m) => (m.type === 'records' ? m.records : []));
          expect(records.length).toBeGreaterThan(0);
          for (const r of records) expectPlausibleLocation(r, Date.UTC(2030, 0, 1));
        }
        break;
      }
      case 'attribute':
        expect(attributeMap[c.expect.key as string]?.(result)).toBe(c.expect.value);
        break;
      default:
        throw new Error(`unhandled ${c.expect.kind}`);
    }
  });

  it('the binary vector decodes IMEI, time and the GPS block', () => {
    const r = firstRecord(decodeGoSafeMessage(caseBytes(cases[0] as VectorCase), { unescaped: true }));
    expect(r.imei).toBe(String(0x013fb82203661b));
    expect(r.valid).toBe(true);
    expect(r.satellites).toBe(5);
    expect(new Date(r.fixTime).toISOString()).toBe('2024-12-05T13:08:25.000Z');
  });

  it.each([30, 31])('frame decoder case %i: the TCP session cuts the same frame', (i) => {
    const c = cases[i] as VectorCase;
    const bytes = caseBytes(c);
    const session = createGoSafeSession();
    const result = session.decode(bytes);
    expect(result.error).toBeUndefined();
    expect(result.consumed).toBe(bytes.length);
    const frame = bytes[0] === 0xf8 ? unescapeGoSafe(bytes) : bytes;
    expect(toHex(frame as Uint8Array)).toBe(c.expect.hex);
  });

  it('a text frame split across reads waits for the #', () => {
    const bytes = caseBytes(cases[2] as VectorCase);
    const s = createGoSafeSession();
    expect(s.decode(bytes.subarray(0, 40))).toEqual({ consumed: 0, messages: [] });
    const full = s.decode(bytes);
    expect(full.consumed).toBe(bytes.length);
    expect(firstRecord(full).attributes?.['model']).toBe('Smart Track');
  });
});
