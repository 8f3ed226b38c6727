import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { openPgliteThread } from './pglite-thread';
import { withQueryStats } from './query-stats';
import { withWriteWatch, type WriteWatch } from './write-watch';

/**
 * A LIKE / ILIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally
 * (PostgreSQL's default escape character is the backslash).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Anything that runs parameterised SQL and returns rows (the database or a transaction). */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * One PostgreSQL, two drivers: embedded PGlite (a folder, or memory when `dataDir` is undefined)
 * or node-postgres. Both return int8 as JS numbers (ids stay far below 2^53), timestamptz as Date,
 * jsonb parsed; sessions run in UTC.
 */
export interface Database extends Queryable, WriteWatch {
  readonly driver: 'pglite' | 'pg';
  readonly schema: string;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable & { exec(text: string): Promise<void> }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Embedded PGlite only: what the database itself holds in memory (its WebAssembly memory, and the
   * heap of its thread when it runs on one). For the `fleet_embedded_db_memory_bytes` gauge: the
   * process's RSS counts it, and on a small server it is the biggest single part after the heap.
   */
  memory?(): Promise<EmbeddedDbMemory>;
  /**
   * Statements that go ahead of the ones waiting (embedded PGlite on its thread, which runs one
   * statement at a time: pglite-thread.ts): the gateway's insert of a frame's records, which a device
   * waits on for its ACK, does not queue behind API reports and the pipeline's flush. Absent where
   * statements run side by side anyway (PostgreSQL's pool) or synchronously (PGlite on the caller's
   * thread): use `db.urgent ?? db`.
   */
  readonly urgent?: Queryable;
}

/** Bytes held by the embedded database (see {@link Database.memory}). */
export interface EmbeddedDbMemory {
  /** PGlite's WebAssembly memory as grown so far (pages never touched are not resident). */
  wasm: number;
  /** V8 heap of the database's thread, committed (0 when PGlite runs on the caller's thread). */
  threadHeap: number;
}

export interface OpenOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite folder; undefined = in memory. */
  dataDir?: string | undefined;
  /** Postgres schema (created when missing). Default `public`. */
  schema?: string;
  poolSize?: number;
  /** PGlite shared_buffers, e.g. '32MB' (keeps the embedded server's memory small). */
  pgliteSharedBuffers?: string;
  /**
   * PGlite on its own thread (pglite-thread.ts): what the server runs, so a statement never holds the
   * event loop. Off (the default here), it runs on the caller's thread: tests, seeding, benches of parts.
   */
  pgliteThread?: boolean;
}

const INT8 = 20;
const NUMERIC = 1700;

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const schemaName = opts.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schemaName)) throw new Error(`bad schema name ${schemaName}`);
  const db = withWriteWatch(
    opts.url
      ? await openPg(opts.url, schemaName, opts.poolSize ?? 10)
      : await openPglite(opts.dataDir, schemaName, opts.pgliteSharedBuffers, opts.pgliteThread ?? false),
  );
  // Benchmarks only (bench:soak --query-stats): per-statement timing, see query-stats.ts.
  const statsFile = process.env.DB_QUERY_STATS;
  return statsFile ? withQueryStats(db, statsFile, Number(process.env.DB_QUERY_STATS_BUCKET_S) || 30) : db;
}

/**
 * Create a new PGlite data folder (initdb) in a short-lived child process.
 *
 * initdb runs its own WebAssembly module, and the memory it grows to (~600 MB) stays in the process
 * after it finishes: WebAssembly memories never shrink and V8 keeps the compiled modules. Doing it
 * in a child that exits leaves the server process with only the memory of the running database
 * (measured: ~780 MB RSS after an in-process initdb, ~160 MB opening an existing folder).
 */
async function initPgliteDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(process.argv[1]);
    PGlite.create(process.argv[2]).then((db) => db.query('SELECT 1').then(() => db.close()))
      .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, ['-e', script, entry, dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`PGlite could not create ${dir}: ${err.slice(0, 500)}`)),
    );
  });
}

