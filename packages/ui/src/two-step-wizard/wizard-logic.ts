/** What a step's validator may return: a verdict, or a promise of one. */
export type StepValidator = () => boolean | Promise<boolean>;

export type StepCheck = { ok: true } | { ok: false; error?: unknown };

/**
 * Runs a step's validator. No validator means the step is valid. A validator that throws or
 * rejects blocks the step (the error is handed back, never rethrown), so a broken validator can
 * not let an incomplete form through.
 */
export async function checkStep(validate: StepValidator | undefined): Promise<StepCheck> {
  if (!validate) return { ok: true };
  try {
    const verdict = await validate();
    return verdict === true ? { ok: true } : { ok: false };
  } catch (error) {
    return { ok: false, error };
  }
}

export type StepState = 'complete' | 'current' | 'upcoming';

/** The state of step `index` while `current` is shown. */
export function stepState(index: number, current: number): StepState {
  if (index < current) return 'complete';
  if (index === current) return 'current';
  return 'upcoming';
}

/** Clamps a requested step index to [0, total - 1]; throws for a wizard without steps. */
export function clampStep(index: number, total: number): number {
  if (!Number.isInteger(total) || total < 1)
    throw new RangeError(`A wizard needs at least one step (got ${total})`);
  if (!Number.isFinite(index)) return 0;
  return Math.min(Math.max(Math.trunc(index), 0), total - 1);
}
