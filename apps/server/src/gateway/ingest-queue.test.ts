import { describe, expect, it } from 'vitest';
import { IngestQueue } from './ingest-queue';
import type { LocationInput } from '../storage/storage';

const loc = (deviceId: number, t: number): LocationInput => ({
  deviceId,
  vehicleId: null,
  companyId: 1,
  fixTime: new Date(t),
  latitude: 25,
  longitude: 55,
});

/** A storage double with a unique (device, fix time) like the real table. */
function fakeStorage(opts: { failTimes?: number } = {}) {
  const keys = new Set<string>();
  const batches: number[] = [];
  let fail = opts.failTimes ?? 0;
  return {
    batches,
    keys,
    async insertLocations(batch: readonly LocationInput[]) {
      await new Promise((r) => setTimeout(r, 1));
      if (fail > 0) {
        fail--;
        throw new Error('down');
      }
      batches.push(batch.length);
      return batch.filter((r) => {
        const k = `${r.deviceId}:${r.fixTime.getTime()}`;
        if (keys.has(k)) return false;
        keys.add(k);
        return true;
      });
    },
  };
}

describe('IngestQueue', () => {
  it('batches submissions of many devices into few inserts and resolves each with its own new rows', async () => {
    const s = fakeStorage();
    const q = new IngestQueue(s, { maxBatch: 1000, maxDelayMs: 5, concurrency: 1 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, d) => q.submit([loc(d, 1), loc(d, 2)])));
    expect(results.every((r) => r.length === 2)).toBe(true);
    expect(s.batches.reduce((a, b) => a + b, 0)).toBe(100);
    expect(s.batches.length).toBeLessThanOrEqual(2);
  });

  it.each([
    ['maxBatch splits between submissions', 10, 4, [9, 3]],
    ['one big submission is never split', 2, 1, [3]],
    ['exact fit', 6, 4, [6, 6]],
  ])('%s', async (_name, maxBatch, submissions, expectedBatches) => {
    const s = fakeStorage();
    const q = new IngestQueue(s, { maxBatch, maxDelayMs: 1, concurrency: 1 });
    await Promise.all(
      Array.from({ length: submissions }, (_, d) => q.submit([loc(d, 1), loc(d, 2), loc(d, 3)])),
    );
    expect(s.batches).toEqual(expectedBatches);
  });

  it('rejects every submission of a failed batch (nothing to ACK) and a resend is stored once', async () => {
    const s = fakeStorage({ failTimes: 1 });
    const q = new IngestQueue(s, { maxBatch: 100, maxDelayMs: 2, concurrency: 1 });
    const a = q.submit([loc(1, 1)]);
    const b = q.submit([loc(2, 1)]);
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
    expect(q.stats.failures).toBe(1);
    expect(await q.submit([loc(1, 1)])).toHaveLength(1);
    expect(await q.submit([loc(1, 1)])).toHaveLength(0); // resend: already stored
    expect(s.keys.size).toBe(1);
  });

  it('drain waits for everything submitted', async () => {
    const s = fakeStorage();
    const q = new IngestQueue(s, { maxBatch: 1000, maxDelayMs: 50, concurrency: 2 });
    void q.submit([loc(1, 1)]);
    void q.submit([loc(2, 1)]);
    await q.drain();
    expect(s.keys.size).toBe(2);
  });
});
