import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from './logger';
import { globalTimers } from './timers';

describe('defaults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('globalTimers delegate to the (possibly faked) globals at call time', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const ticks: string[] = [];
    const interval = globalTimers.setInterval(() => ticks.push('i'), 10);
    const timeout = globalTimers.setTimeout(() => ticks.push('t'), 15);
    const cancelled = globalTimers.setTimeout(() => ticks.push('never'), 5);
    globalTimers.clearTimeout(cancelled);
    vi.advanceTimersByTime(20);
    globalTimers.clearInterval(interval);
    globalTimers.clearTimeout(timeout);
    vi.advanceTimersByTime(50);
    expect(ticks).toEqual(['i', 't', 'i']);
  });

  it('silentLogger swallows everything', () => {
    expect(silentLogger.debug('a')).toBeUndefined();
    expect(silentLogger.warn('b', 1)).toBeUndefined();
    expect(silentLogger.error('c', new Error('x'))).toBeUndefined();
  });
});
