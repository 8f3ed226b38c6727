import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { websocketUrl } from '@fleet/api-client';
import { seedFleet } from '../../cluster/harness';
import { openStorage } from '../../storage/storage';
import { printTableSizes, tableSizes } from './soak-db';
import { DAY0, spawnGenerator } from './soak-gen';
import {
  cpuMs,
  threadCpuMs,
  memoryParts,
  postgresCpuMs,
  rssMb,
  runWaitMs,
  startServer,
  type MemoryParts,
} from './server-proc';
import { probeLag } from './soak-probe';

/**
 * `npm run bench:soak [-- --devices 1000 --hours 24 --interval 10 --rate 2000]`: the whole product
 * as `npm start` runs it (one process: gateway, pipeline, API, WebSocket; embedded PGlite, or
 * PostgreSQL when DATABASE_URL is set), fed a simulated day at accelerated time.
 *
 * N Teltonika devices (Codec 8E over real TCP, one connection each) take a record every `interval`
 * simulated seconds and send what they gathered every `send-period` simulated seconds (default 60 s
 * with a record every 10 s: Teltonika's own default on the move, so a frame carries 6 records;
 * `--send-period 10` sends each record alone); the simulated clock runs `rate / devices * interval`
 * times faster than the wall clock (fix times spread over the day: parking, idling and driving in Dubai). The load generator runs in
 * its own process (soak-gen.ts), so the server's CPU is measured alone (/proc/<pid>/stat). During the run
 * a WebSocket client is connected and API readers poll the live vehicle list and the engine report.
 *
 * Per simulated hour it prints: server CPU per record (ms), pipeline lag p50/p99 (wall time from the
 * frame's send to its records being counted in the rollups read through the report API: probe
 * vehicles keep their ignition on, so the report's engine hours tell which fix it has reached), ACK
 * p99, API live-list p95, RSS. Last line: one JSON object with the figures and the goals (cost flat:
 * last hour within 1.2x of the first; CPU <= 0.5 ms/record on PGlite, 0.3 on PostgreSQL; lag p99 < 5 s;
 * ACK p99 < 500 ms; RSS < 400 MB).
 */

const args = process.argv.slice(2);
const num = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
};
const DEVICES = Math.round(num('devices', 1000));
const HOURS = num('hours', 24);
const INTERVAL_S = num('interval', 10);
const RATE = num('rate', 2000);
/** Simulated seconds a device gathers records before sending them (soak-gen.ts; 10 = a frame per record). */
const SEND_PERIOD_S = num('send-period', 60);
const PROBES = Math.min(5, DEVICES);
/** `--cpu-prof DIR`: the server process writes a V8 CPU profile there when it stops. */
const PROFILE_DIR = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1] : undefined;
/** `--query-stats FILE`: the server writes per-statement timing there (storage/query-stats.ts). */
const QUERY_STATS = args.includes('--query-stats') ? args[args.indexOf('--query-stats') + 1] : undefined;
/** HTTP port of the server; the Teltonika listener takes the next one. */
const PORT = num('port', 21300);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// ------------------------------------------------------------------------------------------------
// Orchestrator
// ------------------------------------------------------------------------------------------------

interface HourStats {
  records: number;
  cpuMs: number;
  /** PostgreSQL's own processes (DATABASE_URL runs only; 0 on PGlite, which is inside the server) */
  dbCpuMs: number;
  lags: number[];
  acks: number[];
  api: number[];
  rss: number;
  /** the server's memory by part when its RSS was highest in the hour (its /metrics) */
  mem: MemoryParts | null;
  /** ms the event loop waited for a CPU, and the wall ms it was measured over */
  waitMs: number;
  wallMs: number;
  load: number[];
  /** CPU ms of the hour by thread id (the main thread's id is the server's pid) */
  threads: Map<number, number>;
}

