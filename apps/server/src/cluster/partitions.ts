import type { LockSession } from './lease';

/**
 * Partition ownership among the workers of a cluster, on the node's PostgreSQL lock session
 * (lease.ts). Every worker holds a membership lock (key = its backend pid); each round
 * (`session.checkMs`) it counts the members n, aims at ceil(P / n) partitions, gives back the extra
 * ones (after their reader stopped: the batch in hand is acked first) and try-locks free ones until
 * it has its share. A worker that dies loses its session and with it every partition lock: the others
 * pick the partitions up on their next round. A worker whose session is lost stops every reader at
 * once (`revoke`), since another worker may now own them.
 *
 * Ownership is what lets a partition's consumer have many messages out at once (batches) while a
 * device's messages are still handled one after another by one process, and it keeps a device's
 * pipeline state (geofences, sanity, alert hysteresis) in one worker's memory. Storage does not rely
 * on it: inserts are idempotent on (device, fix time), so an overlap during a hand-over (two owners for
 * a moment after a network cut) can reorder the live pipeline but never lose or duplicate a record.
 */
export interface PartitionOwnershipOptions {
  session: LockSession;
  partitions: number;
  /** Starts reading a partition this node just locked. */
  acquire: (partition: number) => Promise<void>;
  /** Stops reading a partition (graceful: the node is giving it back, or closing). */
  release: (partition: number) => Promise<void>;
  log?: (msg: string) => void;
}

export class PartitionOwnership {
  private readonly owned = new Set<number>();
  private readonly busy = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> = Promise.resolve();
  private member = false;
  private closed = false;
  private readonly offLost: () => void;
  private readonly offConnected: () => void;
  private readonly log: (msg: string) => void;
  /** Partitions taken and given back so far. */
  readonly stats = { acquired: 0, released: 0, revoked: 0, members: 0 };

  constructor(private readonly o: PartitionOwnershipOptions) {
    this.log = o.log ?? (() => undefined);
    this.offLost = o.session.onLost(() => {
      this.member = false;
      const lost = [...this.owned];
      this.owned.clear();
      this.stats.revoked += lost.length;
      for (const p of lost) void this.stopReader(p);
    });
    this.offConnected = o.session.onConnected(() => this.kick());
  }

  get partitions(): number[] {
    return [...this.owned].sort((a, b) => a - b);
  }

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.o.session.checkMs);
    this.timer.unref();
  }

  private kick(): void {
    if (this.closed) return;
    this.round = this.round
      .then(() => this.rebalance())
      .catch((err: unknown) => this.log(`partitions: ${String(err)}`));
  }

  private async stopReader(p: number): Promise<void> {
    this.busy.add(p);
    try {
      await this.o.release(p);
    } finally {
      this.busy.delete(p);
    }
  }

  private async rebalance(): Promise<void> {
    const s = this.o.session;
    if (this.closed || !s.up) return;
    const ns = s.ns('workers');
    const pns = s.ns('partitions');
    if (!this.member) {
      const pid = await s.backendPid();
      if (pid === null || !(await s.tryLock(ns, pid))) return;
      this.member = true;
    }
    const members = await s.holders(ns);
    if (members === null || members < 1) return;
    this.stats.members = members;
    const P = this.o.partitions;
    const target = Math.ceil(P / members);
    // Give back the extra partitions (highest first), each after its reader stopped.
    while (this.owned.size > target) {
      const p = Math.max(...this.owned);
      this.owned.delete(p);
      await this.stopReader(p);
      if (!s.up) return;
      await s.unlock(pns, p);
      this.stats.released++;
    }
    if (this.owned.size >= target) return;
    // Take free ones, starting at a spot of our own so that workers do not all race for partition 0.
    const start = ((await s.backendPid()) ?? 0) % P;
    for (let i = 0; i < P && this.owned.size < target; i++) {
      const p = (start + i) % P;
      if (this.owned.has(p) || this.busy.has(p)) continue;
      if (!(await s.tryLock(pns, p))) {
        if (!s.up) return;
        continue;
      }
      this.owned.add(p);
      this.stats.acquired++;
      try {
        await this.o.acquire(p);
      } catch (err) {
        this.log(`partitions: could not start partition ${p}: ${String(err)}`);
        this.owned.delete(p);
        await s.unlock(pns, p);
      }
    }
  }

  /** Stops every reader, then gives the partitions back. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.round;
    this.offLost();
    this.offConnected();
    const s = this.o.session;
    for (const p of [...this.owned]) {
      this.owned.delete(p);
      await this.stopReader(p);
      await s.unlock(s.ns('partitions'), p);
    }
  }
}
