import { describe, expect, it } from 'vitest';
import { shouldFlush, UpdateBatcher, type FrameScheduler } from './update-batcher';
import type { LiveUpdate } from './merge';

const timing = { quietMs: 40, maxWaitMs: 250 };

/** A hand-driven clock and frame queue: tests decide when time passes and frames run. */
function fakeFrames() {
  let time = 0;
  let next = 1;
  const queue = new Map<number, (t: number) => void>();
  const frames: FrameScheduler = {
    now: () => time,
    request: (cb) => {
      queue.set(next, cb);
      return next++;
    },
    cancel: (h) => void queue.delete(h),
  };
  return {
    frames,
    advance(ms: number) {
      time += ms;
    },
    /** Runs the frame callbacks queued so far (as one browser frame would). */
    runFrame() {
      const callbacks = [...queue.values()];
      queue.clear();
      for (const cb of callbacks) cb(time);
    },
    get queued() {
      return queue.size;
    },
  };
}

describe('shouldFlush', () => {
  it.each([
    [100, 0, 100, false], // still arriving, first one young
    [140, 0, 100, true], // quiet for 40 ms
    [250, 0, 249, true], // the first update waited the maximum
    [249, 0, 248, false],
  ])('now %i, first %i, last %i -> %s', (now, first, last, expected) => {
    expect(shouldFlush(now, first, last, timing)).toBe(expected);
  });
});

describe('UpdateBatcher', () => {
  const at = (created_at: string, latitude?: number): LiveUpdate => ({ created_at, latitude });

  it('applies a burst once, after it has ended, merging updates of the same vehicle', () => {
    const clock = fakeFrames();
    const batches: Map<string, LiveUpdate>[] = [];
    const batcher = new UpdateBatcher((b) => batches.push(new Map(b)), timing, clock.frames);
    batcher.push('a', at('t1', 1));
    clock.advance(5);
    batcher.push('b', at('t1', 2));
    batcher.push('a', { speed: 30 });
    clock.advance(16);
    clock.runFrame(); // 21 ms: the burst is still arriving
    expect(batches).toHaveLength(0);
    clock.advance(40);
    clock.runFrame(); // quiet for 56 ms: flush
    expect(batches).toHaveLength(1);
    expect(batches[0]!.get('a')).toEqual({ created_at: 't1', latitude: 1, speed: 30 });
    expect(batches[0]!.get('b')).toEqual({ created_at: 't1', latitude: 2 });
    expect(clock.queued).toBe(0);
  });

  it('does not hold a steady stream longer than maxWaitMs', () => {
    const clock = fakeFrames();
    let flushed = 0;
    const batcher = new UpdateBatcher(() => (flushed += 1), timing, clock.frames);
    for (let i = 0; i < 20; i += 1) {
      batcher.push(`v${i}`, at('t'));
      clock.advance(16);
      clock.runFrame();
    }
    // 320 ms of updates every 16 ms: never quiet, flushed by the maximum wait.
    expect(flushed).toBe(1);
    expect(batcher.size).toBeLessThan(20);
  });

  it('flush() applies at once and dispose() drops what is pending', () => {
    const clock = fakeFrames();
    let last: ReadonlyMap<string, LiveUpdate> | null = null;
    const batcher = new UpdateBatcher((b) => (last = b), timing, clock.frames);
    batcher.push('a', at('t'));
    batcher.flush();
    expect(last!.size).toBe(1);
    expect(clock.queued).toBe(0);
    batcher.push('b', at('t'));
    batcher.dispose();
    clock.advance(1000);
    clock.runFrame();
    expect(last!.has('b')).toBe(false);
    expect(batcher.size).toBe(0);
  });
});
