import { haversineM, impliedSpeedKmh } from '../common/geo';
import type { PositionRecord } from '../common/types';

/**
 * Position sanity filter. A record that fails is still stored as raw, but flagged `ignored`: it must not
 * move the vehicle, start a trip or fire an alert.
 *
 * Two entry points with the same point rules and different jump rules:
 *  - `checkLive` decides at ingest, comparing with the vehicle's last accepted live position (the only
 *    neighbour known at that moment). It drives the live view and the streaming engines.
 *  - `flagSequence` decides over a sorted set of records (a recompute window). Its jump rule only looks
 *    at a record's immediate neighbours, so the verdict for a record is the same whatever window it is
 *    computed in and whatever order the records arrived in (needed for deterministic trips).
 */

export type SanityReason =
  'invalid_coordinate' | 'null_island' | 'invalid_time' | 'future_time' | 'impossible_jump';

export interface SanityConfig {
  /** A device time more than this ahead of the receipt time is rejected (default 10 minutes). */
  readonly maxFutureMs: number;
  /** Implied speed between two fixes above which a jump is impossible (default 300 km/h). */
  readonly maxJumpKmh: number;
  /** Jumps shorter than this are never flagged, whatever the implied speed (GPS jitter; default 100 m). */
  readonly minJumpDistanceM: number;
  /** Device times before this instant are rejected (devices without a fix report 1970 or 2000). */
  readonly minValidTime: number;
  /**
   * Live rule only: after this many consecutive rejected jumps the newest fix becomes the new reference,
   * so a bad reference (or a vehicle carried while the device was off) cannot freeze the vehicle forever.
   */
  readonly reanchorAfter: number;
}

export const defaultSanityConfig: SanityConfig = {
  maxFutureMs: 10 * 60_000,
  maxJumpKmh: 300,
  minJumpDistanceM: 100,
  minValidTime: Date.UTC(2010, 0, 1),
  reanchorAfter: 3,
};

export interface SanityVerdict {
  readonly ignored: boolean;
  readonly reasons: readonly SanityReason[];
}

/** The coordinate rule: what is wrong with the record's position, if anything. */
function coordinateReason(r: PositionRecord): SanityReason | null {
  if (!Number.isFinite(r.lat) || !Number.isFinite(r.lon) || Math.abs(r.lat) > 90 || Math.abs(r.lon) > 180)
    return 'invalid_coordinate';
  if (Math.abs(r.lat) < 1e-6 && Math.abs(r.lon) < 1e-6) return 'null_island';
  return null;
}

/** The timestamp rule: what is wrong with the record's fix time, if anything. */
function timeReason(r: PositionRecord, cfg: SanityConfig): SanityReason | null {
  if (!Number.isFinite(r.time) || r.time < cfg.minValidTime) return 'invalid_time';
  if (Number.isFinite(r.receivedAt) && r.time > r.receivedAt + cfg.maxFutureMs) return 'future_time';
  return null;
}

/** Rules that need only the record itself: coordinates and timestamps. */
export function pointReasons(r: PositionRecord, cfg: SanityConfig = defaultSanityConfig): SanityReason[] {
  const reasons: SanityReason[] = [];
  const coordinate = coordinateReason(r);
  if (coordinate) reasons.push(coordinate);
  const time = timeReason(r, cfg);
  if (time) reasons.push(time);
  return reasons;
}

/** `pointReasons(r, cfg).length === 0` without building the list (the folds ask it of every record). */
export function pointValid(r: PositionRecord, cfg: SanityConfig = defaultSanityConfig): boolean {
  return coordinateReason(r) === null && timeReason(r, cfg) === null;
}

function isJump(a: PositionRecord, b: PositionRecord, cfg: SanityConfig): boolean {
  const d = haversineM(a.lat, a.lon, b.lat, b.lon);
  if (d < cfg.minJumpDistanceM) return false;
  return impliedSpeedKmh(d, b.time - a.time) > cfg.maxJumpKmh;
}

/** Per-vehicle state of the live check (serialisable). */
export interface LiveSanityState {
  readonly reference?: PositionRecord;
  readonly rejectedJumps: number;
}

export const initialLiveSanityState: LiveSanityState = { rejectedJumps: 0 };

/**
 * Live decision for one incoming record. Records older than the reference do not move the vehicle
 * anyway (the caller keeps the newest position), so they are only checked by the point rules.
 */
export function checkLive(
  state: LiveSanityState,
  r: PositionRecord,
  cfg: SanityConfig = defaultSanityConfig,
): { verdict: SanityVerdict; state: LiveSanityState } {
  const reasons = pointReasons(r, cfg);
  if (reasons.length > 0) return { verdict: { ignored: true, reasons }, state };
  const ref = state.reference;
  if (!ref || r.time < ref.time) {
    return { verdict: { ignored: false, reasons }, state: ref ? state : { reference: r, rejectedJumps: 0 } };
  }
  if (isJump(ref, r, cfg)) {
    const rejected = state.rejectedJumps + 1;
    if (rejected >= cfg.reanchorAfter) {
      return { verdict: { ignored: false, reasons }, state: { reference: r, rejectedJumps: 0 } };
    }
    return {
      verdict: { ignored: true, reasons: ['impossible_jump'] },
      state: { reference: ref, rejectedJumps: rejected },
    };
  }
  return { verdict: { ignored: false, reasons }, state: { reference: r, rejectedJumps: 0 } };
}

/**
 * Flags a set of records of one device. The result is sorted by time and each record carries
 * `ignored`. A record is an impossible jump when it is an isolated spike: the implied speed from its
 * previous valid neighbour and to its next valid neighbour both exceed the limit (only one neighbour:
 * that one). A pre-existing `ignored: true` is kept.
 */
export function flagSequence<T extends PositionRecord>(
  sorted: readonly T[],
  cfg: SanityConfig = defaultSanityConfig,
): (T & { ignored: boolean; sanityReasons: SanityReason[] })[] {
  const pointBad = sorted.map((r) => pointReasons(r, cfg));
  const valid: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (pointBad[i]!.length === 0) valid.push(i);
  const jump = new Set<number>();
  const at = (k: number): T | undefined => (k >= 0 && k < valid.length ? sorted[valid[k]!] : undefined);
  for (let k = 0; k < valid.length; k++) {
    const cur = at(k)!;
    const prev = at(k - 1);
    const next = at(k + 1);
    let spike: boolean;
    if (prev && next) {
      spike = isJump(prev, cur, cfg) && isJump(cur, next, cfg);
    } else {
      // An end of the set has one neighbour, so it is the outlier only when that neighbour agrees with
      // the neighbour after it (two records alone cannot say which one is wrong).
      const n1 = prev ?? next;
      const n2 = prev ? at(k - 2) : at(k + 2);
      spike = !!n1 && !!n2 && isJump(cur, n1, cfg) && !isJump(n1, n2, cfg);
    }
    if (spike) jump.add(valid[k]!);
  }
  return sorted.map((r, i) => {
    const reasons: SanityReason[] = [...pointBad[i]!];
    if (jump.has(i)) reasons.push('impossible_jump');
    return { ...r, ignored: r.ignored === true || reasons.length > 0, sanityReasons: reasons };
  });
}
