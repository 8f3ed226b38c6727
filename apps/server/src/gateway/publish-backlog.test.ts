import { describe, expect, it } from 'vitest';
import { PublishBacklog } from './publish-backlog';

describe('PublishBacklog', () => {
  it('costs nothing under the limit and holds frames at it until publishes settle', async () => {
    const b = new PublishBacklog(10);
    expect(b.ready()).toBeUndefined();
    b.add(6);
    let finishA!: () => void;
    b.settle(6, new Promise<void>((r) => (finishA = r)));
    b.add(4);
    let failB!: (e: Error) => void;
    b.settle(4, new Promise<void>((_r, j) => (failB = j)));
    expect(b.size).toBe(10);
    const wait = b.ready();
    expect(wait).toBeInstanceOf(Promise);
    let through = false;
    void wait!.then(() => (through = true));
    await Promise.resolve();
    expect(through).toBe(false);
    // A failed publish leaves the backlog too (its error went to the gateway's log).
    failB(new Error('hub down'));
    await new Promise((r) => setImmediate(r));
    expect(b.size).toBe(6);
    expect(through).toBe(true);
    finishA();
    await new Promise((r) => setImmediate(r));
    expect(b.size).toBe(0);
    expect(b.peak).toBe(10);
    expect(b.waits).toBe(1);
  });

  it('lets every waiting frame go when closed', async () => {
    const b = new PublishBacklog(1);
    b.add(5);
    const waits = [b.ready(), b.ready()];
    b.close();
    await Promise.all(waits);
    expect(b.ready()).toBeUndefined();
  });
});
