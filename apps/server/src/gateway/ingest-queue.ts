import type { LocationInput, Storage } from '../storage/storage';

interface Pending {
  items: readonly LocationInput[];
  resolve: (stored: LocationInput[]) => void;
  reject: (err: unknown) => void;
}

export interface IngestQueueOptions {
  /** Flush when this many records wait (default 2000). */
  maxBatch?: number;
  /** Flush this many ms after the first record of a batch arrived (default 4). */
  maxDelayMs?: number;
  /** Batches in flight at once (default 2: one committing while the next fills). */
  concurrency?: number;
}

export interface IngestStats {
  batches: number;
  records: number;
  stored: number;
  failures: number;
  /** Total milliseconds spent inside insertLocations (all batches). */
  insertMs: number;
}

/**
 * Batches location records ACROSS devices into one multi-row insert. Each caller's promise resolves
 * with its records that were new (resends are dropped by the unique device + fix time) once the batch
 * holding them is committed, and rejects when that batch failed: the caller then ACKs nothing, so the
 * device keeps its data and sends it again. A caller's records never straddle two batches, so one
 * frame's records are committed together or not at all.
 */
export class IngestQueue {
  private pending: Pending[] = [];
  private pendingCount = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  private readonly concurrency: number;
  readonly stats: IngestStats = { batches: 0, records: 0, stored: 0, failures: 0, insertMs: 0 };

  constructor(
    private readonly storage: Pick<Storage, 'insertLocations'>,
    options: IngestQueueOptions = {},
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 2000);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 4);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
  }

  submit(items: readonly LocationInput[]): Promise<LocationInput[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      this.pendingCount += items.length;
      if (this.pendingCount >= this.maxBatch) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
    });
  }

  /** Resolves when everything submitted so far is committed (or failed). */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.inFlight > 0) {
      if (this.pending.length > 0) this.kick();
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.pending.length > 0 && this.inFlight < this.concurrency) {
      const take: Pending[] = [];
      let n = 0;
      while (this.pending.length > 0 && (n === 0 || n + this.pending[0]!.items.length <= this.maxBatch)) {
        const p = this.pending.shift()!;
        take.push(p);
        n += p.items.length;
      }
      this.pendingCount -= n;
      this.inFlight++;
      void this.flush(take, n).finally(() => {
        this.inFlight--;
        if (this.pending.length > 0) {
          if (this.pendingCount >= this.maxBatch || this.inFlight === 0) this.kick();
          else this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
        }
        for (const w of this.waiting.splice(0)) w();
      });
    }
  }

  private async flush(take: Pending[], n: number): Promise<void> {
    const batch: LocationInput[] = new Array(n);
    let i = 0;
    for (const p of take) for (const item of p.items) batch[i++] = item;
    this.stats.batches++;
    this.stats.records += n;
    let stored: LocationInput[];
    const t0 = performance.now();
    try {
      stored = await this.storage.insertLocations(batch);
      this.stats.insertMs += performance.now() - t0;
    } catch (err) {
      this.stats.failures++;
      for (const p of take) p.reject(err);
      return;
    }
    this.stats.stored += stored.length;
    if (stored.length === n) {
      for (const p of take) p.resolve([...p.items]);
      return;
    }
    const fresh = new Set(stored);
    for (const p of take) p.resolve(p.items.filter((x) => fresh.has(x)));
  }
}
