import type { LiveUpdate } from './merge';

/**
 * Catching up after a gap in the live stream (issue 22).
 *
 * The live list is fetched once (staleTime Infinity) and then moved by the socket's updates. Whatever
 * happened while the socket was down (laptop asleep, a phone between networks, a background tab the
 * browser throttled) never arrives as an update, so on every such occasion the portal fetches the list
 * again and only then goes on applying the stream:
 *
 * - while a resync runs, live batches are held (merged per vehicle) instead of written to the cache;
 * - when the fetch has answered (react-query swaps the list in one piece, keeping the old one on screen
 *   meanwhile, so the map never goes empty), the held updates are applied on top of it, but only those
 *   not older than what the fetch brought (an update that left before the answer was made must not move
 *   a vehicle back);
 * - a resync asked for while one is running fetches once more after it (the socket may have opened after
 *   the first request left, and what happened in between would be missed otherwise).
 *
 * A failed fetch is not retried here: the next reconnect, `online` or return to the tab tries again, and
 * the held updates are applied anyway so the stream never stops.
 */
export interface ResyncDeps {
  /** Fetches the live list (and the unread count) again; resolves when the list is in the cache. */
  refetch(): Promise<unknown>;
  /** Writes a batch into the cache; `onlyNewer` skips updates older than the cached location. */
  apply(batch: ReadonlyMap<string, LiveUpdate>, onlyNewer: boolean): void;
}

export class LiveResync {
  private held: Map<string, LiveUpdate> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private disposed = false;
  /** Completed resyncs (diagnostics and tests). */
  count = 0;

  constructor(private readonly deps: ResyncDeps) {}

  /** True while a fetch is under way and live batches are being held. */
  get syncing(): boolean {
    return this.held !== null;
  }

  /** A batch from the live stream: applied now, or held until the running resync has answered. */
  offer(batch: ReadonlyMap<string, LiveUpdate>): void {
    if (this.disposed) return;
    if (!this.held) {
      this.deps.apply(batch, false);
      return;
    }
    for (const [uuid, update] of batch) {
      const previous = this.held.get(uuid);
      this.held.set(uuid, previous ? { ...previous, ...update } : update);
    }
  }

  /** Fetches again and then resumes the stream; resolves when done (coalesced with a running one). */
  resync(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.held ??= new Map();
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.deps.refetch();
        } catch {
          // Offline again or the server is away: the next trigger tries again (see the header).
        }
      } while (this.again && !this.disposed);
      const held = this.held;
      this.held = null;
      this.running = null;
      if (this.disposed) return;
      this.count += 1;
      if (held && held.size > 0) this.deps.apply(held, true);
    })();
    return this.running;
  }

  dispose(): void {
    this.disposed = true;
    this.held = null;
  }
}
