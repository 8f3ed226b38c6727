/**
 * bench:ingest — simulated Teltonika devices -> loopback TCP -> decode -> durable store -> ACK.
 *
 * The gateway runs in this process with its real listener, ingest queue and storage; the devices run
 * in a child process (so the load generator does not steal the gateway's event loop): each keeps one
 * Codec 8E frame of RECORDS_PER_FRAME records in flight and sends the next as soon as the ACK (record
 * count) arrives, like a tracker emptying its memory. Figures: records/s acknowledged, frames/s, ACK
 * latency p50/p99 (send -> ACK, measured by the devices), rows really in the table at the end.
 * Runs on PGlite (in memory), then on PostgreSQL when DATABASE_URL is set (a scratch schema, dropped).
 *
 * Env: BENCH_DEVICES (default 400), BENCH_SECONDS (default 12), BENCH_RECORDS_PER_FRAME (default 10),
 * BENCH_DB (pglite | pg: one database only).
 *
 * CPU per record is printed next to records/s because the machine is shared: wall-clock rates move
 * with the others' load, CPU time per record much less. Gateway = this process (PGlite included when
 * it is the database), PostgreSQL backends = the pool's server processes read from /proc, simulated
 * devices = the load generator. The load average of the run is printed with them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { encodeTeltonikaAvl, encodeTeltonikaImei } from '@fleet/device-protocols';
import { openStorage, type Storage } from '../../storage/storage';
import { InProcessBus } from '../../realtime/bus';
import { gatewayConfig } from '../config';
import { startGateway } from '../gateway';
import { VirtualVehicle } from '../../simulator/vehicle';
import { simulatedImei } from '../../simulator/fleet';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const PER_FRAME = Number(process.env.BENCH_RECORDS_PER_FRAME ?? 10);
/** BENCH_DB=pglite or pg runs one database only (default: PGlite, then PostgreSQL when DATABASE_URL is set). */
const ONLY = process.env.BENCH_DB;

