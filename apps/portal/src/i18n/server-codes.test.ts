/**
 * Codes the server answers that the portal shows as words must have an English and an Arabic text.
 *
 * Server messages (errors, confirmations) arrive already worded in the reader's language (X-Locale; the
 * server's catalogue in apps/server/src/http/i18n.ts). What the portal words itself are the codes inside
 * answers: statuses, types, outcomes. Each list below is taken from the shared contract, so a code added
 * to the server's answers (as the raw-frame replay outcomes and the fuel level unit were in session 5)
 * fails here until the portal has both texts.
 */
import { describe, expect, it } from 'vitest';
import {
  commandStatuses,
  deviceConnectionStatuses,
  deviceTypes,
  exportJobStatuses,
  fuelReportRowSchema,
  messageStatuses,
  rawFrameReplayOutcomeSchema,
} from '@fleet/api-client';
import { en } from './en';
import { ar } from './ar';
import { replayResultOf } from '../devices/replay-result';

function text(tree: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], tree);
}

/** [what, the codes the server answers, the catalogue key the portal looks each one up under] */
const lists: [string, readonly string[], (code: string) => string][] = [
  ['command statuses', commandStatuses, (c) => `commands.status.${c}`],
  ['sent message statuses', messageStatuses, (c) => `messages.status.${c}`],
  ['export job statuses', exportJobStatuses, (c) => `reports.export.${c}`],
  ['device types', deviceTypes, (c) => `fields.option.deviceType.${c}`],
  ['device connection statuses', deviceConnectionStatuses, (c) => `fields.option.connection.${c}`],
  [
    'raw-frame replay outcomes',
    rawFrameReplayOutcomeSchema.shape.result.options,
    (c) => `devices.frames.result.${c}`,
  ],
  [
    'fuel level units',
    fuelReportRowSchema.shape.level_unit.options,
    (c) => (c === 'litres' ? 'reports.chart.fuelLitres' : 'reports.chart.fuelLevel'),
  ],
];

describe('codes in server answers have English and Arabic texts', () => {
  const missing: string[] = [];
  for (const [, codes, key] of lists)
    for (const code of codes)
      for (const [lang, tree] of [
        ['en', en],
        ['ar', ar],
      ] as const) {
        const value = text(tree, key(code));
        if (typeof value !== 'string' || value.trim() === '') missing.push(`${lang}: ${key(code)}`);
      }

  it.each(lists.map(([what, codes]) => [what, codes.length] as const))('%s (%i codes)', (what) => {
    const [, codes, key] = lists.find(([w]) => w === what)!;
    const absent = missing.filter((m) => codes.some((c) => m.endsWith(` ${key(c)}`)));
    expect(absent).toEqual([]);
  });

  it('the Arabic text is not the English one (brand names of device types aside)', () => {
    for (const [what, codes, key] of lists)
      for (const code of what === 'device types' ? [] : codes)
        expect(text(ar, key(code)), key(code)).not.toBe(text(en, key(code)));
  });
});

describe('stored replay results read as their code', () => {
  it.each([
    ['stored', 'stored', ''],
    ['no records', 'no-records', ''],
    ['undecodable: bad_crc: checksum mismatch', 'undecodable', 'bad_crc: checksum mismatch'],
    ['something new', null, 'something new'],
  ] as const)('%s', (stored, code, detail) => {
    expect(replayResultOf(stored)).toEqual({ code, detail });
  });
});
