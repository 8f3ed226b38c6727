import pg from 'pg';

/**
 * Cluster leases on PostgreSQL advisory locks, held on ONE dedicated connection per node (never a
 * pooled one: a session lock belongs to the connection that took it).
 *
 * Why PostgreSQL and not a NATS KV lease: the work these leases guard (clock work, storing a
 * partition's records) is PostgreSQL work, so a node that cannot reach PostgreSQL can do none of it
 * anyway, and PostgreSQL releases a session's locks the moment the session ends: a leader that dies
 * (process killed, connection cut) hands over within one retry interval instead of a TTL. The
 * NATS server here (2.9) also has no per-key TTL, so a KV lease would need a renew/expiry protocol
 * of our own. For a session that PostgreSQL does not see end (a half-open TCP connection after a
 * network partition) the session sets server-side TCP keepalives (dead peer found in ~15 s) and the
 * node health-checks the session every `checkMs`; a check that fails or hangs drops the session, so
 * the node stops acting as owner at once even before PostgreSQL notices.
 *
 * Keys: the two-int form `pg_advisory_lock(ns, key)`; `ns` is a hash of the cluster namespace
 * (schema + subject prefix) and the lease kind, so several clusters or test runs share one database.
 */

export interface LockSessionOptions {
  url: string;
  /** Cluster namespace (e.g. `<schema>/<nats prefix>`): clusters with other namespaces never collide. */
  namespace: string;
  /** Health-check and re-acquire period (default 2 s). */
  checkMs?: number;
  log?: (msg: string) => void;
}

