export const deltaDirections = ['up', 'down', 'flat'] as const;
export type DeltaDirection = (typeof deltaDirections)[number];
export const deltaTones = ['positive', 'negative', 'neutral'] as const;
export type DeltaTone = (typeof deltaTones)[number];

export interface StatDelta {
  /** Signed change in percent of the previous value; null when there is no base to compare with. */
  percent: number | null;
  direction: DeltaDirection;
  tone: DeltaTone;
}

/**
 * Change of `value` against `previous`. Direction follows the sign; tone depends on which way is
 * good (`goodDirection`: 'up' for distance or trips, 'down' for fuel used or violations). A
 * previous value of 0 gives no percent (division by zero) but still a direction. Non-finite input
 * throws a RangeError.
 */
export function statDelta(value: number, previous: number, goodDirection: 'up' | 'down' = 'up'): StatDelta {
  if (!Number.isFinite(value) || !Number.isFinite(previous)) {
    throw new RangeError(`statDelta needs finite numbers (got ${value} and ${previous})`);
  }
  const diff = value - previous;
  const percent = previous === 0 ? null : (diff / Math.abs(previous)) * 100;
  return fromChange(diff, percent, goodDirection);
}

/** A delta from a change given in percent already (e.g. computed by the server). */
export function deltaFromPercent(percent: number, goodDirection: 'up' | 'down' = 'up'): StatDelta {
  if (!Number.isFinite(percent))
    throw new RangeError(`deltaFromPercent needs a finite number (got ${percent})`);
  return fromChange(percent, percent, goodDirection);
}

function fromChange(diff: number, percent: number | null, goodDirection: 'up' | 'down'): StatDelta {
  const direction: DeltaDirection = diff > 0 ? 'up' : diff < 0 ? 'down' : 'flat';
  const tone: DeltaTone =
    direction === 'flat' ? 'neutral' : direction === goodDirection ? 'positive' : 'negative';
  return { percent, direction, tone };
}
