/** The timer functions a countdown uses; injected so tests drive time by hand. */
export interface CountdownTimers {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}

export const browserTimers: CountdownTimers = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface CountdownOptions {
  /** Whole seconds to count down from (>= 0). */
  seconds: number;
  /** Called with the seconds left after each tick (seconds - 1, ..., 0). */
  onTick?: (remaining: number) => void;
  /** Called once when the countdown reaches 0 (immediately on start for seconds = 0). */
  onDone?: () => void;
  timers?: CountdownTimers;
  /** Tick length in ms (1000). */
  tickMs?: number;
}

export interface Countdown {
  /** Seconds left now. */
  remaining(): number;
  /** Stops ticking without calling onDone (idempotent). */
  stop(): void;
}

/** Validates a countdown length: a finite, non-negative number of seconds (fractions round up). */
export function normalizeSeconds(seconds: number): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`Countdown seconds must be a finite number >= 0 (got ${String(seconds)})`);
  }
  return Math.ceil(seconds);
}

/**
 * Starts a countdown: one tick per `tickMs`, onTick with the seconds left, onDone once at 0, then
 * the interval is cleared. Pure apart from the injected timers.
 */
export function startCountdown({
  seconds,
  onTick,
  onDone,
  timers = browserTimers,
  tickMs = 1000,
}: CountdownOptions): Countdown {
  let left = normalizeSeconds(seconds);
  let handle: unknown = null;
  const stop = () => {
    if (handle !== null) timers.clearInterval(handle);
    handle = null;
  };
  if (left === 0) {
    onDone?.();
    return { remaining: () => 0, stop };
  }
  handle = timers.setInterval(() => {
    if (left <= 0) return;
    left -= 1;
    onTick?.(left);
    if (left === 0) {
      stop();
      onDone?.();
    }
  }, tickMs);
  return { remaining: () => left, stop };
}
