import { describe, expect, it } from 'vitest';
import { InProcessBus, subjectMatches } from './bus';

describe('subjectMatches', () => {
  it.each([
    ['realtime.*', 'realtime.abc', true],
    ['realtime.*', 'realtime.abc.def', false],
    ['realtime.>', 'realtime.abc.def', true],
    ['realtime.>', 'realtime', false],
    ['a.b', 'a.b', true],
    ['a.b', 'a.c', false],
    ['a.*.c', 'a.x.c', true],
    ['a.b.c', 'a.b', false],
  ])('%s vs %s -> %s', (p, s, want) => expect(subjectMatches(p, s)).toBe(want));
});

describe('InProcessBus', () => {
  it('fans out, honours queue groups and unsubscribe, isolates handler errors', async () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus((e) => errors.push(e));
    const got: string[] = [];
    const off = bus.subscribe<number>('x.*', (m, s) => void got.push(`all:${s}:${m}`));
    bus.subscribe('x.1', () => {
      throw new Error('boom');
    });
    bus.subscribe<number>('x.>', (m) => void got.push(`q1:${m}`), { queue: 'w' });
    bus.subscribe<number>('x.>', (m) => void got.push(`q2:${m}`), { queue: 'w' });
    await bus.publish('x.1', 1);
    await bus.publish('x.2', 2);
    off();
    await bus.publish('x.3', 3);
    expect(got).toEqual(['all:x.1:1', 'q1:1', 'all:x.2:2', 'q2:2', 'q1:3']);
    expect(errors).toHaveLength(1);
    await bus.close();
    await expect(bus.publish('x.1', 1)).rejects.toThrow();
  });
});
