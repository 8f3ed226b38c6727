import { describe, expect, it } from 'vitest';
import type { LiveUpdate } from './merge';
import { LiveResync } from './resync';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function harness() {
  const fetches: ReturnType<typeof deferred>[] = [];
  const applied: { batch: Map<string, LiveUpdate>; onlyNewer: boolean }[] = [];
  const resync = new LiveResync({
    refetch: () => {
      const d = deferred();
      fetches.push(d);
      return d.promise;
    },
    apply: (batch, onlyNewer) => applied.push({ batch: new Map(batch), onlyNewer }),
  });
  return { resync, fetches, applied };
}

const at = (uuid: string, speed: number): Map<string, LiveUpdate> =>
  new Map([[uuid, { speed, created_at: `2026-11-21T08:00:0${speed % 10}Z` }]]);

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('LiveResync', () => {
  it('applies batches at once when no resync runs', () => {
    const { resync, applied } = harness();
    resync.offer(at('a', 1));
    expect(applied).toEqual([{ batch: at('a', 1), onlyNewer: false }]);
    expect(resync.syncing).toBe(false);
  });

  it('holds batches while the list is fetched and applies them (newer only) after the answer', async () => {
    const { resync, fetches, applied } = harness();
    const done = resync.resync();
    expect(resync.syncing).toBe(true);
    resync.offer(at('a', 1));
    resync.offer(new Map([['a', { latitude: 5 }]]));
    resync.offer(at('b', 2));
    expect(applied).toEqual([]);
    fetches[0]!.resolve();
    await done;
    expect(resync.syncing).toBe(false);
    expect(resync.count).toBe(1);
    expect(applied).toHaveLength(1);
    expect(applied[0]!.onlyNewer).toBe(true);
    // Held updates of one vehicle are merged, later fields winning.
    expect(applied[0]!.batch.get('a')).toEqual({ speed: 1, created_at: '2026-11-21T08:00:01Z', latitude: 5 });
    expect(applied[0]!.batch.get('b')?.speed).toBe(2);
    // Afterwards the stream flows straight through again.
    resync.offer(at('c', 3));
    expect(applied[1]).toEqual({ batch: at('c', 3), onlyNewer: false });
  });

  it('a resync asked for during one fetches once more, then resumes; no update is lost', async () => {
    const { resync, fetches, applied } = harness();
    const first = resync.resync();
    const second = resync.resync();
    expect(second).toBe(first);
    expect(fetches).toHaveLength(1);
    resync.offer(at('a', 1));
    fetches[0]!.resolve();
    await tick();
    expect(fetches).toHaveLength(2); // the second fetch, because the socket may have opened after the first left
    expect(applied).toEqual([]);
    fetches[1]!.resolve();
    await first;
    expect(applied).toEqual([{ batch: at('a', 1), onlyNewer: true }]);
    expect(resync.count).toBe(1);
  });

  it('a failed fetch still resumes the stream (the next trigger fetches again)', async () => {
    const { resync, fetches, applied } = harness();
    const done = resync.resync();
    resync.offer(at('a', 4));
    fetches[0]!.reject(new Error('offline'));
    await done;
    expect(applied).toEqual([{ batch: at('a', 4), onlyNewer: true }]);
    expect(resync.syncing).toBe(false);
  });

  it('after dispose nothing is applied or fetched', async () => {
    const { resync, fetches, applied } = harness();
    const done = resync.resync();
    resync.offer(at('a', 1));
    resync.dispose();
    fetches[0]!.resolve();
    await done;
    resync.offer(at('a', 2));
    await resync.resync();
    expect(applied).toEqual([]);
    expect(fetches).toHaveLength(1);
  });
});
