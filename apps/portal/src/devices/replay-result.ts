import { rawFrameReplayOutcomeSchema, type RawFrameReplayOutcome } from '@fleet/api-client';

/**
 * The code of a stored replay result ('stored', 'no records', 'undecodable: <decoder reason>') as the
 * contract's replay outcome code, and the decoder's own (technical, untranslated) reason when it has one.
 */
export function replayResultOf(text: string): {
  code: RawFrameReplayOutcome['result'] | null;
  detail: string;
} {
  const colon = text.indexOf(':');
  const head = (colon < 0 ? text : text.slice(0, colon)).trim().replace(/\s+/g, '-');
  const detail = colon < 0 ? '' : text.slice(colon + 1).trim();
  const codes: readonly string[] = rawFrameReplayOutcomeSchema.shape.result.options;
  return codes.includes(head)
    ? { code: head as RawFrameReplayOutcome['result'], detail }
    : { code: null, detail: text };
}
