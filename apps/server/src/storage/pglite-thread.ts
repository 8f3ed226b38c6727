import { Worker } from 'node:worker_threads';
import type { Database, EmbeddedDbMemory, Queryable } from './db';

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
 * What stays the same: one PGlite instance, one statement at a time in arrival order, transactions
 * exclusive (a statement from outside waits until COMMIT or ROLLBACK, as before),
 * the same parsers (int8 and numeric as numbers, timestamptz as Date, jsonb parsed), errors with their
 * SQLSTATE `code`, `constraint`, `detail` and the rest of PostgreSQL's fields (app.ts maps 23505 and
 * friends to 422/409 from them). What it costs: rows and parameters are copied between the threads
 * (structured clone), which is small next to executing the statement.
 *
 * One thing is new: the urgent lane (`db.urgent`, db.ts). The thread keeps its own queue of waiting
 * statements and transactions and takes an urgent statement before the others (but never more than
 * four in a row while others wait, so a flood of them cannot stall the pipeline's flush or the API).
 * The gateway's insert of a frame's records goes there: a device waits on it for its ACK, and behind
 * a report or the live list of 1,000 vehicles it waited for both. A transaction that is open is never
 * overtaken: the lane only changes the order of what waits.
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
  const db = await PGlite.create(workerData.dir, {
    postgresqlconf: workerData.conf,
    parsers: { 20: (v) => Number(v), 1700: (v) => Number(v) },
  });
  await db.exec("SET TimeZone = 'UTC'");
  if (workerData.schema !== 'public') {
    await db.exec('CREATE SCHEMA IF NOT EXISTS ' + workerData.schema + '; SET search_path = ' + workerData.schema + ', public');
  }
  /** Open transactions: id -> { tx, end(commit: boolean), done }. */
  const txs = new Map();
  const reply = (id, body) => parentPort.postMessage({ id, ...body });
  // The scheduler: one job at a time (a statement, or a transaction from BEGIN to its end); urgent
  // jobs first, but at most URGENT_RUN of them in a row while other jobs wait.
  const URGENT_RUN = 4;
  const jobs = [];
  let busy = false;
  let urgentRun = 0;
  // The next job is taken in a check phase (setImmediate), after every message that arrived meanwhile
  // was queued: a statement runs synchronously on this thread, so the messages sent while it ran are
  // all read only after it, and taking the next job at once would skip an urgent one among them.
  let scheduled = false;
  const pump = () => {
    if (scheduled || busy || jobs.length === 0) return;
    scheduled = true;
    setImmediate(next);
  };
  const next = () => {
    scheduled = false;
    if (busy || jobs.length === 0) return;
    let i = urgentRun < URGENT_RUN ? jobs.findIndex((j) => j.urgent) : -1;
    if (i < 0) i = 0;
    const [job] = jobs.splice(i, 1);
    urgentRun = job.urgent && jobs.length > 0 ? urgentRun + 1 : 0;
    busy = true;
    job.run().finally(() => {
      busy = false;
      pump();
    });
  };
  const enqueue = (urgent, run) => {
    jobs.push({ urgent, run });
    pump();
  };
  const guarded = (m, fn) => async () => {
    try {
      await fn();
    } catch (e) {
      reply(m.id, { error: asError(e) });
    }
  };
  const inTx = (m) => {
    const tx = txs.get(m.tx)?.tx;
    if (!tx) throw new Error('transaction ' + m.tx + ' is not open');
    return tx;
  };
  parentPort.on('message', (m) => {
    if (m.op === 'query' || m.op === 'exec') {
      const run = guarded(m, async () => {
        // A statement of an open transaction runs at once: its transaction is the job running now.
        const target = m.tx === undefined ? db : inTx(m);
        if (m.op === 'query') reply(m.id, { rows: (await target.query(m.text, m.params)).rows });
        else {
          await target.exec(m.text);
          reply(m.id, {});
        }
      });
      if (m.tx === undefined) enqueue(!!m.urgent, run);
      else void run();
    } else if (m.op === 'begin') {
      // The transaction is one job: it holds the scheduler (and PGlite's queue) until 'end' settles it.
      enqueue(false, guarded(m, async () => {
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
          return;
        }
        reply(m.id, {});
        await t.done;
      }));
    } else if (m.op === 'end') {
      void guarded(m, async () => {
        const t = txs.get(m.tx);
        if (!t || !t.end) throw new Error('transaction ' + m.tx + ' is not open');
        txs.delete(m.tx);
        t.end(m.commit);
        reply(m.id, await t.done);
      })();
    } else if (m.op === 'memory') {
      // Answered between statements (the thread is busy while one runs), outside the scheduler.
      const wasm = (db.mod && db.mod.HEAPU8 && db.mod.HEAPU8.byteLength) || 0;
      reply(m.id, { rows: [{ wasm, threadHeap: process.memoryUsage().heapTotal }] });
    } else if (m.op === 'close') {
      enqueue(false, guarded(m, async () => {
        await db.close();
        reply(m.id, {});
        parentPort.close();
      }));
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
  /** postgresql.conf lines (db.ts `pgliteConf`) */
  conf: readonly string[];
}): Promise<Omit<Database, 'onWrite' | 'notifyWrite'>> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { entry: opts.entry, dir: opts.dir, schema: opts.schema, conf: opts.conf },
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
  const query = async <T>(text: string, params?: readonly unknown[], tx?: number, urgent?: boolean) =>
    (await call({ op: 'query', text, params: params ?? [], tx, urgent })) as T[];
  const exec = async (text: string, tx?: number) => {
    await call({ op: 'exec', text, tx });
  };
  return {
    driver: 'pglite',
    schema: opts.schema,
    query: (text, params) => query(text, params),
    urgent: { query: (text, params) => query(text, params, undefined, true) },
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
    memory: async () => ((await call({ op: 'memory' })) as EmbeddedDbMemory[])[0]!,
    close: async () => {
      if (dead) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}