async function main(): Promise<void> {
  const dbUrl = process.env.DATABASE_URL;
  const run = randomBytes(3).toString('hex');
  const schema = `bench_soak_${run}`;
  const dataDir = dbUrl ? null : mkdtempSync(join(tmpdir(), 'fleet-soak-'));
  const speedup = (RATE / DEVICES) * INTERVAL_S;
  console.log(
    `bench:soak: ${DEVICES} devices every ${INTERVAL_S} s sending every ${SEND_PERIOD_S} s, ${HOURS} simulated h at ${Math.round(speedup)}x ` +
      `(~${RATE} records/s), ${dbUrl ? 'PostgreSQL' : 'PGlite'}, one server process`,
  );
  const storage = await openStorage(dbUrl ? { url: dbUrl, schema } : { dataDir: join(dataDir!, 'pglite') });
  const fleet = await seedFleet(storage.db, DEVICES, 358_000_000_000_000);
  if (!dbUrl) await storage.close();
  const server = await startServer(PROFILE_DIR, {
    LOG_LEVEL: 'warn',
    FLEET_SEED_DEMO: 'false',
    SIMULATOR: 'off',
    GATEWAY_RUPTELA_PORT: 'off',
    GATEWAY_GOSAFE_PORT: 'off',
    GATEWAY_ISTARTEK_PORT: 'off',
    GATEWAY_OSMAND_PORT: 'off',
    GATEWAY_UDP: 'off',
    GATEWAY_TELTONIKA_PORT: String(PORT + 1),
    GATEWAY_MAX_CONNECTIONS_PER_IP: '100000',
    PORT: String(PORT),
    HEALTH_PORT: String(PORT + 2),
    ...(QUERY_STATS ? { DB_QUERY_STATS: QUERY_STATS, DB_QUERY_STATS_BUCKET_S: '20' } : {}),
    ...(dbUrl ? { DATABASE_URL: dbUrl, DATABASE_SCHEMA: schema } : { DATA_DIR: dataDir! }),
  });
  const pid = server.pid;
  threadsOf.pid = pid;
  threadsOf.dbThread = !dbUrl && !/^(0|false|no|off)$/.test(process.env.PGLITE_THREAD ?? 'on');
  const http = `http://127.0.0.1:${PORT}`;
  const headers = { authorization: `Bearer ${fleet.admin.token}`, 'x-transport-uuid': fleet.company.uuid };
  const ws = new WebSocket(websocketUrl(http, fleet.company.uuid, fleet.admin.uuid, fleet.admin.token));
  let wsMessages = 0;
  ws.on('message', () => wsMessages++);
  ws.on('error', () => undefined);

  const hours = new Map<number, HourStats>();
  let simNow = DAY0;
  let ackedTotal = 0;
  let finished = false;
  const sends: [number, number, number][] = [];
  const gen = spawnGenerator(
    {
      ports: [PORT + 1],
      imeis: fleet.devices.map((d) => d.imei),
      speedup,
      hours: HOURS,
      intervalS: INTERVAL_S,
      sendPeriodS: SEND_PERIOD_S,
      probes: PROBES,
    },
    (m) => {
      if (m.kind === 'tick') {
        const s = stat(hourOf(simNow));
        s.records += m.acked! - ackedTotal;
        ackedTotal = m.acked!;
        s.acks.push(...m.acks!);
        sends.push(...m.probeSends!);
        simNow = m.simNow!;
      }
      if (m.kind === 'done') finished = true;
    },
  );
  const hourOf = (sim: number) => Math.min(Math.ceil(HOURS) - 1, Math.floor((sim - DAY0) / 3_600_000));
  const stat = (h: number) => {
    let s = hours.get(h);
    if (!s)
      hours.set(
        h,
        (s = {
          records: 0,
          cpuMs: 0,
          dbCpuMs: 0,
          lags: [],
          acks: [],
          api: [],
          rss: 0,
          mem: null,
          waitMs: 0,
          wallMs: 0,
          load: [],
          threads: new Map(),
        }),
      );
    return s;
  };
  const genExit = new Promise((r) =>
    gen.once('exit', (code) => {
      if (!finished && code !== 0) console.error(`the load generator exited (${code})`);
      finished = true;
      r(code);
    }),
  );

  // Pipeline lag probe (soak-probe.ts): the engine report of a probe vehicle says up to which fix its
  // rollups have gone; the frame that carried that fix was sent at a known time.
  const probe = async (k: number): Promise<void> => {
    const vehicleUuid = fleet.devices[k]!.vehicleUuid;
    const lag = await probeLag({ http, headers, vehicleUuid, probe: k, sends, intervalS: INTERVAL_S });
    if (lag !== null) stat(hourOf(simNow)).lags.push(lag);
  };

  let lastCpu = cpuMs(pid);
  let lastDbCpu = dbUrl ? postgresCpuMs() : 0;
  let lastWait = runWaitMs(pid);
  let lastThreads = threadCpuMs(pid);
  let lastWall = Date.now();
  let lastHour = hourOf(simNow);
  let lastMem = 0;
  const started = Date.now();
  while (!finished) {
    await sleep(1000);
    const t0 = Date.now();
    const r = await fetch(`${http}/v1/vehicles/live`, { headers }).catch(() => null);
    if (r) await r.arrayBuffer();
    const h = hourOf(simNow);
    const s = stat(h);
    s.api.push(Date.now() - t0);
    await probe((Math.floor(Date.now() / 1000) % PROBES) as number).catch(() => undefined);
    const cpu = cpuMs(pid);
    s.cpuMs += cpu - lastCpu;
    lastCpu = cpu;
    if (dbUrl) {
      const db = postgresCpuMs();
      s.dbCpuMs += db - lastDbCpu;
      lastDbCpu = db;
    }
    const threads = threadCpuMs(pid);
    for (const [tid, ms] of threads) {
      const d = ms - (lastThreads.get(tid) ?? 0);
      if (d > 0) s.threads.set(tid, (s.threads.get(tid) ?? 0) + d);
    }
    lastThreads = threads;
    const wait = runWaitMs(pid);
    s.waitMs += wait - lastWait;
    lastWait = wait;
    s.wallMs += Date.now() - lastWall;
    lastWall = Date.now();
    s.load.push(loadavg()[0]!);
    const rss = rssMb(pid);
    // The parts of the memory every 15 s (a scrape costs the server a little) and at a new high.
    if (rss > s.rss || Date.now() - lastMem > 15_000) {
      lastMem = Date.now();
      const mem = await memoryParts(PORT + 2);
      if (rss >= s.rss && mem) s.mem = mem;
    }
    s.rss = Math.max(s.rss, rss);
    if (h !== lastHour && hours.has(lastHour)) {
      report(lastHour, hours.get(lastHour)!);
      lastHour = h;
    }
  }
  await genExit;
  // Let the last flush land, then count the rest into the last hour.
  await sleep(3000);
  const last = stat(lastHour);
  const cpu = cpuMs(pid);
  last.cpuMs += cpu - lastCpu;
  if (dbUrl) last.dbCpuMs += postgresCpuMs() - lastDbCpu;
  report(lastHour, last);
  const wallS = (Date.now() - started) / 1000;
  ws.close();
  await server.stop();
  if (dbUrl) {
    await storage.db.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
    printTableSizes(await tableSizes(storage.db));
    await storage.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await storage.close();
  } else {
    const after = await openStorage({ dataDir: join(dataDir!, 'pglite') });
    printTableSizes(await tableSizes(after.db));
    await after.close();
    rmSync(dataDir!, { recursive: true, force: true });
  }

  const rows = [...hours.entries()].filter(([, s]) => s.records > 0).sort((a, b) => a[0] - b[0]);
  const perRecord = rows.map(([, s]) => s.cpuMs / s.records);
  const firstFull = rows[0]?.[1];
  const lastFull = rows[rows.length - 1]?.[1];
  const allLags = rows.flatMap(([, s]) => s.lags);
  const allAcks = rows.flatMap(([, s]) => s.acks);
  const allApi = rows.flatMap(([, s]) => s.api);
  const cpuAll =
    rows.reduce((a, [, s]) => a + s.cpuMs, 0) /
    Math.max(
      1,
      rows.reduce((a, [, s]) => a + s.records, 0),
    );
  const dbCpuAll =
    rows.reduce((a, [, s]) => a + s.dbCpuMs, 0) /
    Math.max(
      1,
      rows.reduce((a, [, s]) => a + s.records, 0),
    );
  // All-in: on PostgreSQL the server's CPU plus the database's own processes (on PGlite it is inside).
  const allIn = cpuAll + dbCpuAll;
  const cpuGoal = dbUrl ? 0.3 : 0.5;
  const flat =
    firstFull && lastFull ? lastFull.cpuMs / lastFull.records / (firstFull.cpuMs / firstFull.records) : null;
  const figures = {
    bench: 'soak',
    database: dbUrl ? 'postgresql' : 'pglite',
    // PGlite on its own thread (storage/pglite-thread.ts) unless PGLITE_THREAD=off was passed through.
    ...(dbUrl ? {} : { pglite_thread: !/^(0|false|no|off)$/.test(process.env.PGLITE_THREAD ?? 'on') }),
    devices: DEVICES,
    simulated_hours: HOURS,
    interval_s: INTERVAL_S,
    send_period_s: SEND_PERIOD_S,
    records: ackedTotal,
    wall_s: Math.round(wallS),
    records_per_s: Math.round(ackedTotal / wallS),
    websocket_messages: wsMessages,
    cpu_ms_per_record: Math.round(cpuAll * 1000) / 1000,
    ...(dbUrl
      ? {
          database_cpu_ms_per_record: Math.round(dbCpuAll * 1000) / 1000,
          all_in_cpu_ms_per_record: Math.round(allIn * 1000) / 1000,
        }
      : {}),
    // The day's CPU by thread (threadSplit): where the per-record cost is spent and, hour by hour, grows.
    cpu_ms_per_record_by_thread: (() => {
      const sum = { main: 0, db: 0, other: 0 };
      let n = 0;
      for (const [, s] of rows) {
        const t = threadSplit(s);
        sum.main += t.main;
        sum.db += t.db;
        sum.other += t.other;
        n += s.records;
      }
      const r = (x: number) => Math.round((x / Math.max(1, n)) * 1000) / 1000;
      return threadsOf.dbThread
        ? { main: r(sum.main), pglite_thread: r(sum.db), other: r(sum.other) }
        : { main: r(sum.main), other: r(sum.other) };
    })(),
    cpu_ms_per_record_first_hour: perRecord.length ? Math.round(perRecord[0]! * 1000) / 1000 : null,
    cpu_ms_per_record_last_hour: perRecord.length
      ? Math.round(perRecord[perRecord.length - 1]! * 1000) / 1000
      : null,
    cost_last_over_first: flat === null ? null : Math.round(flat * 100) / 100,
    lag_p50_ms: pct(allLags, 50),
    lag_p99_ms: pct(allLags, 99),
    ack_p99_ms: pct(allAcks, 99),
    api_list_p95_ms: pct(allApi, 95),
    rss_max_mb: Math.max(0, ...rows.map(([, s]) => s.rss)),
    // What the RSS was made of in the hour of the highest RSS (MB, the server's own /metrics).
    rss_parts_at_max_mb:
      rows.reduce<HourStats | null>((a, [, s]) => (!a || s.rss > a.rss ? s : a), null)?.mem ?? null,
    // The machine: how long the server's event loop waited for a CPU per wall second, and the load
    // average (other work on the machine; 2 cores here). ACK and lag include this wait.
    run_queue_wait_ms_per_s: Math.round(
      (rows.reduce((a, [, s]) => a + s.waitMs, 0) /
        Math.max(
          1,
          rows.reduce((a, [, s]) => a + s.wallMs, 0),
        )) *
        1000,
    ),
    load_avg_p50:
      Math.round(
        (pct(
          rows.flatMap(([, s]) => s.load),
          50,
        ) ?? 0) * 10,
      ) / 10,
    cores: availableParallelism(),
    goals: {
      cost_flat_max_ratio: 1.2,
      cpu_ms_per_record_max: cpuGoal,
      lag_p99_ms_max: 5000,
      ack_p99_ms_max: 500,
      rss_mb_max: 400,
    },
  };
  const met = {
    cost_flat: flat !== null && flat <= 1.2,
    cpu: allIn <= cpuGoal,
    lag: (figures.lag_p99_ms ?? Infinity) < 5000,
    ack: (figures.ack_p99_ms ?? Infinity) < 500,
    rss: figures.rss_max_mb < 400,
  };
  console.log(JSON.stringify({ ...figures, met }));
}