/**
 * postgresql.conf lines of the embedded database, for both drivers. Memory that PGlite's WebAssembly
 * module touches stays resident for the life of the process (a WebAssembly memory never shrinks), so
 * the settings that size it are kept small:
 * - `shared_buffers`: PGLITE_SHARED_BUFFERS (checked here; it goes into the file as it is);
 * - `maintenance_work_mem` 16 MB instead of PostgreSQL's 64 MB: the maintenance passes' VACUUM keeps
 *   the dead row ids of a table in it, and one pass over the day's rollups or locations would leave
 *   up to 64 MB resident for good; 16 MB holds ~2.8 M row ids a pass, far more than a pass meets.
 */
export function pgliteConf(sharedBuffers: string | undefined): string[] {
  const conf = ['maintenance_work_mem = 16MB'];
  if (sharedBuffers && /^\d+(kB|MB|GB)$/.test(sharedBuffers)) conf.push(`shared_buffers = ${sharedBuffers}`);
  return conf;
}

async function openPglite(
  dataDir: string | undefined,
  schemaName: string,
  sharedBuffers: string | undefined,
  thread: boolean,
): Promise<Omit<Database, keyof WriteWatch>> {
  let dir: string | undefined;
  if (dataDir) {
    dir = resolve(dataDir);
    mkdirSync(join(dir, '..'), { recursive: true });
    await initPgliteDir(dir);
  }
  const conf = pgliteConf(sharedBuffers);
  if (thread) {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return openPgliteThread({ entry, dir, schema: schemaName, conf });
  }
  const client = await PGlite.create(dir, {
    postgresqlconf: conf,
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
  });
  await client.exec(`SET TimeZone = 'UTC'`);
  if (schemaName !== 'public') {
    await client.exec(`CREATE SCHEMA IF NOT EXISTS ${schemaName}; SET search_path = ${schemaName}, public`);
  }
  const q = async <T>(text: string, params?: readonly unknown[]) =>
    (await client.query<T>(text, params as unknown[] | undefined)).rows;
  return {
    driver: 'pglite',
    schema: schemaName,
    query: q,
    exec: async (text) => {
      await client.exec(text);
    },
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <T>(text: string, params?: readonly unknown[]) =>
            (await tx.query<T>(text, params as unknown[] | undefined)).rows,
          exec: async (text: string) => {
            await tx.exec(text);
          },
        }),
      ),
    close: () => client.close(),
    memory: async () => ({ wasm: wasmBytes(client), threadHeap: 0 }),
  };
}

/** PGlite's WebAssembly memory in bytes (its Emscripten module is a protected field). */
function wasmBytes(client: PGlite): number {
  const mod = (client as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod;
  return mod?.HEAPU8?.byteLength ?? 0;
}

async function openPg(
  url: string,
  schemaName: string,
  max: number,
): Promise<Omit<Database, keyof WriteWatch>> {
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  if (schemaName !== 'public') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      // Under the migrations' advisory lock (migrate.ts): two sessions running CREATE SCHEMA IF NOT
      // EXISTS at once race on the catalog (duplicate pg_namespace key) and one of them fails.
      await c.query('BEGIN');
      await c.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`fleet-migrations:${schemaName}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schemaName}`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      await c.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // node-postgres closes a connection idle for 10 s by default. A server at 1,000 devices uses its
    // pool in bursts (the flush every few seconds, the gateway's inserts, API requests), so backends
    // were closed and forked again all day, each fork warming its catalog caches anew; a minute keeps
    // the busy pool's connections and still lets an idle server give them back.
    idleTimeoutMillis: 60_000,
    types,
    options: `-c TimeZone=UTC -c search_path=${schemaName},public`,
  });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  return {
    driver: 'pg',
    schema: schemaName,
    query: async <T>(text: string, params?: readonly unknown[]) =>
      (await pool.query(text, params as unknown[] | undefined)).rows as T[],
    exec: async (text) => {
      await pool.query(text);
    },
    transaction: async (fn) => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const r = await fn({
          query: async <T>(text: string, params?: readonly unknown[]) =>
            (await c.query(text, params as unknown[] | undefined)).rows as T[],
          exec: async (text: string) => {
            await c.query(text);
          },
        });
        await c.query('COMMIT');
        return r;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}
