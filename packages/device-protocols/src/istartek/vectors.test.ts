// Replays every iStartek vector of ../shared/protocol-vectors.
import { describe, expect, it } from 'vitest';
import { caseBytes, expectPlausibleLocation, loadVectors, type VectorCase } from '../../test/vectors';
import type { DecodeResult } from '../records';
import { createIStartekSession, encodeIStartekCommand } from './codec';

const cases = loadVectors('istartek');
const NOW = Date.UTC(2026, 0, 1);

function firstRecord(r: DecodeResult) {
  const m = r.messages.find((x) => x.type === 'records');
  if (m?.type !== 'records' || !m.records[0]) throw new Error('no record');
  return m.records[0];
}

/** Traccar attribute -> ours. `fuel` (Traccar KEY_FUEL) is our io 84 (fuel litres). */
const attributeMap: Record<string, (r: DecodeResult) => unknown> = {
  driverUniqueId: (r) => firstRecord(r).attributes?.['driverUniqueId'],
  hours: (r) => firstRecord(r).attributes?.['hours'],
  fuelConsumption: (r) => firstRecord(r).attributes?.['fuelConsumption'],
  fuel: (r) => firstRecord(r).io[84] ?? null,
  result: (r) => {
    const m = r.messages.find((x) => x.type === 'command-response');
    return m?.type === 'command-response' ? m.response.text : undefined;
  },
};

describe('istartek vectors', () => {
  const decoderCases = cases.map((c, i) => [i, c] as const).filter(([, c]) => c.component === 'decoder');

  it.each(decoderCases.filter(([i]) => i !== 13))('case %i decodes as asserted', (_i, c: VectorCase) => {
    const bytes = caseBytes(c);
    const result = createIStartekSession({ now: () => NOW }).decode(bytes);
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(result.consumed).toBe(bytes.length);
    expect(result.reply).toBeUndefined();
    switch (c.expect.kind) {
      case 'position':
        expectPlausibleLocation(firstRecord(result), NOW);
        break;
      case 'attributes':
        expect(Object.keys(firstRecord(result).attributes ?? {}).length).toBeGreaterThan(0);
        break;
      case 'attribute':
        expect(attributeMap[c.expect.key as string]?.(result)).toBe(c.expect.value);
        break;
      default:
        throw new Error(`unhandled ${c.expect.kind}`);
    }
  });

  it('case 13 (wrong length and checksum): strict mode rejects it, lenient mode cuts at CRLF', () => {
    const bytes = caseBytes(cases[13] as VectorCase);
    const strict = createIStartekSession().decode(bytes);
    expect(strict.error?.code).toBe('bad_length');
    expect(strict.consumed).toBe(0);
    const lenient = createIStartekSession({ verifyChecksum: false }).decode(bytes);
    expect(lenient.error).toBeUndefined();
    expect(lenient.consumed).toBe(bytes.length);
    expectPlausibleLocation(firstRecord(lenient), NOW);
  });

  it.each([15, 16])('frame decoder case %i: the stream cuts exactly the expected frame', (i) => {
    const c = cases[i] as VectorCase;
    const bytes = caseBytes(c);
    const result = createIStartekSession({ now: () => NOW }).decode(bytes);
    expect(result.error).toBeUndefined();
    expect(Buffer.from(bytes.subarray(0, result.consumed)).toString('hex')).toBe(c.expect.hex);
  });

  it('encoder case 17: engine stop', () => {
    expect(Buffer.from(encodeIStartekCommand('123456789012345', '900,1,1')).toString('latin1')).toBe(
      cases[17]?.expect.text,
    );
  });

  it('a tampered checksum is a crc_mismatch', () => {
    const bytes = caseBytes(cases[2] as VectorCase).slice();
    bytes[bytes.length - 3] = 0x31;
    expect(createIStartekSession().decode(bytes).error?.code).toBe('crc_mismatch');
  });
});
