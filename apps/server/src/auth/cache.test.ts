import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, createHarness, PASSWORD, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { createServer } from '../server';
import { openStorage } from '../storage/storage';
import { MemoryMessenger } from './messenger';
import { InProcessBus } from '../realtime/bus';
import type { WriteListener } from '../storage/write-watch';
import { AuthCache, authCacheOf, connectAuthCacheBus } from './cache';

/**
 * The session/tenant cache (auth/cache.ts) must never let a revoked session, a disabled user or a
 * withdrawn right through: every test warms the cache first (two requests, the second answered
 * without a session query), changes something, and expects the very next request to see it.
 */
const onPostgres = process.env.FLEET_TEST_DB === 'pg' && Boolean(process.env.DATABASE_URL);
let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('auth_cache');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const vehicles = (token: string, company = w.a.uuid) =>
  call(h.app, { method: 'GET', url: '/v1/vehicles', token, company });

/** Two answered requests: the second comes from the cache (checked in the first test). */
async function warm(token: string, company = w.a.uuid) {
  expect((await vehicles(token, company)).statusCode).toBe(200);
  expect((await vehicles(token, company)).statusCode).toBe(200);
}

describe('session and tenant cache', () => {
  it('answers a repeated request without reading sessions or the membership', async () => {
    const spy = vi.spyOn(h.storage.db, 'query');
    try {
      expect((await vehicles(w.users.adminA.token)).statusCode).toBe(200);
      const first = spy.mock.calls.map((c) => String(c[0]));
      expect(first.some((sql) => /FROM sessions/.test(sql))).toBe(true);
      expect(first.some((sql) => /FROM transport_companies c/.test(sql))).toBe(true);
      spy.mockClear();
      expect((await vehicles(w.users.adminA.token)).statusCode).toBe(200);
      const second = spy.mock.calls.map((c) => String(c[0]));
      expect(second.some((sql) => /FROM sessions|FROM transport_companies c/.test(sql))).toBe(false);
      expect(authCacheOf(h.storage.db)!.size).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('logout: the next request with the token is 401', async () => {
    await warm(w.users.adminA.token);
    const out = await call(h.app, { method: 'DELETE', url: '/v1/logout', token: w.users.adminA.token });
    expect(out.statusCode).toBe(200);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
  });

  it('password change: the other sessions are 401 at once, the current one goes on', async () => {
    const login = await h.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: 'admin.a@fleet.test', password: PASSWORD },
    });
    const current = login.json().data.token as string;
    await warm(current);
    await warm(w.users.adminA.token);
    const changed = await call(h.app, {
      method: 'POST',
      url: '/v1/change-password',
      token: current,
      body: {
        current_password: PASSWORD,
        password: 'changed-pass-1',
        password_confirmation: 'changed-pass-1',
      },
    });
    expect(changed.statusCode).toBe(200);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
    expect((await vehicles(current)).statusCode).toBe(200);
  });

  it('a session revoked by any statement (not only the auth routes) is 401 on the next request', async () => {
    await warm(w.users.adminA.token);
    await h.storage.db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [
      w.users.adminA.id,
    ]);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
  });

  it('user disabled by an admin: 401 on the next request', async () => {
    await warm(w.users.branchA1.token);
    const r = await call(h.app, {
      method: 'PATCH',
      url: `/v1/users/${w.users.branchA1.uuid}/status`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { status: 'inactive' },
    });
    expect(r.statusCode).toBe(200);
    expect((await vehicles(w.users.branchA1.token)).statusCode).toBe(401);
  });

  it('user status set without revoking sessions still locks the user out', async () => {
    await warm(w.users.adminA.token);
    await h.storage.db.query(`UPDATE users SET status = 'inactive' WHERE id = $1`, [w.users.adminA.id]);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
  });

  it('permissions withdrawn: 403 on the next request', async () => {
    await warm(w.users.adminA.token);
    await h.storage.db.query(`UPDATE memberships SET permissions = '{}' WHERE user_id = $1`, [
      w.users.adminA.id,
    ]);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(403);
  });

  it('membership removed: the company is refused on the next request', async () => {
    await warm(w.users.multi.token, w.b.uuid);
    await h.storage.db.query(`DELETE FROM memberships WHERE user_id = $1 AND company_id = $2`, [
      w.users.multi.id,
      w.b.id,
    ]);
    expect((await vehicles(w.users.multi.token, w.b.uuid)).statusCode).toBe(403);
    expect((await vehicles(w.users.multi.token, w.a.uuid)).statusCode).toBe(200);
  });

  it('role narrowed to a branch: the next list is scoped to that branch', async () => {
    const branches = async () => {
      const r = await call(h.app, {
        method: 'GET',
        url: '/v1/branches',
        token: w.users.adminA.token,
        company: w.a.uuid,
      });
      expect(r.statusCode).toBe(200);
      return (r.json() as { data: { uuid: string }[] }).data.map((b) => b.uuid);
    };
    expect((await branches()).length).toBe(2);
    expect((await branches()).length).toBe(2);
    await h.storage.db.query(
      `UPDATE memberships SET user_type = 'branch_admin', sub_company_id = $2, branch_id = $3 WHERE user_id = $1`,
      [w.users.adminA.id, w.a.stations[0]!.id, w.a.branches[0]!.id],
    );
    expect(await branches()).toEqual([w.a.branches[0]!.uuid]);
  });

  it('company deleted: 403 on the next request', async () => {
    await warm(w.users.adminA.token);
    await h.storage.db.query(`UPDATE transport_companies SET status = 'deleted' WHERE id = $1`, [w.a.id]);
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(403);
  });

  it('a change made inside a transaction applies once committed', async () => {
    await warm(w.users.adminA.token);
    await h.storage.db.transaction(async (tx) => {
      await tx.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [w.users.adminA.id]);
    });
    expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
  });

  it('an expired session is refused even while cached', async () => {
    await warm(w.users.adminA.token);
    const saved = h.clock.now;
    try {
      h.clock.now = new Date(Date.now() + 60 * 86_400_000);
      expect((await vehicles(w.users.adminA.token)).statusCode).toBe(401);
    } finally {
      h.clock.now = saved;
    }
  });
});

