// Loads the shared Traccar-derived protocol vectors (../shared/protocol-vectors beside the repo).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { DecodedRecord } from '../src/records';

export interface VectorCase {
  component: 'decoder' | 'frameDecoder' | 'encoder';
  test: string;
  transport: string;
  hex?: string;
  text?: string;
  expect: {
    kind: 'null' | 'notNull' | 'position' | 'positions' | 'attributes' | 'attribute' | 'frame' | 'encoded';
    checkLocation?: boolean;
    key?: string;
    value?: unknown;
    hex?: string;
    text?: string;
  };
  decoderState?: { modelOverride?: string; extended?: boolean };
  command?: { type: string; attributes?: Record<string, string> };
  derived?: Record<string, unknown>;
  note: string;
  disabledInTraccar?: boolean;
}

export const vectorsDir = fileURLToPath(new URL('../../../../shared/protocol-vectors/', import.meta.url));

export function loadVectors(name: 'teltonika' | 'ruptela' | 'gosafe' | 'istartek'): VectorCase[] {
  return JSON.parse(readFileSync(`${vectorsDir}${name}.json`, 'utf8')) as VectorCase[];
}

export function caseBytes(c: VectorCase): Uint8Array {
  if (c.hex !== undefined) return Uint8Array.from(Buffer.from(c.hex, 'hex'));
  if (c.text !== undefined) return Uint8Array.from(Buffer.from(c.text, 'latin1'));
  throw new Error('case has no input');
}

export const KNOT_KMH = 1.852;

/**
 * Traccar's `checkLocation` rules (README "Case format") applied to our record; Traccar's speed bound
 * of 869 knots is converted to km/h because we store km/h.
 */
export function expectPlausibleLocation(r: DecodedRecord, now = Date.now()): void {
  expect(r.fixTime).toBeGreaterThan(Date.UTC(1999, 11, 31, 23, 59, 59));
  expect(r.fixTime).toBeLessThan(now + 25 * 3600 * 1000);
  expect(r.latitude).toBeGreaterThanOrEqual(-90);
  expect(r.latitude).toBeLessThanOrEqual(90);
  expect(r.longitude).toBeGreaterThanOrEqual(-180);
  expect(r.longitude).toBeLessThanOrEqual(180);
  expect(r.altitude).toBeGreaterThanOrEqual(-12262);
  expect(r.altitude).toBeLessThanOrEqual(18000);
  expect(r.speed).toBeGreaterThanOrEqual(0);
  expect(r.speed).toBeLessThanOrEqual(869 * KNOT_KMH);
  expect(r.course).toBeGreaterThanOrEqual(0);
  expect(r.course).toBeLessThanOrEqual(360);
  expect(r.imei.length).toBeGreaterThan(0);
}
