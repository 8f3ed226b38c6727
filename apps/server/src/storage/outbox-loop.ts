/**
 * The loop that drains an outbox table (push notifications, e-mail and SMS): one pass at a time, a
 * wake-up during a pass runs one more pass right after it, otherwise it polls every `pollMs`, and old
 * rows are pruned at most every `pruneEveryMs`. Rows are claimed by the outbox itself, so every process
 * running this loop competes for them safely.
 */
export interface OutboxLoop {
  /** Run a pass now (or right after the current one). */
  wake(): void;
  /** Stop polling and wait for the pass in progress. */
  stop(): Promise<void>;
}

export function startOutboxLoop(o: {
  drain: () => Promise<unknown>;
  prune: () => Promise<unknown>;
  pollMs: number;
  pruneEveryMs: number;
  now: () => Date;
  onError: (err: Error) => void;
}): OutboxLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let busy = false;
  let again = false;
  let lastPrune = 0;
  let current: Promise<unknown> = Promise.resolve();
  const wake = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    if (timer) clearTimeout(timer);
    timer = null;
    current = (async () => {
      do {
        again = false;
        try {
          await o.drain();
          if (o.now().getTime() - lastPrune >= o.pruneEveryMs) {
            lastPrune = o.now().getTime();
            await o.prune();
          }
        } catch (err) {
          o.onError(err as Error);
        }
      } while (again && !stopped);
      busy = false;
      if (!stopped) timer = setTimeout(wake, o.pollMs);
    })();
  };
  wake();
  return {
    wake,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