/** A stable positive int4 of a string (FNV-1a), the `ns` half of an advisory lock key. */
export function lockNamespace(namespace: string, kind: string): number {
  const s = `${namespace}|${kind}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

type Listener = () => void;

/**
 * The dedicated session. `lost` listeners run when the session ends (error, cut, failed health
 * check): every lock it held is gone, holders must stop acting on them. `connected` listeners run
 * after every (re)connect, when locks may be taken again.
 */
export class LockSession {
  private client: pg.Client | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly lostListeners = new Set<Listener>();
  private readonly connectedListeners = new Set<Listener>();
  readonly checkMs: number;
  private readonly log: (msg: string) => void;
  /** Sessions opened so far (1 + reconnects). */
  generations = 0;

  constructor(private readonly opts: LockSessionOptions) {
    this.checkMs = opts.checkMs ?? 2000;
    this.log = opts.log ?? (() => undefined);
  }

  ns(kind: string): number {
    return lockNamespace(this.opts.namespace, kind);
  }

  get up(): boolean {
    return this.client !== null;
  }

  onLost(fn: Listener): () => void {
    this.lostListeners.add(fn);
    return () => this.lostListeners.delete(fn);
  }

  onConnected(fn: Listener): () => void {
    this.connectedListeners.add(fn);
    if (this.client) fn();
    return () => this.connectedListeners.delete(fn);
  }

  /** Connects (retrying in the background when PostgreSQL is away) and starts the health checks. */
  start(): void {
    void this.connect();
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  private connect(): Promise<void> {
    if (this.closed || this.client) return Promise.resolve();
    this.connecting ??= (async () => {
      const c = new pg.Client({ connectionString: this.opts.url, keepAlive: true });
      c.on('error', () => this.drop(c, 'session error'));
      c.on('end', () => this.drop(c, 'session ended'));
      try {
        await c.connect();
        await c.query(
          'SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 5',
        );
        if (this.closed) {
          await c.end().catch(() => undefined);
          return;
        }
        this.client = c;
        this.generations++;
        for (const fn of this.connectedListeners) fn();
      } catch (err) {
        this.log(`lease: PostgreSQL session failed: ${(err as Error).message}`);
        c.removeAllListeners('end');
        await c.end().catch(() => undefined);
      }
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private drop(c: pg.Client, why: string): void {
    if (this.client !== c) return;
    this.client = null;
    if (!this.closed) this.log(`lease: ${why}, every lease of this node is released`);
    c.removeAllListeners('end');
    void c.end().catch(() => undefined);
    for (const fn of this.lostListeners) fn();
  }

  private checking = false;

  private async check(): Promise<void> {
    if (this.closed || this.checking) return;
    this.checking = true;
    try {
      await this.checkOnce();
    } finally {
      this.checking = false;
    }
  }

  private async checkOnce(): Promise<void> {
    const c = this.client;
    if (!c) return this.connect();
    // Lenient: on a busy machine a healthy session may take a while to answer; stepping down for
    // nothing would move the clock work and the partitions around.
    const hungMs = Math.max(3000, 4 * this.checkMs);
    const hung = new Promise<'hung'>((r) => setTimeout(() => r('hung'), hungMs).unref());
    const ok = this.serial(c, 'SELECT 1', []).then(
      () => 'ok' as const,
      () => 'failed' as const,
    );
    const r = await Promise.race([ok, hung]);
    if (r !== 'ok') this.drop(c, `health check ${r}`);
  }

  private tail: Promise<unknown> = Promise.resolve();

  /** One query at a time on the session (pg queues them too, but asks callers not to rely on it). */
  private serial(c: pg.Client, text: string, params: unknown[]): Promise<unknown[]> {
    const next = this.tail.then(
      async () => (await c.query(text, params)).rows as unknown[],
      async () => (await c.query(text, params)).rows as unknown[],
    );
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Runs a query on the session; null when there is no session (or it failed: then it is dropped). */
  async query<T>(text: string, params: unknown[]): Promise<T[] | null> {
    const c = this.client;
    if (!c) return null;
    try {
      return (await this.serial(c, text, params)) as T[];
    } catch (err) {
      this.log(`lease: ${(err as Error).message}`);
      this.drop(c, 'query failed');
      return null;
    }
  }

  async tryLock(ns: number, key: number): Promise<boolean> {
    const r = await this.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [ns, key]);
    return r?.[0]?.ok === true;
  }

  async unlock(ns: number, key: number): Promise<void> {
    await this.query('SELECT pg_advisory_unlock($1, $2)', [ns, key]);
  }

  /** Sessions (any node) holding a lock in namespace `ns`. */
  async holders(ns: number): Promise<number | null> {
    const r = await this.query<{ n: number }>(
      `SELECT count(DISTINCT pid)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objsubid = 2`,
      [ns],
    );
    return r ? r[0]!.n : null;
  }

  /** This session's backend pid (tests terminate it to simulate a lost node). */
  async backendPid(): Promise<number | null> {
    const r = await this.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', []);
    return r ? r[0]!.pid : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.connecting;
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => undefined);
    }
  }
}

/**
 * Leader lease: at most one node of the cluster holds it (the clock work runs there). A node that
 * does not hold it tries again every `checkMs`; a leader whose session is lost steps down at once.
 */
export class LeaderLease {
  private leader = false;
  private timer: NodeJS.Timeout | null = null;
  private offLost: () => void;
  private trying = false;
  /** Times this node became leader. */
  elections = 0;

  constructor(
    private readonly session: LockSession,
    private readonly kind = 'leader',
    private readonly log: (msg: string) => void = () => undefined,
  ) {
    this.offLost = session.onLost(() => {
      if (this.leader) this.log(`lease: lost the ${kind} lease`);
      this.leader = false;
    });
  }

  get isLeader(): boolean {
    return this.leader && this.session.up;
  }

  start(): void {
    void this.tryAcquire();
    this.timer = setInterval(() => void this.tryAcquire(), this.session.checkMs);
    this.timer.unref();
  }

  private async tryAcquire(): Promise<void> {
    if (this.leader || this.trying || !this.session.up) return;
    this.trying = true;
    try {
      if (await this.session.tryLock(this.session.ns(this.kind), 0)) {
        this.leader = true;
        this.elections++;
        this.log(`lease: this node holds the ${this.kind} lease`);
      }
    } finally {
      this.trying = false;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.offLost();
    if (this.leader) await this.session.unlock(this.session.ns(this.kind), 0);
    this.leader = false;
  }
}

/**
 * Clock-work gate shared with the pipeline and push plug-ins (they only see the Storage of their
 * context, so the gate is keyed by it): a cluster worker registers its leader lease for its storage;
 * with none registered (the embedded one-process mode) the process is the only one and always runs
 * its clock work. `passes` counts the clock passes this process ran (tests and logs).
 */
interface ClockLease {
  readonly isLeader: boolean;
  /** Times this node became leader (a new value = a new term: state must be read, not remembered). */
  readonly elections?: number;
}

const gates = new WeakMap<object, { lease: ClockLease; passes: number }>();

export function registerClockLease(storage: object, lease: ClockLease): () => void {
  gates.set(storage, { lease, passes: 0 });
  return () => gates.delete(storage);
}

/** True when this process should run the clock work now (and counts the pass). */
export function clockWorkAllowed(storage: object): boolean {
  const g = gates.get(storage);
  if (!g) return true;
  if (!g.lease.isLeader) return false;
  g.passes++;
  return true;
}

export function clockPasses(storage: object): number {
  return gates.get(storage)?.passes ?? 0;
}

/**
 * The term of this node's clock lease (0 in the one-process mode): the clock work rebuilds what the
 * previous leader knew (fired alerts) when it changes.
 */
export function clockLeaseEpoch(storage: object): number {
  return gates.get(storage)?.lease.elections ?? 0;
}

/** True when a cluster worker registered its clock lease for this storage (scale-out mode). */
export function clusteredStorage(storage: object): boolean {
  return gates.has(storage);
}
