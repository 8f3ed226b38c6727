import { haversineM, impliedSpeedKmh } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { defaultSanityConfig, pointValid, type SanityConfig } from '../sanity/sanity';

/**
 * `flagSequence` (sanity/sanity.ts) as a stream over records in the total order (sortAndDedupe).
 *
 * flagSequence's jump rule for a point-valid record looks at its valid neighbours only: a middle record
 * is a spike when the jump from its previous and to its next valid neighbour are both impossible; an end
 * of the set uses its one neighbour and the one after that. So the verdict of valid record k is final
 * once record k + 1 is known (the first record: once record 2 is known), and only the newest one or two
 * records are provisional: `sanityTail` gives their verdicts as if the set ended now (what the batch
 * function says for the same set). The state is three records: plain JSON, saved with the device state.
 */

export interface SanityStreamState {
  /** Point-valid records seen so far. */
  n: number;
  /** The last (up to) three point-valid records, oldest first. */
  v: PositionRecord[];
}

export const newSanityStream = (): SanityStreamState => ({ n: 0, v: [] });

function isJump(a: PositionRecord, b: PositionRecord, cfg: SanityConfig): boolean {
  const d = haversineM(a.lat, a.lon, b.lat, b.lon);
  if (d < cfg.minJumpDistanceM) return false;
  return impliedSpeedKmh(d, b.time - a.time) > cfg.maxJumpKmh;
}

/**
 * Pushes the next record (in order). `emit` receives the records whose verdict became final and that
 * are accepted (not pre-ignored, not a spike), in order.
 */
export function sanityPush(
  s: SanityStreamState,
  r: PositionRecord,
  emit: (r: PositionRecord) => void,
  cfg: SanityConfig = defaultSanityConfig,
): void {
  if (!pointValid(r, cfg)) return; // never a neighbour, never accepted
  const v = s.v;
  if (s.n === 2) {
    const [v0, v1] = v as [PositionRecord, PositionRecord];
    if (!(isJump(v0, v1, cfg) && !isJump(v1, r, cfg)) && !v0.ignored) emit(v0);
    if (!(isJump(v0, v1, cfg) && isJump(v1, r, cfg)) && !v1.ignored) emit(v1);
  } else if (s.n >= 3) {
    const prev = v[v.length - 2]!;
    const last = v[v.length - 1]!;
    if (!(isJump(prev, last, cfg) && isJump(last, r, cfg)) && !last.ignored) emit(last);
  }
  s.n++;
  // Moved along in place rather than push-then-shift, which can reallocate the array's store, in each
  // of a device's five folds per record. (bench:soak's allocation profile still puts ~190 MB a minute
  // under sanityPush, in a builtin frame it names `sort`, after this change as before: not explained.)
  if (v.length === 3) {
    v[0] = v[1]!;
    v[1] = v[2]!;
    v[2] = r;
  } else v.push(r);
}

/** The provisional records (accepted ones) with their verdict as if no record followed. */
export function sanityTail(s: SanityStreamState, cfg: SanityConfig = defaultSanityConfig): PositionRecord[] {
  const v = s.v;
  if (s.n === 0) return [];
  if (s.n <= 2) return v.filter((r) => !r.ignored);
  const last = v[v.length - 1]!;
  const n1 = v[v.length - 2]!;
  const n2 = v[v.length - 3]!;
  const spike = isJump(last, n1, cfg) && !isJump(n1, n2, cfg);
  return spike || last.ignored ? [] : [last];
}