/**
 * The hour's CPU by thread: the main thread (event loop: gateway, pipeline, API), PGlite's thread (the
 * busiest other thread when the server runs PGlite on one; measured at 9.5 s per 30 s against 2.2 s
 * for the busiest of V8's helper threads), and the rest (V8's garbage-collection helpers, libuv's pool).
 */
const threadsOf = { pid: 0, dbThread: false };
function threadSplit(s: HourStats): { main: number; db: number; other: number } {
  let main = 0;
  let db = 0;
  let total = 0;
  for (const [tid, ms] of s.threads) {
    total += ms;
    if (tid === threadsOf.pid) main = ms;
    else if (threadsOf.dbThread && ms > db) db = ms;
  }
  return { main, db, other: total - main - db };
}
function splitText(s: HourStats): string {
  if (!s.records || s.threads.size === 0) return '';
  const { main, db, other } = threadSplit(s);
  const r = (x: number) => (x / s.records).toFixed(3);
  return ` (main thread ${r(main)}${threadsOf.dbThread ? `, PGlite thread ${r(db)}` : ''}, other threads ${r(other)})`;
}

function report(h: number, s: HourStats): void {
  const f = (x: number | null) => (x === null ? '-' : String(Math.round(x)));
  console.log(
    `hour ${String(h).padStart(2, '0')}: ${s.records} records, CPU ${(s.records ? s.cpuMs / s.records : 0).toFixed(3)} ms/record` +
      splitText(s) +
      (s.dbCpuMs ? ` + PostgreSQL ${(s.records ? s.dbCpuMs / s.records : 0).toFixed(3)}` : '') +
      ', ' +
      `lag p50 ${f(pct(s.lags, 50))} ms p99 ${f(pct(s.lags, 99))} ms, ACK p99 ${f(pct(s.acks, 99))} ms, ` +
      `API list p95 ${f(pct(s.api, 95))} ms, RSS ${s.rss} MB${memText(s.mem)}, ` +
      `run-queue wait ${s.wallMs ? Math.round((s.waitMs / s.wallMs) * 1000) : 0} ms/s, load ${(pct(s.load, 50) ?? 0).toFixed(1)}`,
  );
}

/** " (heap 180 of 220, external 30, PGlite wasm 190 + thread heap 12)": what the RSS is made of. */
function memText(m: MemoryParts | null): string {
  if (!m) return '';
  const db = m.dbWasm ? `, PGlite wasm ${m.dbWasm} + thread heap ${m.dbHeap}` : '';
  return ` (heap ${m.heapUsed} of ${m.heapTotal}, external ${m.external}${db})`;
}

await main();
process.exit(0);
