import { describe, expect, it, vi } from 'vitest';
import { normalizeSeconds, startCountdown, type CountdownTimers } from './countdown';

/** Hand-driven timers: `tick()` fires every live interval once. */
function manualTimers() {
  const live = new Map<number, () => void>();
  let next = 1;
  const timers: CountdownTimers = {
    setInterval: (cb) => {
      live.set(next, cb);
      return next++;
    },
    clearInterval: (h) => {
      live.delete(h as number);
    },
  };
  return { timers, live, tick: () => [...live.values()].forEach((cb) => cb()) };
}

describe('startCountdown', () => {
  it('ticks down to zero, calls onDone once and clears its interval', () => {
    const { timers, live, tick } = manualTimers();
    const ticks: number[] = [];
    const onDone = vi.fn();
    const c = startCountdown({ seconds: 3, timers, onTick: (s) => ticks.push(s), onDone });
    expect(c.remaining()).toBe(3);
    tick();
    tick();
    expect(onDone).not.toHaveBeenCalled();
    tick();
    expect(ticks).toEqual([2, 1, 0]);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(live.size).toBe(0);
    tick();
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('stop() halts without onDone', () => {
    const { timers, live, tick } = manualTimers();
    const onDone = vi.fn();
    const c = startCountdown({ seconds: 5, timers, onDone });
    tick();
    c.stop();
    c.stop();
    tick();
    expect(c.remaining()).toBe(4);
    expect(onDone).not.toHaveBeenCalled();
    expect(live.size).toBe(0);
  });

  it('zero seconds completes at once without a timer', () => {
    const { timers, live } = manualTimers();
    const onDone = vi.fn();
    startCountdown({ seconds: 0, timers, onDone });
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(live.size).toBe(0);
  });

  it('passes the tick length to the timer', () => {
    const setInterval = vi.fn(() => 1);
    startCountdown({ seconds: 2, tickMs: 250, timers: { setInterval, clearInterval: vi.fn() } });
    expect(setInterval).toHaveBeenCalledWith(expect.any(Function), 250);
  });
});

describe('normalizeSeconds', () => {
  it.each([
    [0, 0],
    [10, 10],
    [2.2, 3],
  ])('%d -> %d', (input, out) => expect(normalizeSeconds(input)).toBe(out));
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number])('rejects %s', (bad) => {
    expect(() => normalizeSeconds(bad)).toThrow(RangeError);
  });
});
