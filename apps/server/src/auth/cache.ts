import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../storage/db';
import type { Bus } from '../realtime/bus';

/**
 * The tables a signed-in request's principal and tenant are read from. Any write to one of them
 * (logout, password change, session revoke, user disabled or edited, membership role, scope or
 * permissions changed, company edited or deleted, a new sign-in) empties the cache.
 */
export const AUTH_TABLES = ['sessions', 'users', 'memberships', 'transport_companies'] as const;

/** Bus subject telling the other API nodes of a cluster that a write above happened. */
export const AUTH_INVALIDATE_SUBJECT = 'auth.invalidate';

/**
 * Upper bound on the age of an entry. Writes made by this server, or by another API node sharing
 * the bus, empty the cache at once; the TTL only bounds how long a change made outside the
 * servers (psql, another tool) can go unseen.
 */
export const AUTH_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 2_000;

/**
 * Per-database cache of resolved sessions and tenants (token hash -> principal, session + company
 * -> tenant), so the common request costs no query for authentication.
 *
 * Correctness rests on invalidation, not on the TTL:
 * - the database wrapper ({@link Database.onWrite}) reports every statement writing an auth table,
 *   before it runs and after it committed; each report empties the cache and bumps `epoch`;
 * - a reader notes `epoch` before its queries and stores its answer only if no write was reported
 *   meanwhile, so an answer read before a commit never outlives it;
 * - on a cluster, each node publishes {@link AUTH_INVALIDATE_SUBJECT} after such a write and
 *   empties its cache when another node's message arrives (see {@link connectAuthCacheBus}).
 */
export class AuthCache {
  private readonly entries = new Map<string, { value: unknown; at: number }>();
  private epochValue = 0;
  /** Listeners for writes committed by this process (the bus bridge). */
  readonly committed = new Set<() => void>();
  /** Off = every request reads the database (the bench compares both). */
  enabled = true;

  constructor(
    readonly ttlMs = AUTH_CACHE_TTL_MS,
    private readonly max = MAX_ENTRIES,
  ) {}

  get epoch(): number {
    return this.epochValue;
  }

  get size(): number {
    return this.entries.size;
  }

  invalidate(): void {
    this.epochValue++;
    this.entries.clear();
  }

  get<T>(key: string, now: number): T | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.at > this.ttlMs || now < hit.at) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  /** Store `value` read since `epoch` (dropped when a write was reported meanwhile). */
  set(key: string, value: unknown, epoch: number, now: number): void {
    if (!this.enabled || epoch !== this.epochValue) return;
    this.entries.delete(key);
    this.entries.set(key, { value, at: now });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

const caches = new WeakMap<object, AuthCache>();

/**
 * The cache of a database, created (and subscribed to its writes) on first use. Null for a
 * Queryable that cannot report writes (a transaction), which then always reads the database.
 */
export function authCacheOf(db: Queryable): AuthCache | null {
  const watched = db as Partial<Pick<Database, 'onWrite'>>;
  if (typeof watched.onWrite !== 'function') return null;
  let cache = caches.get(db);
  if (!cache) {
    const c = new AuthCache();
    watched.onWrite(AUTH_TABLES, (phase, sql) => {
      if (sql === TOUCH_SESSION_SQL) return;
      c.invalidate();
      if (phase === 'end') for (const fn of c.committed) fn();
    });
    caches.set(db, c);
    cache = c;
  }
  return cache;
}

/**
 * The "last used" stamp of a session (at most once a minute). It changes nothing a request is
 * authorised by, so it does not empty the cache.
 */
export const TOUCH_SESSION_SQL = 'UPDATE sessions SET last_used_at = $2 WHERE id = $1';

/**
 * Bridge the cache of `db` to the bus: after a write to an auth table commits here, tell the other
 * nodes; when another node says so, empty the local cache. Returns the function undoing both.
 */
export function connectAuthCacheBus(db: Queryable, bus: Bus): () => void {
  const cache = authCacheOf(db);
  if (!cache) return () => undefined;
  const node = randomUUID();
  const publish = () => {
    bus.publish(AUTH_INVALIDATE_SUBJECT, { node }).catch(() => undefined);
  };
  cache.committed.add(publish);
  const unsubscribe = bus.subscribe<{ node?: unknown }>(AUTH_INVALIDATE_SUBJECT, (msg) => {
    if (msg?.node !== node) cache.invalidate();
  });
  return () => {
    cache.committed.delete(publish);
    unsubscribe();
  };
}