interface LoadResult {
  acked: number;
  frames: number;
  seconds: number;
  p50: number;
  p99: number;
  refused: number;
  /** CPU time of the device simulator process during the measured window. */
  loadCpuUs: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Child process: the devices. */
async function runLoad(port: number, devices: number, seconds: number, perFrame: number): Promise<void> {
  const latencies: number[] = [];
  let acked = 0;
  let frames = 0;
  let refused = 0;
  let measuring = false;
  let stop = false;
  let readyCount = 0;
  const base = Date.now() - 30 * 24 * 3600_000;
  const sockets = Array.from({ length: devices }, (_, i) => {
    const imei = simulatedImei(i + 1, '35900');
    const vehicle = new VirtualVehicle(imei, i + 1);
    let t = base + i; // distinct fix times per device, 1 s apart
    let sentAt = 0;
    let ready = false;
    const socket = connect({ port, host: '127.0.0.1' });
    socket.setNoDelay(true);
    const next = () => {
      if (stop) return;
      const records = [];
      for (let k = 0; k < perFrame; k++) {
        vehicle.step(1000);
        records.push(vehicle.record('teltonika', (t += 1000)));
      }
      sentAt = performance.now();
      socket.write(encodeTeltonikaAvl(records));
    };
    let rx: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      rx = rx.length ? Buffer.concat([rx, chunk]) : chunk;
      if (!ready) {
        if (rx[0] !== 1) {
          refused++;
          socket.destroy();
          return;
        }
        ready = true;
        readyCount++;
        rx = rx.subarray(1);
        next();
      }
      while (rx.length >= 4) {
        const n = rx.readUInt32BE(0);
        rx = rx.subarray(4);
        if (measuring) {
          acked += n;
          frames++;
          latencies.push(performance.now() - sentAt);
        }
        next();
      }
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(encodeTeltonikaImei(imei)));
    return socket;
  });
  // Warm-up: every device connected and accepted, then 2 s more (JIT, first partitions), then measure.
  const deadline = Date.now() + 120_000;
  while (readyCount + refused < devices && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 2000));
  measuring = true;
  process.stdout.write('MEASURE start\n');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  process.stdout.write('MEASURE stop\n');
  const cpu = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  for (const s of sockets) s.destroy();
  latencies.sort((a, b) => a - b);
  const result: LoadResult = {
    acked,
    frames,
    seconds: elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    refused,
    loadCpuUs: cpu.user + cpu.system,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

async function seed(storage: Storage, devices: number): Promise<void> {
  const db = storage.db;
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Bench') RETURNING id`,
  );
  const imeis = Array.from({ length: devices }, (_, i) => simulatedImei(i + 1, '35900'));
  await db.query(
    `INSERT INTO devices (company_id, imei, type) SELECT $1, x, 'teltonika' FROM unnest($2::text[]) AS x`,
    [c!.id, imeis],
  );
  await db.query(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei)
     SELECT $1, 'B ' || i, x FROM unnest($2::text[]) WITH ORDINALITY AS t(x, i)`,
    [c!.id, imeis],
  );
}

/** Backend process ids of the pool's connections (held at once, so each connection answers). */
async function backendPids(storage: Storage): Promise<number[]> {
  const rows = await Promise.all(
    Array.from({ length: 10 }, () =>
      storage.db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.1)'),
    ),
  );
  return [...new Set(rows.map((r) => r[0]!.pid))];
}

/**
 * CPU microseconds (user + system) per local process from /proc (Linux; empty elsewhere). A pool
 * connection that closed while idle is missing at the end: {@link cpuDelta} skips it (it did no work).
 */
function cpuOfPids(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) * (1e6 / CLOCK_TICKS));
    } catch {
      // not local, or gone
    }
  }
  return out;
}
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let us = 0;
  for (const [pid, t] of after) {
    const t0 = before.get(pid);
    if (t0 !== undefined) us += t - t0;
  }
  return us;
}
/** USER_HZ of Linux /proc/<pid>/stat times. */
const CLOCK_TICKS = 100;

async function benchOne(label: string, storage: Storage, concurrency: number) {
  await seed(storage, DEVICES);
  const bus = new InProcessBus();
  let published = 0;
  bus.subscribe('locations.>', () => void published++);
  const config = gatewayConfig({
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_TELTONIKA_PORT: '0',
    GATEWAY_RUPTELA_PORT: 'off',
    GATEWAY_GOSAFE_PORT: 'off',
    GATEWAY_ISTARTEK_PORT: 'off',
    GATEWAY_OSMAND_PORT: 'off',
    GATEWAY_UDP: 'off',
    GATEWAY_MAX_CONNECTIONS_PER_IP: String(DEVICES + 10),
  });
  const gw = await startGateway({ config, storage, bus, ingestConcurrency: concurrency });
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      fileURLToPath(import.meta.url),
      '--load',
      String(gw.ports.teltonika),
      String(DEVICES),
      String(SECONDS),
      String(PER_FRAME),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const pgPids = storage.db.driver === 'pg' ? await backendPids(storage) : [];
  let gwCpu0 = process.cpuUsage();
  let gwCpu = { user: 0, system: 0 };
  let pgCpu0 = new Map<number, number>();
  let pgCpu = 0;
  let load0 = 0;
  let load1 = 0;
  const statsAt0 = { ...gw.queue.stats };
  let statsAt1 = statsAt0;
  child.stdout.on('data', (c: Buffer) => {
    const before = out.length;
    out += c.toString();
    const fresh = out.slice(Math.max(0, before - 20));
    if (fresh.includes('MEASURE start') && load0 === 0) {
      gwCpu0 = process.cpuUsage();
      pgCpu0 = cpuOfPids(pgPids);
      load0 = loadavg()[0]!;
      Object.assign(statsAt0, gw.queue.stats);
    }
    if (fresh.includes('MEASURE stop') && load1 === 0) {
      gwCpu = process.cpuUsage(gwCpu0);
      pgCpu = cpuDelta(pgCpu0, cpuOfPids(pgPids));
      load1 = loadavg()[0]!;
      statsAt1 = { ...gw.queue.stats };
    }
  });
  await new Promise<void>((r) => child.on('exit', () => r()));
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`load generator printed no result: ${out.slice(0, 500)}`);
  const res = JSON.parse(line.slice(7)) as LoadResult;
  await gw.close();
  const [rows] = await storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM locations');
  const perSecond = res.acked / res.seconds;
  const q = {
    batches: statsAt1.batches - statsAt0.batches,
    records: statsAt1.records - statsAt0.records,
    insertMs: statsAt1.insertMs - statsAt0.insertMs,
    failures: gw.queue.stats.failures,
  };
  const acked = Math.max(1, res.acked);
  const cpu = {
    gateway_us_per_record: +((gwCpu.user + gwCpu.system) / acked).toFixed(1),
    db_server_us_per_record: storage.db.driver === 'pg' ? +(pgCpu / acked).toFixed(1) : null,
    simulator_us_per_record: +(res.loadCpuUs / acked).toFixed(1),
  };
  const load = +((load0 + load1) / 2).toFixed(1);
  console.log(
    `${label.padEnd(10)} ${Math.round(perSecond).toLocaleString('en-US').padStart(8)} records/s  ${Math.round(
      res.frames / res.seconds,
    )
      .toLocaleString('en-US')
      .padStart(7)} frames/s  ` +
      `ACK p50 ${res.p50.toFixed(1)} ms  p99 ${res.p99.toFixed(1)} ms  (${DEVICES} devices, ${PER_FRAME} records/frame, ` +
      `${q.batches} batches avg ${Math.round(q.records / Math.max(1, q.batches))} rows in avg ${Math.round(q.insertMs / Math.max(1, q.batches))} ms, ${rows!.n} rows stored, ${q.failures} failures)`,
  );
  console.log(
    `${''.padEnd(10)} CPU per record: gateway ${cpu.gateway_us_per_record} us` +
      (cpu.db_server_us_per_record !== null
        ? `, PostgreSQL backends ${cpu.db_server_us_per_record} us`
        : ' (PGlite runs inside it)') +
      `, simulated devices ${cpu.simulator_us_per_record} us; load average ${load} during the run`,
  );
  if (res.refused > 0) throw new Error(`${res.refused} devices refused`);
  return {
    records_per_s: Math.round(perSecond),
    ack_p50_ms: +res.p50.toFixed(2),
    ack_p99_ms: +res.p99.toFixed(2),
    rows: rows!.n,
    published,
    cpu_us_per_record: cpu,
    load_avg_1m: load,
    avg_batch_rows: Math.round(q.records / Math.max(1, q.batches)),
  };
}

async function main(): Promise<void> {
  console.log(
    `bench:ingest  ${DEVICES} simulated Teltonika devices over loopback TCP, ${SECONDS} s per database`,
  );
  const out: Record<string, unknown> = {};
  if (ONLY !== 'pg') {
    const lite = await openStorage({});
    try {
      out.pglite = await benchOne('PGlite', lite, 1);
    } finally {
      await lite.close();
    }
  }
  const url = ONLY === 'pglite' ? undefined : process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_ingest_${randomBytes(3).toString('hex')}`;
    const pg = await openStorage({ url, schema });
    try {
      out.postgres = await benchOne('PostgreSQL', pg, 3);
    } finally {
      await pg.db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
      await pg.close();
    }
  } else console.log('PostgreSQL skipped (set DATABASE_URL=postgres://... to run it)');
  const pgl = out.pglite as { records_per_s: number } | undefined;
  const pgs = out.postgres as { records_per_s: number } | undefined;
  console.log(
    JSON.stringify({
      bench: 'ingest',
      machine: { cpus: cpus().length, load_avg_1m: +loadavg()[0]!.toFixed(1) },
      devices: DEVICES,
      records_per_frame: PER_FRAME,
      ...out,
      goal: { pglite_records_per_s: 10_000, postgres_records_per_s: 20_000 },
      met: {
        pglite: pgl ? pgl.records_per_s >= 10_000 : null,
        postgres: pgs ? pgs.records_per_s >= 20_000 : null,
      },
    }),
  );
}

if (process.argv[2] === '--load') {
  const [port, devices, seconds, perFrame] = process.argv.slice(3).map(Number);
  await runLoad(port!, devices!, seconds!, perFrame!);
  process.exit(0);
} else {
  await main();
  process.exit(0);
}
