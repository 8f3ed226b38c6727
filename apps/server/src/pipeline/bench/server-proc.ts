import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_MALLOC_ENV, SERVER_V8_FLAGS } from '../../config/node-flags';

/** The server process of the whole-product benches (bench:soak, bench:demo) and what is read of it. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The server as `npm start` runs it (apps/server scripts/start-server.mjs: the esbuild bundle in the
 * same process, config/node-flags.ts's malloc settings and V8 flags), ready once its
 * HTTP port answers.
 */
export async function startServer(
  profileDir: string | undefined,
  env: Record<string, string>,
): Promise<{ pid: number; stop(): Promise<void> }> {
  const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      ...SERVER_V8_FLAGS,
      '--expose-gc',
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      // BENCH_NODE_FLAGS='--trace-gc': extra V8/node flags for a look inside. Not a SIGUSR2 heap snapshot:
      // the server shuts down on SIGUSR2 (close-with-grace); SIGUSR1 opens the inspector instead.
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      'scripts/start-server.mjs',
    ],
    {
      cwd: serverDir,
      env: { ...process.env, ...SERVER_MALLOC_ENV, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    const ok = await fetch(`http://127.0.0.1:${env.PORT}/v1/me`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await sleep(500);
  }
  return {
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(parts[11]) + Number(parts[12])) * 10; // clock ticks of 10 ms
}
/**
 * CPU ms used so far by each thread of the process, by thread id (/proc/<pid>/task/<tid>/stat). The
 * main thread's id is the pid. Threads that ended meanwhile are not in it (their CPU stays in
 * {@link cpuMs}).
 */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(parts[11]) + Number(parts[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * Milliseconds the server's main thread (the event loop) spent runnable but waiting for a CPU
 * (/proc/<pid>/schedstat, second field, ns). On a machine shared with other work this is the part of
 * ACK and lag times that the server cannot help; printed per hour so the figures can be read honestly.
 */
export function runWaitMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return 0;
  }
}
/**
 * CPU ms used so far by every process named `postgres` on this machine (the PostgreSQL server's
 * postmaster, backends and background workers, /proc/<pid>/stat), with the CPU of the children they
 * reaped (cutime/cstime: a backend whose pool connection was closed hands its CPU to the postmaster
 * when it exits, so the sum never goes back): what the database itself costs in a DATABASE_URL run.
 * Other work on the same PostgreSQL is counted too, so run nothing else.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'));
      if (comm !== 'postgres' && !comm.startsWith('postgres:')) continue;
      const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
      total += (Number(parts[11]) + Number(parts[12]) + Number(parts[13]) + Number(parts[14])) * 10;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

/** What the server's RSS is made of, read from its own /metrics (HEALTH_PORT), in MB. */
export interface MemoryParts {
  heapUsed: number;
  heapTotal: number;
  /** Buffers and other memory V8 tracks outside its heap (the main thread's). */
  external: number;
  /** Embedded PGlite's WebAssembly memory as grown (0 on PostgreSQL). */
  dbWasm: number;
  /** Heap of PGlite's thread (0 on PostgreSQL or in-thread). */
  dbHeap: number;
}
export async function memoryParts(healthPort: number): Promise<MemoryParts | null> {
  const r = await fetch(`http://127.0.0.1:${healthPort}/metrics`).catch(() => null);
  if (!r?.ok) return null;
  const text = await r.text();
  const mb = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Math.round(Number(m[1]) / 1048576) : 0;
  };
  return {
    heapUsed: mb(/^fleet_nodejs_heap_size_used_bytes (\S+)$/m),
    heapTotal: mb(/^fleet_nodejs_heap_size_total_bytes (\S+)$/m),
    external: mb(/^fleet_nodejs_external_memory_bytes (\S+)$/m),
    dbWasm: mb(/^fleet_embedded_db_memory_bytes\{part="wasm"\} (\S+)$/m),
    dbHeap: mb(/^fleet_embedded_db_memory_bytes\{part="thread_heap"\} (\S+)$/m),
  };
}
