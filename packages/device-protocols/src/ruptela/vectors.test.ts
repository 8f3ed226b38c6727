// Replays every Ruptela vector of ../shared/protocol-vectors.
import { describe, expect, it } from 'vitest';
import { caseBytes, expectPlausibleLocation, loadVectors, type VectorCase } from '../../test/vectors';
import { toHex } from '../common/hex';
import type { DecodedMessage, DecodeResult } from '../records';
import { createRuptelaSession, decodeRuptelaMessage, encodeRuptelaServerFrame } from '.';
import { RUPTELA_CMD_SMS_VIA_GPRS } from './constants';
import { asciiToBytes } from '../common/byte-reader';

const cases = loadVectors('ruptela');

/** Traccar attribute -> our field. */
const attributeMap: Record<string, (m: DecodedMessage[]) => unknown> = {
  driverUniqueId: (m) => {
    const msg = m.find((x) => x.type === 'records');
    return msg?.type === 'records' ? msg.records[0]?.attributes?.['driverUniqueId'] : undefined;
  },
};

/** Index -> decision for the two frames whose length field is wrong (CRC valid). */
const lengthMismatch = new Set([6, 8]);

function assertExpectation(c: VectorCase, result: DecodeResult): void {
  const meaningful = result.messages.filter((m) => m.type === 'records' || m.type === 'command-response');
  switch (c.expect.kind) {
    case 'null':
      expect(meaningful).toEqual([]);
      return;
    case 'attributes':
      expect(meaningful.length).toBe(1);
      expect(meaningful[0]?.type).toBe('command-response');
      return;
    case 'positions': {
      const records = meaningful.flatMap((m) => (m.type === 'records' ? m.records : []));
      expect(records.length).toBeGreaterThan(0);
      if (c.expect.checkLocation) for (const r of records) expectPlausibleLocation(r);
      return;
    }
    case 'attribute':
      expect(attributeMap[c.expect.key as string]?.(result.messages)).toBe(c.expect.value);
      return;
    default:
      throw new Error(`unhandled ${c.expect.kind}`);
  }
}

describe('ruptela vectors', () => {
  const decoderCases = cases.map((c, i) => [i, c] as const).filter(([, c]) => c.component === 'decoder');

  it.each(decoderCases.filter(([i]) => !lengthMismatch.has(i)))(
    'case %i decodes over the TCP stream',
    (_i, c) => {
      const bytes = caseBytes(c);
      const result = createRuptelaSession().decode(bytes);
      expect(result.error, JSON.stringify(result.error)).toBeUndefined();
      expect(result.consumed).toBe(bytes.length);
      assertExpectation(c, result);
      const reply = c.derived?.['serverReplyHex'];
      if (typeof reply === 'string') expect(toHex(result.reply as Uint8Array)).toBe(reply);
      if (c.derived?.['recordCount'] !== undefined && c.derived['commandId'] === 1) {
        const msg = result.messages[0];
        expect(msg?.type === 'records' && msg.records.length).toBe(c.derived['recordCount']);
      }
    },
  );

  it.each([...lengthMismatch])('case %i (wrong length, valid CRC): the stream decoder rejects it', (i) => {
    const result = createRuptelaSession().decode(caseBytes(cases[i] as VectorCase));
    expect(result.error?.code).toBe('crc_mismatch');
    expect(result.consumed).toBe(0);
    expect(result.reply).toBeUndefined();
  });

  it.each([...lengthMismatch])(
    'case %i: as a whole message with acceptLengthMismatch it decodes as asserted',
    (i) => {
      const c = cases[i] as VectorCase;
      expect(decodeRuptelaMessage(caseBytes(c)).error?.code).toBe('bad_length');
      const result = decodeRuptelaMessage(caseBytes(c), { acceptLengthMismatch: true });
      expect(result.error).toBeUndefined();
      assertExpectation(c, result);
    },
  );

  it('identification and heartbeat are answered with 01 frames', () => {
    const ident = createRuptelaSession().decode(caseBytes(cases[1] as VectorCase));
    expect(ident.messages[0]).toEqual({
      type: 'identification',
      protocol: 'ruptela',
      imei: '869530043209218',
    });
    expect(toHex(ident.reply as Uint8Array)).toBe(toHex(encodeRuptelaServerFrame(115, Uint8Array.of(1))));
  });

  it('records (command 68) merge extension parts: case 0 has 3 records on the wire', () => {
    const result = createRuptelaSession().decode(caseBytes(cases[0] as VectorCase));
    const msg = result.messages[0];
    expect(msg?.type).toBe('records');
    if (msg?.type === 'records') expect(msg.records.length).toBeLessThanOrEqual(3);
  });

  it.each([16, 17])('encoder case %i matches byte for byte', (i) => {
    const c = cases[i] as VectorCase;
    const data = c.command?.attributes?.['data'] as string;
    const raw = /^[0-9a-fA-F]+$/.test(data) && data.length % 2 === 0;
    const encoded = raw
      ? data.toLowerCase()
      : toHex(encodeRuptelaServerFrame(100 + RUPTELA_CMD_SMS_VIA_GPRS, asciiToBytes(data)));
    expect(encoded).toBe(c.expect.hex);
  });
});