describe('AuthCache', () => {
  it('does not keep an answer read while a write was reported', () => {
    const c = new AuthCache();
    const epoch = c.epoch;
    c.invalidate(); // a write started (or committed) while the answer was being read
    c.set('k', 'stale', epoch, 1_000);
    expect(c.get('k', 1_000)).toBeUndefined();
    c.set('k', 'fresh', c.epoch, 1_000);
    expect(c.get('k', 1_000)).toBe('fresh');
  });

  it('forgets entries after the TTL and when the clock goes back', () => {
    const c = new AuthCache(5_000);
    c.set('k', 1, c.epoch, 10_000);
    expect(c.get('k', 14_000)).toBe(1);
    expect(c.get('k', 15_001)).toBeUndefined();
    c.set('k', 1, c.epoch, 10_000);
    expect(c.get('k', 9_000)).toBeUndefined();
  });

  it('stays bounded', () => {
    const c = new AuthCache(60_000, 3);
    for (let i = 0; i < 10; i++) c.set(`k${i}`, i, c.epoch, 0);
    expect(c.size).toBe(3);
    expect(c.get('k9', 0)).toBe(9);
    expect(c.get('k0', 0)).toBeUndefined();
  });

  it('tells the other nodes over the bus once a write committed', async () => {
    // Two "nodes": databases that report writes, sharing one bus.
    const fakeDb = () => {
      const listeners: WriteListener[] = [];
      return {
        query: () => Promise.resolve([]),
        onWrite: (_tables: readonly string[], l: WriteListener) => {
          listeners.push(l);
          return () => undefined;
        },
        write: (phase: 'start' | 'end') => listeners.forEach((l) => l(phase, 'UPDATE users SET x = 1')),
      };
    };
    const bus = new InProcessBus();
    const a = fakeDb();
    const b = fakeDb();
    const offA = connectAuthCacheBus(a, bus);
    const offB = connectAuthCacheBus(b, bus);
    const cacheA = authCacheOf(a)!;
    const cacheB = authCacheOf(b)!;
    cacheB.set('k', 'v', cacheB.epoch, Date.now());
    a.write('start');
    expect(cacheA.size).toBe(0);
    expect(cacheB.get('k', Date.now())).toBe('v'); // not committed yet
    a.write('end');
    await new Promise((r) => setImmediate(r));
    expect(cacheB.get('k', Date.now())).toBeUndefined();
    offA();
    offB();
    await bus.close();
  });
});

// Two API nodes on one PostgreSQL (PGlite is one process, so this needs the real server): a
// logout on node A is refused on node B at the next request, through the bus.
describe.runIf(onPostgres)('two API nodes', () => {
  it('a logout on one node is seen by the other at once', async () => {
    const db = h.storage.db;
    const storageB = await openStorage({ url: process.env.DATABASE_URL, schema: db.schema });
    const appB = await createServer({
      config: h.config,
      storage: storageB,
      bus: h.bus,
      messenger: new MemoryMessenger(),
      now: () => h.clock.now,
      logger: false,
    });
    try {
      await appB.ready();
      const onB = () =>
        call(appB, { method: 'GET', url: '/v1/vehicles', token: w.users.adminA.token, company: w.a.uuid });
      expect((await onB()).statusCode).toBe(200);
      expect((await onB()).statusCode).toBe(200);
      expect(authCacheOf(storageB.db)!.size).toBeGreaterThan(0);
      const out = await call(h.app, { method: 'DELETE', url: '/v1/logout', token: w.users.adminA.token });
      expect(out.statusCode).toBe(200);
      expect((await onB()).statusCode).toBe(401);
    } finally {
      await appB.close();
      await storageB.close();
    }
  });
});
