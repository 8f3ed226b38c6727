import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Private NATS and PostgreSQL servers for the restart tests (restart.test.ts): each is started from
 * the machine's binaries on a free port of 127.0.0.1 with its data in a temporary directory, so the
 * test can kill and restart the real server process in the middle of a load without touching the
 * shared services on the default ports. Data survives a restart (same directory, same port).
 *
 * Binaries: `nats-server` from FLEET_TEST_NATS_SERVER, /usr/sbin, /usr/bin or /usr/local/bin; the
 * PostgreSQL server binaries (`initdb`, `postgres`) from FLEET_TEST_PG_BIN, /usr/local/bin or the
 * newest /usr/lib/postgresql/<version>/bin. PostgreSQL refuses to run as root: as root the server
 * runs as the `postgres` system user (its uid and gid), the data directory owned by it.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Servers still running when this process exits (a test run killed half-way) are killed with it:
 * PostgreSQL runs in its own process group (see PrivatePostgres.up), which would outlive us.
 */
const running = new Map<ChildProcess, 'single' | 'group'>();
let exitHook = false;
function track(child: ChildProcess, kind: 'single' | 'group'): void {
  running.set(child, kind);
  child.once('exit', () => running.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const [c, k] of running) {
      try {
        if (k === 'group' && c.pid !== undefined) process.kill(-c.pid, 'SIGKILL');
        else c.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before listening`);
    const ok = await new Promise<boolean>((r) => {
      const s = connect({ port, host: '127.0.0.1' });
      s.once('connect', () => {
        s.destroy();
        r(true);
      });
      s.once('error', () => r(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listening on ${port} after ${timeoutMs} ms`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

function firstExisting(paths: readonly (string | undefined)[]): string | undefined {
  return paths.find((p): p is string => Boolean(p && existsSync(p)));
}

export function natsServerBinary(): string | undefined {
  return firstExisting([
    process.env.FLEET_TEST_NATS_SERVER,
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
    '/usr/local/bin/nats-server',
  ]);
}

/** Directory holding `initdb` and `postgres`. */
export function postgresBinDir(): string | undefined {
  const candidates = [process.env.FLEET_TEST_PG_BIN, '/usr/local/bin', '/usr/lib/postgresql/bin'];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find((d) => d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'postgres')));
}

/** uid/gid the PostgreSQL server must run as: ours, or the `postgres` user's when we are root. */
function postgresIdentity(): { uid: number; gid: number } | null | 'missing' {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return 'missing';
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why the private servers cannot run here (null when they can). */
export function privateServicesUnavailable(): string | null {
  if (!natsServerBinary()) return 'no nats-server binary (set FLEET_TEST_NATS_SERVER)';
  if (!postgresBinDir()) return 'no PostgreSQL server binaries initdb/postgres (set FLEET_TEST_PG_BIN)';
  if (postgresIdentity() === 'missing') return 'running as root and there is no postgres user';
  return null;
}

/** Keeps the last lines of a child's output for error messages. */
function tail(child: ChildProcess, lines: string[]): void {
  const push = (b: Buffer) => {
    for (const l of b.toString('utf8').split('\n')) if (l) lines.push(l);
    while (lines.length > 50) lines.shift();
  };
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);
}

/** A nats-server with JetStream (file store in a temporary directory) on a free port. */
export class PrivateNats {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];
  /** Times the server was started. */
  starts = 0;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly bin: string,
  ) {}

  static async start(): Promise<PrivateNats> {
    const bin = natsServerBinary();
    if (!bin) throw new Error('no nats-server binary');
    const n = new PrivateNats(await freePort(), mkdtempSync(join(tmpdir(), 'fleet-nats-')), bin);
    await n.up();
    return n;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** (Re)starts the server on the same port and store directory. */
  async up(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      this.bin,
      ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir, '-n', `fleet-test-${this.port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    tail(child, this.output);
    track(child, 'single');
    this.child = child;
    try {
      await waitForPort(this.port, child, 15_000);
    } catch (err) {
      this.child = null;
      child.kill('SIGKILL');
      throw new Error(`nats-server: ${(err as Error).message}\n${this.output.slice(-10).join('\n')}`);
    }
    this.starts++;
  }

  /** Stops the server: SIGKILL (a crash) or SIGTERM (an orderly stop). */
  async down(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = null;
    c.kill(signal);
    await exited(c);
  }

  async close(): Promise<void> {
    await this.down('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A PostgreSQL cluster (initdb in a temporary directory, trust auth) on a free port. */
export class PrivatePostgres {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];
  starts = 0;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly bin: string,
    private readonly identity: { uid: number; gid: number } | null,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('no PostgreSQL server binaries');
    const id = postgresIdentity();
    if (id === 'missing') throw new Error('running as root and there is no postgres user');
    const dir = mkdtempSync(join(tmpdir(), 'fleet-pg-'));
    if (id) chownSync(dir, id.uid, id.gid);
    const p = new PrivatePostgres(await freePort(), dir, bin, id);
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', p.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions'],
      { encoding: 'utf8', ...(id ? { uid: id.uid, gid: id.gid } : {}) },
    );
    if (init.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
    }
    await p.up();
    return p;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** (Re)starts the server on the same port and data directory (after a crash: crash recovery). */
  async up(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      join(this.bin, 'postgres'),
      [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-h',
        '127.0.0.1',
        '-k',
        this.dir,
        // Test cluster: process kills keep everything written (the page cache survives), so skip
        // flushing to disk; the restarts test the server process going away, not the machine.
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        // Own process group, so a crash can take the postmaster and all its backends at once.
        detached: true,
        ...(this.identity ? { uid: this.identity.uid, gid: this.identity.gid } : {}),
      },
    );
    tail(child, this.output);
    track(child, 'group');
    this.child = child;
    try {
      await waitForPort(this.port, child, 30_000);
      // Listening comes before accepting connections (crash recovery): wait for a real query.
      const end = Date.now() + 30_000;
      for (;;) {
        const c = new pg.Client({ connectionString: this.url });
        try {
          await c.connect();
          await c.query('SELECT 1');
          await c.end();
          break;
        } catch (err) {
          await c.end().catch(() => undefined);
          if (Date.now() > end) throw err;
          await sleep(100);
        }
      }
    } catch (err) {
      this.child = null;
      this.killGroup(child, 'SIGKILL');
      throw new Error(`postgres: ${(err as Error).message}\n${this.output.slice(-10).join('\n')}`);
    }
    this.starts++;
  }

  private killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }

  /**
   * Stops the server. `crash`: SIGKILL to the postmaster and every backend (the next start runs crash
   * recovery); `fast`: SIGINT, PostgreSQL's fast shutdown (clients are disconnected, then a clean stop).
   */
  async down(mode: 'crash' | 'fast' = 'crash'): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = null;
    this.killGroup(c, mode === 'crash' ? 'SIGKILL' : 'SIGINT');
    await exited(c);
    if (mode === 'crash') {
      // Backends are in the postmaster's group and got the same SIGKILL; wait until none is left
      // (the next postmaster refuses to start while one still holds the shared memory).
      const end = Date.now() + 10_000;
      while (Date.now() < end && groupAlive(c.pid!)) await sleep(50);
    }
  }

  async close(): Promise<void> {
    await this.down('crash');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
