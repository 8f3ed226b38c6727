import type { LiveUpdate } from './merge';

/** When a batch of live updates is applied: after a quiet moment, or at the latest after maxWaitMs. */
export interface BatchTiming {
  /** Apply once no update has arrived for this long (a burst has ended). */
  quietMs: number;
  /** ... but never hold the first pending update longer than this. */
  maxWaitMs: number;
}

/**
 * Devices report about once a second and the server relays a company's updates in bursts, so
 * applying them frame by frame would redraw the map and list several times per burst. Waiting for
 * the burst to end (or at most a quarter of a second) applies each burst once: one cache write, one
 * render, one canvas paint.
 */
export const defaultBatchTiming: BatchTiming = { quietMs: 40, maxWaitMs: 250 };

export function shouldFlush(now: number, firstAt: number, lastAt: number, timing: BatchTiming): boolean {
  return now - lastAt >= timing.quietMs || now - firstAt >= timing.maxWaitMs;
}

/** The clock and frame scheduler (the browser's by default; fakes in tests). */
export interface FrameScheduler {
  now(): number;
  request(callback: (time: number) => void): number;
  cancel(handle: number): void;
}

export const browserFrames: FrameScheduler = {
  now: () => performance.now(),
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Collects live updates per vehicle (later fields win over earlier ones of the same vehicle) and
 * hands them over in one batch on an animation frame, when {@link shouldFlush} says so.
 */
export class UpdateBatcher {
  private pending = new Map<string, LiveUpdate>();
  private firstAt = 0;
  private lastAt = 0;
  private frame: number | null = null;

  constructor(
    private readonly onFlush: (batch: ReadonlyMap<string, LiveUpdate>) => void,
    private readonly timing: BatchTiming = defaultBatchTiming,
    private readonly frames: FrameScheduler = browserFrames,
  ) {}

  push(vehicleUuid: string, update: LiveUpdate): void {
    const now = this.frames.now();
    if (this.pending.size === 0) this.firstAt = now;
    this.lastAt = now;
    const previous = this.pending.get(vehicleUuid);
    this.pending.set(vehicleUuid, previous ? { ...previous, ...update } : update);
    this.frame ??= this.frames.request(this.tick);
  }

  /** Pending vehicles (for tests and diagnostics). */
  get size(): number {
    return this.pending.size;
  }

  /** Applies whatever is pending now. */
  flush(): void {
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.onFlush(batch);
  }

  /** Drops pending updates and stops the frame loop. */
  dispose(): void {
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
    this.pending = new Map();
  }

  private readonly tick = (): void => {
    this.frame = null;
    if (this.pending.size === 0) return;
    if (shouldFlush(this.frames.now(), this.firstAt, this.lastAt, this.timing)) this.flush();
    else this.frame = this.frames.request(this.tick);
  };
}
