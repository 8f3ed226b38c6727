import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './db';

/**
 * Embedded PGlite on its own thread (issue 13).
 *
 * Why: PGlite is PostgreSQL compiled to WebAssembly, and a statement runs synchronously on the thread
 * that calls it. In the server's own thread every statement held the event loop for its whole
 * duration: a flush's multi-row upsert, a month's report or the live list of 1,000 vehicles stopped
 * every device's ACK, every WebSocket message and every other API request meanwhile (bench:soak,
 * 1,000 devices: ACK p99 1.4 s with the main thread saturated, although the records were stored in
 * milliseconds). Here the database runs in a worker thread: the server's thread only posts statements
 * and takes rows back, so while the database works the gateway still reads frames, the API still
 * answers from memory and the second core does the SQL.
 *
 * What stays the same: one PGlite instance, one statement at a time in arrival order (PGlite's own
 * queue), transactions exclusive (a statement from outside waits until COMMIT or ROLLBACK, as before),
 * the same parsers (int8 and numeric as numbers, timestamptz as Date, jsonb parsed), errors with their
 * SQLSTATE `code`, `constraint`, `detail` and the rest of PostgreSQL's fields (app.ts maps 23505 and
 * friends to 422/409 from them). What it costs: rows and parameters are copied between the threads
 * (structured clone), which is small next to executing the statement.
 *
 * The worker's source is a string (`eval`), so the server's esbuild bundle (scripts/start-server.mjs)
 * needs no second entry point; it loads PGlite from the path the server resolved. `PGLITE_THREAD=off`
 * runs PGlite on the server's thread as before (db.ts).
 */

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** PostgreSQL error fields carried across the thread boundary (PGlite's DatabaseError has these). */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
] as const;

const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.entry);
const ERROR_FIELDS = ${JSON.stringify(ERROR_FIELDS)};
const asError = (e) => {
  const out = { message: String((e && e.message) || e) };
  if (e && typeof e === 'object') for (const k of ERROR_FIELDS) if (e[k] !== undefined) out[k] = e[k];
  return out;
};
const ROLLBACK = Symbol('rollback');
(async () => {
  const conf = workerData.sharedBuffers ? { postgresqlconf: ['shared_buffers = ' + workerData.sharedBuffers] } : {};
  const db = await PGlite.create(workerData.dir, {
    ...conf,
    parsers: { 20: (v) => Number(v), 1700: (v) => Number(v) },
  });
  await db.exec("SET TimeZone = 'UTC'");
  if (workerData.schema !== 'public') {
    await db.exec('CREATE SCHEMA IF NOT EXISTS ' + workerData.schema + '; SET search_path = ' + workerData.schema + ', public');
  }
  /** Open transactions: id -> { tx, end(commit: boolean) }. */
  const txs = new Map();
  const reply = (id, body) => parentPort.postMessage({ id, ...body });
  parentPort.on('message', async (m) => {
    try {
      if (m.op === 'query') {
        const target = m.tx === undefined ? db : txs.get(m.tx)?.tx;
        if (!target) throw new Error('transaction ' + m.tx + ' is not open');
        reply(m.id, { rows: (await target.query(m.text, m.params)).rows });
      } else if (m.op === 'exec') {
        const target = m.tx === undefined ? db : txs.get(m.tx)?.tx;
        if (!target) throw new Error('transaction ' + m.tx + ' is not open');
        await target.exec(m.text);
        reply(m.id, {});
      } else if (m.op === 'begin') {
        // The transaction stays open (PGlite holds its queue for it) until 'end' settles it.
        let opened;
        const ready = new Promise((r) => (opened = r));
        const t = {};
        t.done = db
          .transaction(async (tx) => {
            t.tx = tx;
            const commit = await new Promise((end) => {
              t.end = end;
              opened();
            });
            if (!commit) throw ROLLBACK;
          })
          .then(
            () => ({}),
            (e) => (e === ROLLBACK ? {} : { error: asError(e) }),
          );
        txs.set(m.tx, t);
        const failed = await Promise.race([ready.then(() => null), t.done]);
        if (failed) {
          txs.delete(m.tx);
          reply(m.id, failed.error ? failed : { error: { message: 'BEGIN failed' } });
        } else reply(m.id, {});
      } else if (m.op === 'end') {
        const t = txs.get(m.tx);
        if (!t || !t.end) throw new Error('transaction ' + m.tx + ' is not open');
        txs.delete(m.tx);
        t.end(m.commit);
        reply(m.id, await t.done);
      } else if (m.op === 'close') {
        await db.close();
        reply(m.id, {});
        parentPort.close();
      }
    } catch (e) {
      reply(m.id, { error: asError(e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ failed: asError(e) }));
`;

/** An Error carrying PostgreSQL's fields, as the in-thread driver throws. */
function toError(e: Record<string, unknown>): Error {
  const err = new Error(String(e.message)) as Error & Record<string, unknown>;
  for (const k of ERROR_FIELDS) if (e[k] !== undefined) err[k] = e[k];
  return err;
}

export async function openPgliteThread(opts: {
  /** the resolved path of @electric-sql/pglite's CommonJS entry */
  entry: string;
  /** data folder (already initialised), or undefined for memory */
  dir: string | undefined;
  schema: string;
  /** shared_buffers, already checked (db.ts) */
  sharedBuffers?: string | undefined;
}): Promise<Omit<Database, 'onWrite' | 'notifyWrite'>> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      entry: opts.entry,
      dir: opts.dir,
      schema: opts.schema,
      sharedBuffers: opts.sharedBuffers,
    },
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let nextTx = 1;
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    const onFirst = (m: { ready?: boolean; failed?: Record<string, unknown> }) => {
      worker.off('message', onFirst);
      if (m.ready) resolve();
      else reject(toError(m.failed ?? { message: 'PGlite did not start' }));
    };
    worker.on('message', onFirst);
    worker.once('error', reject);
  });
  worker.on('message', (m: { id: number; rows?: unknown[]; error?: Record<string, unknown> }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.error) p.reject(toError(m.error));
    else p.resolve(m.rows);
  });
  worker.unref();
  worker.on('error', (e) => failAll(e instanceof Error ? e : new Error(String(e))));
  worker.on('exit', (code) => failAll(new Error(`the PGlite thread stopped (exit code ${code})`)));

  const call = (msg: Record<string, unknown>): Promise<unknown> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    // The thread keeps the process alive only while a statement is out (an idle server or a script
    // that forgot close() would otherwise never exit; one waiting for rows must not exit early).
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id });
    });
  };
  const query = async <T>(text: string, params?: readonly unknown[], tx?: number) =>
    (await call({ op: 'query', text, params: params ?? [], tx })) as T[];
  const exec = async (text: string, tx?: number) => {
    await call({ op: 'exec', text, tx });
  };
  return {
    driver: 'pglite',
    schema: opts.schema,
    query: (text, params) => query(text, params),
    exec: (text) => exec(text),
    transaction: async <T>(fn: (tx: Queryable & { exec(text: string): Promise<void> }) => Promise<T>) => {
      const tx = nextTx++;
      await call({ op: 'begin', tx });
      let result: T;
      try {
        result = await fn({
          query: <R>(text: string, params?: readonly unknown[]) => query<R>(text, params, tx),
          exec: (text: string) => exec(text, tx),
        });
      } catch (e) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw e;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    close: async () => {
      if (dead) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}
