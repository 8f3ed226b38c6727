import { useEffect, useRef, useState } from 'react';
import { browserTimers, normalizeSeconds, startCountdown, type CountdownTimers } from './countdown';

export interface UseCountdownOptions {
  /** Called once when the count reaches 0. */
  onComplete?: () => void;
  /** Pauses (and resets) the countdown while false. */
  running?: boolean;
  /** Change it to restart from `seconds` (e.g. the retry attempt number). */
  restartKey?: unknown;
  timers?: CountdownTimers;
}

/** Seconds left of a countdown from `seconds`, restarted when `seconds` or `restartKey` change. */
export function useCountdown(
  seconds: number,
  { onComplete, running = true, restartKey, timers = browserTimers }: UseCountdownOptions = {},
): number {
  const total = normalizeSeconds(seconds);
  const [remaining, setRemaining] = useState(total);
  const done = useRef(onComplete);
  useEffect(() => {
    done.current = onComplete;
  });
  useEffect(() => {
    setRemaining(total);
    if (!running) return;
    const countdown = startCountdown({
      seconds: total,
      timers,
      onTick: setRemaining,
      onDone: () => done.current?.(),
    });
    return countdown.stop;
  }, [total, running, restartKey, timers]);
  return remaining;
}
