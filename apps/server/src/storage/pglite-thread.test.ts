import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchClusterFigures } from '../cluster/figures';
import { onScrape, scrape } from '../metrics/metrics';
import { openDatabase, type Database } from './db';

/**
 * The embedded database on its own thread (pglite-thread.ts) behaves as the in-thread driver: same
 * values back, PostgreSQL's error fields, transactions that commit, roll back and keep other
 * statements out until they end, and a statement never holds the caller's event loop.
 */
describe('PGlite on its own thread', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ pgliteThread: true, schema: 'threaded' });
    await db.exec(
      `CREATE TABLE t (id int8 PRIMARY KEY, at timestamptz, data jsonb, amount numeric, tags text[])`,
    );
  }, 60_000);
  afterAll(() => db.close());

  it('returns the values the in-thread driver returns', async () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    await db.query(`INSERT INTO t VALUES ($1, $2, $3::jsonb, $4, $5)`, [
      1,
      at,
      JSON.stringify({ a: [1, 'x'] }),
      '12.5',
      ['a', 'b'],
    ]);
    const [row] = await db.query<{ id: number; at: Date; data: unknown; amount: number; tags: string[] }>(
      `SELECT * FROM t WHERE id = $1`,
      [1],
    );
    expect(row).toEqual({ id: 1, at, data: { a: [1, 'x'] }, amount: 12.5, tags: ['a', 'b'] });
    expect(row!.at).toBeInstanceOf(Date);
    expect(db.driver).toBe('pglite');
    expect(db.schema).toBe('threaded');
  });

  it("carries PostgreSQL's error fields (the API maps 23505 to a 422 from them)", async () => {
    const err = (await db.query(`INSERT INTO t (id) VALUES (1)`).catch((e: unknown) => e)) as Record<
      string,
      unknown
    >;
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    expect(String(err.detail)).toMatch(/^Key \(id\)=\(1\)/);
    // The thread goes on after an error.
    expect(await db.query(`SELECT count(*)::int AS n FROM t`)).toEqual([{ n: 1 }]);
  });

  it('commits a transaction, and rolls it back when its work throws', async () => {
    const got = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO t (id) VALUES (2)`);
      await tx.exec(`INSERT INTO t (id) VALUES (3)`);
      return (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM t`))[0]!.n;
    });
    expect(got).toBe(3);
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (id) VALUES (4)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (id) VALUES (5)`);
        await tx.query(`INSERT INTO t (id) VALUES (1)`); // duplicate: the whole transaction goes
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query<{ id: number }>(`SELECT id FROM t ORDER BY id`)).map((r) => r.id)).toEqual([
      1, 2, 3,
    ]);
  });

  it('keeps statements from outside a transaction out until it ends', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO t (id) VALUES (10)`);
      order.push('tx wrote');
      await held;
      order.push('tx ends');
    });
    // Let the transaction open before the outside statement is sent.
    await new Promise((r) => setTimeout(r, 50));
    const outside = db.query<{ n: number }>(`SELECT count(*)::int AS n FROM t WHERE id = 10`).then((rows) => {
      order.push(`outside saw ${rows[0]!.n}`);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(order).toEqual(['tx wrote']);
    release();
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx wrote', 'tx ends', 'outside saw 1']);
  });

  it('runs an urgent statement before the ones waiting, but not forever before them', async () => {
    const order: string[] = [];
    const plain = (name: string) =>
      db.query(`SELECT 1`).then(() => {
        order.push(name);
      });
    const urgent = (name: string) =>
      db.urgent!.query(`SELECT 1`).then(() => {
        order.push(name);
      });
    // An open transaction holds the database; what is sent meanwhile waits, in the order sent.
    const holding = async (send: () => Promise<void>[]) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const tx = db.transaction(async (t) => {
        await t.query('SELECT 1');
        await held;
      });
      await new Promise((r) => setTimeout(r, 20));
      const sent = send();
      await new Promise((r) => setTimeout(r, 20));
      expect(order).toEqual([]);
      release();
      await Promise.all([tx, ...sent]);
    };
    await holding(() => [plain('plain 1'), plain('plain 2'), urgent('urgent')]);
    expect(order).toEqual(['urgent', 'plain 1', 'plain 2']);

    // A stream of urgent statements lets a waiting one through after four of them.
    order.length = 0;
    await holding(() => [plain('waiting'), ...[1, 2, 3, 4, 5, 6].map((i) => urgent(`u${i}`))]);
    expect(order).toEqual(['u1', 'u2', 'u3', 'u4', 'waiting', 'u5', 'u6']);
  });

  it('waits with an urgent statement for an open transaction (it runs after COMMIT)', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO t (id) VALUES (11)`);
      await held;
      order.push('commit');
    });
    await new Promise((r) => setTimeout(r, 50));
    const urgent = db
      .urgent!.query<{ n: number }>(`SELECT count(*)::int AS n FROM t WHERE id = 11`)
      .then((r) => {
        order.push(`urgent saw ${r[0]!.n}`);
      });
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([tx, urgent]);
    expect(order).toEqual(['commit', 'urgent saw 1']);
  });

  it('sets the embedded configuration (shared_buffers, maintenance_work_mem) on both drivers', async () => {
    const show = async (d: Database) => ({
      buffers: (await d.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]!.shared_buffers,
      maint: (await d.query<{ maintenance_work_mem: string }>('SHOW maintenance_work_mem'))[0]!
        .maintenance_work_mem,
    });
    const threaded = await openDatabase({ pgliteThread: true, pgliteSharedBuffers: '24MB' });
    const inThread = await openDatabase({ pgliteSharedBuffers: '24MB' });
    try {
      expect(await show(threaded)).toEqual({ buffers: '24MB', maint: '16MB' });
      expect(await show(inThread)).toEqual({ buffers: '24MB', maint: '16MB' });
    } finally {
      await Promise.all([threaded.close(), inThread.close()]);
    }
  }, 60_000);

  it('runs a long statement without holding the event loop', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    await db.query(`SELECT count(*) FROM generate_series(1, 3000000) g, LATERAL (SELECT g * 2) x`);
    const ms = performance.now() - started;
    clearInterval(timer);
    // Timers kept firing while the database worked (on the caller's thread there would be none).
    expect(ms).toBeGreaterThan(50);
    expect(ticks).toBeGreaterThan(2);
  });

  it("reports the database's own memory, and the metrics scrape carries it", async () => {
    const m = await db.memory!();
    // PGlite's WebAssembly memory starts well above 16 MB; the thread's heap holds at least PGlite's JS.
    expect(m.wasm).toBeGreaterThan(16 * 1024 * 1024);
    expect(m.threadHeap).toBeGreaterThan(1024 * 1024);
    const off = onScrape(watchClusterFigures({ storage: { db } }));
    try {
      const { body } = await scrape();
      const wasm = /^fleet_embedded_db_memory_bytes\{part="wasm"\} (\d+)$/m.exec(body);
      expect(Number(wasm?.[1])).toBeGreaterThan(16 * 1024 * 1024);
      expect(body).toMatch(/^fleet_embedded_db_memory_bytes\{part="thread_heap"\} [1-9]\d*$/m);
    } finally {
      off();
    }
    const inThread = await openDatabase({});
    try {
      expect((await inThread.memory!()).wasm).toBeGreaterThan(16 * 1024 * 1024);
      expect((await inThread.memory!()).threadHeap).toBe(0);
    } finally {
      await inThread.close();
    }
  }, 60_000);

  it('fails every statement after close, with a clear error', async () => {
    const other = await openDatabase({ pgliteThread: true });
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/PGlite thread stopped/);
  }, 60_000);
});
