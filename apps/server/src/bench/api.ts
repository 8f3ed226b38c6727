/**
 * bench:api: 10,000 vehicles and ~1,000,000 stored locations; over HTTP on loopback:
 * - vehicle list page with search: p95 under 30 ms (autocannon for load, plus a sequential timed run
 *   for the exact p95);
 * - one vehicle's day (8,640 points) in pages of 500: under 100 ms in all (timed with a load-tool
 *   client in its own process that receives each page whole; the same walk with a client in the
 *   server's process parsing every page is printed too, and checks the points);
 * - RSS of the server at rest with the demo loaded: under 250 MB (the `npm start` command of this
 *   workspace in a separate process, measured on first start and on a restart of the same folder,
 *   both with the gateway off, and once more with the gateway and the simulated devices running).
 * Storage: PGlite in a temporary folder; when DATABASE_URL is set the same figures are measured on
 * PostgreSQL too (a temporary schema) and both are printed. Last line: JSON.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../config/config';
import { openStorage } from '../storage/storage';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import { createServer } from '../server';
import { hashToken, newToken } from '../auth/crypto';
import { authCacheOf } from '../auth/cache';

const VEHICLES = 10_000;
const PER_VEHICLE = 100;
const DAY_POINTS = 8_640;
const DAY = Date.UTC(2026, 10, 19);
const DAY_RUNS = 9;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: keepAlive }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * The load-tool client of the day walk (run with `node -e`; argv: port, headers JSON, the page path
 * with page=0). On each 'walk' line it fetches pages 1, 2 ... over one keep-alive connection, each
 * received whole, the page count read from the first answer's last_page, and prints
 * {ms, pages, bytes}.
 */
const WALK_CLIENT = `
const http = require('node:http');
const readline = require('node:readline');
const [port, headersJson, path] = process.argv.slice(1);
const headers = JSON.parse(headersJson);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (page) => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port: Number(port), path: path.replace('page=0', 'page=' + page), headers, agent }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error('status ' + res.statusCode)));
  });
  req.on('error', reject);
  req.end();
});
readline.createInterface({ input: process.stdin }).on('line', async () => {
  const s = performance.now();
  let bytes = 0, last = 1;
  for (let page = 1; page <= last; page++) {
    const body = await get(page);
    bytes += body.length;
    if (page === 1) last = Number(/"last_page":(\\d+)/.exec(body.toString('latin1', Math.max(0, body.length - 200)))[1]);
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - s, pages: last, bytes }) + '\\n');
});
`;

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The node process running the server (scripts/start-server.mjs, or src/main.ts via tsx) under `root`. */
function serverPid(root: number): number | null {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (
        /(^|\/)node$/.test(argv[0] ?? '') &&
        argv.some((a) => a.endsWith('src/main.ts') || a.endsWith('scripts/start-server.mjs'))
      )
        return pid;
    } catch {
      continue;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return null;
}

/**
 * RSS at rest of the one-command demo: `npm run start` of this workspace (the command `npm start`
 * runs, with its node flags), gateway and simulator off, 5 s after it printed its URL. Only the
 * server process is measured (not npm or the shell above it).
 */
async function rssOfDemo(dataDir: string, env: Record<string, string> = {}): Promise<number> {
  const child = spawn('npm', ['run', '--silent', 'start'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      GATEWAY: 'off',
      SIMULATOR: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('demo did not start in 180 s')), 180_000);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('fleet is running')) {
          clearTimeout(t);
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`demo exited ${code}: ${err.slice(-500)}`)));
    });
    await new Promise((r) => setTimeout(r, 5_000)); // at rest
    const pid = serverPid(child.pid!);
    if (!pid) throw new Error('server process not found');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

/** RSS on PGlite (first start of a new folder, then a restart of it) and on PostgreSQL when given. */
async function rssFigures(url: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-rss-'));
  try {
    const first = await rssOfDemo(dir);
    const restart = await rssOfDemo(dir);
    // As `npm start` runs by default: device gateway listening and the demo's 50 simulated devices reporting.
    // Listeners on free ports (0), so a server already running on this machine does not collide.
    const live = await rssOfDemo(dir, {
      GATEWAY: 'on',
      SIMULATOR: 'on',
      MQTT_URL: '',
      ...Object.fromEntries(
        ['TELTONIKA', 'RUPTELA', 'GOSAFE', 'ISTARTEK', 'OSMAND'].map((p) => [`GATEWAY_${p}_PORT`, '0']),
      ),
    });
    let pg: number | null = null;
    if (url) {
      const schema = `bench_rss_${Date.now()}`;
      try {
        pg = await rssOfDemo(dir, { DATABASE_URL: url, DATABASE_SCHEMA: schema });
      } finally {
        const storage = await openStorage({ url, schema });
        await storage.db.exec(`DROP SCHEMA ${schema} CASCADE`);
        await storage.close();
      }
    }
    return { first, restart, live, pg };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Load 10,000 vehicles and ~1,000,000 locations into new storage and time the API over HTTP. */
async function httpFigures(url: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const schema = `bench_${Date.now()}`;
  // The embedded database as the server configures it (its default shared_buffers).
  const storage = await openStorage(
    url
      ? { url, schema }
      : { dataDir: join(dir, 'pglite'), pgliteSharedBuffers: loadConfig({}).PGLITE_SHARED_BUFFERS },
  );
  const db = storage.db;
  const t0 = performance.now();
  const [c] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Bench') RETURNING id, uuid`,
  );
  const [u] = await db.query<{ id: number }>(
    `INSERT INTO users (email, name) VALUES ('bench@fleet.test', 'Bench') RETURNING id`,
  );
  await db.query(`INSERT INTO memberships (user_id, company_id, user_type) VALUES ($1, $2, 'admin')`, [
    u!.id,
    c!.id,
  ]);
  const token = newToken();
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, company_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
    [u!.id, hashToken(token), c!.id],
  );
  await db.query(
    `INSERT INTO devices (company_id, imei, type) SELECT $1, '86' || lpad(g::text, 13, '0'), 'teltonika' FROM generate_series(1, $2) g`,
    [c!.id, VEHICLES],
  );
  await db.query(
    `INSERT INTO vehicles (company_id, license_plate_number, type, make, device_imei, data)
     SELECT $1, chr(65 + g % 26) || ' ' || (10000 + g), CASE WHEN g % 3 = 0 THEN 'bus' ELSE 'car' END, 'Toyota',
            '86' || lpad(g::text, 13, '0'), '{"license_plate_state_code": "DXB"}'
     FROM generate_series(1, $2) g`,
    [c!.id, VEHICLES],
  );
  await db.query(`SELECT fleet_ensure_location_partition($1::date)`, [
    new Date(DAY).toISOString().slice(0, 10),
  ]);
  // Vehicle 1: a full day every 10 s. The others: 100 points each in the same month.
  await db.query(
    `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, ignition, io_elements)
     SELECT 1, 1, $1, to_timestamp($2 / 1000.0) + make_interval(secs => g * 10), 25 + g / 1e5, 55.3, 40, true,
            '{"239": {"value": 1}, "16": {"value": 1000}}'::jsonb
     FROM generate_series(0, $3 - 1) g`,
    [c!.id, DAY, DAY_POINTS],
  );
  for (let from = 2; from <= VEHICLES; from += 1000) {
    await db.query(
      `INSERT INTO locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, ignition, io_elements)
       SELECT d, d, $1, to_timestamp($2 / 1000.0) + make_interval(secs => p * 600), 25.1, 55.2, 30, p % 2 = 0,
              '{"239": {"value": 1}}'::jsonb
       FROM generate_series($3::int, $4::int) d, generate_series(0, $5 - 1) p`,
      [c!.id, DAY, from, Math.min(VEHICLES, from + 999), PER_VEHICLE],
    );
  }
  await db.query(
    `INSERT INTO latest_locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, ignition, io_elements)
     SELECT DISTINCT ON (device_id) device_id, vehicle_id, company_id, fix_time, latitude, longitude, speed, ignition, io_elements
     FROM locations ORDER BY device_id, fix_time DESC`,
  );
  await db.exec('ANALYZE');
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM locations');
  const [vehicle] = await db.query<{ uuid: string }>('SELECT uuid FROM vehicles WHERE id = 1');
  console.log(
    `[${db.driver}] data: ${VEHICLES} vehicles, ${n} locations, loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${db.driver}`,
  );

  const config = loadConfig({ LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' });
  const app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const headers = { authorization: `Bearer ${token}`, 'x-transport-uuid': c!.uuid };

  // 1. Vehicle list page with search.
  const searches = ['A 1', 'B 12', 'Toyota', 'Z 19', 'K 150', 'M 1000'];
  const listPath = (i: number) =>
    `/v1/vehicles?search=${encodeURIComponent(searches[i % searches.length]!)}&page=1&limit=15`;
  for (let i = 0; i < 20; i++) await get(port, listPath(i), headers); // warm up
  const lat: number[] = [];
  for (let i = 0; i < 300; i++) {
    const s = performance.now();
    const r = await get(port, listPath(i), headers);
    lat.push(performance.now() - s);
    if (r.status !== 200) throw new Error(`list answered ${r.status}: ${r.body.slice(0, 200)}`);
  }
  const listP50 = pct(lat, 50);
  const listP95 = pct(lat, 95);
  console.log(
    `[${db.driver}] vehicle list + search (sequential, 300 requests): p50 ${listP50.toFixed(2)} ms, p95 ${listP95.toFixed(2)} ms, p99 ${pct(lat, 99).toFixed(2)} ms`,
  );
  const ac = await autocannon({
    url: `http://127.0.0.1:${port}${listPath(0)}`,
    headers,
    connections: 4,
    duration: 8,
  });
  console.log(
    `[${db.driver}] vehicle list + search (autocannon, 4 connections, 8 s): ${Math.round(ac.requests.average)} req/s, p50 ${ac.latency.p50} ms, p90 ${ac.latency.p90} ms, p97.5 ${ac.latency.p97_5} ms, p99 ${ac.latency.p99} ms, non-2xx ${ac.non2xx}`,
  );

  // 2. A day of one vehicle's locations in pages of 500.
  const from = new Date(DAY).toISOString();
  const to = new Date(DAY + 86_400_000 - 1).toISOString();
  const dayPath = (page: number) =>
    `/v1/device-locations/vehicle/locations?vehicle_uuid=${vehicle!.uuid}&from=${from}&to=${to}&page=${page}&limit=500`;
  // The same walk with a client in this process that parses every page (also the correctness
  // check: every point once, oldest first).
  const parsedRun = async () => {
    const cpu = process.cpuUsage();
    const s = performance.now();
    const times: string[] = [];
    for (let page = 1; ; page++) {
      const r = await get(port, dayPath(page), headers);
      const body = JSON.parse(r.body) as { data: { created_at: string }[]; last_page: number };
      for (const p of body.data) times.push(p.created_at);
      if (page >= body.last_page) break;
    }
    const used = process.cpuUsage(cpu);
    if (times.length !== DAY_POINTS || times.some((t, i) => i > 0 && t <= times[i - 1]!))
      throw new Error(`the day walk returned ${times.length} points, not ${DAY_POINTS} in order`);
    return { ms: performance.now() - s, cpuMs: (used.user + used.system) / 1000, points: times.length };
  };
  // The timed walk: a load-tool client in its own process (as a real client is never in the
  // server's process), receiving every page whole over HTTP on loopback without parsing it (the
  // pages were checked above). CPU is this process's: server${db.driver === 'pglite' ? ' and PGlite' : ''}.
  const walker = spawn(
    process.execPath,
    ['-e', WALK_CLIENT, String(port), JSON.stringify(headers), dayPath(0)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: walker.stdout! });
  const answers = lines[Symbol.asyncIterator]();
  const dayRun = async () => {
    const cpu = process.cpuUsage();
    walker.stdin!.write('walk\n');
    const answer = await answers.next();
    const used = process.cpuUsage(cpu);
    const r = JSON.parse(String(answer.value)) as { ms: number; pages: number; bytes: number };
    return { ms: r.ms, cpuMs: (used.user + used.system) / 1000, pages: r.pages, bytes: r.bytes };
  };
  // Runs alternate with and without the session/tenant cache (auth/cache.ts), so both see the
  // same machine load; the headline figure is the one with the cache (the server's default).
  const authCache = authCacheOf(db)!;
  const parsed = [await parsedRun()];
  await dayRun();
  const days = [];
  const uncached = [];
  for (let i = 0; i < DAY_RUNS; i++) {
    days.push(await dayRun());
    authCache.enabled = false;
    uncached.push(await dayRun());
    authCache.enabled = true;
    parsed.push(await parsedRun());
  }
  walker.stdin!.end();
  const med = (xs: number[]) => pct(xs, 50);
  const dayMs = med(days.map((d) => d.ms));
  const uncachedMs = med(uncached.map((d) => d.ms));
  const uncachedCpuMs = med(uncached.map((d) => d.cpuMs));
  // Wall time suffers from other processes on a busy machine; CPU time much less so.
  const dayCpuMs = med(days.map((d) => d.cpuMs));
  const parsedMs = med(parsed.slice(1).map((d) => d.ms));
  console.log(
    `[${db.driver}] one vehicle's day: ${DAY_POINTS} points in ${days[0]!.pages} pages (${(days[0]!.bytes / 1e6).toFixed(2)} MB), client in its own process: median of ${DAY_RUNS} runs ${dayMs.toFixed(1)} ms (best ${Math.min(...days.map((d) => d.ms)).toFixed(1)} ms); server CPU${db.driver === 'pglite' ? ' (with PGlite)' : ''} median ${dayCpuMs.toFixed(1)} ms, load ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `[${db.driver}] the same day with the client in the server's process parsing every page: median ${parsedMs.toFixed(1)} ms (CPU of both ${med(parsed.slice(1).map((d) => d.cpuMs)).toFixed(1)} ms)`,
  );
  console.log(
    `[${db.driver}] one vehicle's day without the session/tenant cache (interleaved runs): median ${uncachedMs.toFixed(1)} ms, server CPU median ${uncachedCpuMs.toFixed(1)} ms`,
  );
  await app.close();
  if (url) await db.exec(`DROP SCHEMA ${schema} CASCADE`);
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    storage: db.driver === 'pg' ? 'postgresql' : 'pglite',
    locations: n,
    list_search_p50_ms: +listP50.toFixed(2),
    list_search_p95_ms: +listP95.toFixed(2),
    list_search_autocannon_p97_5_ms: ac.latency.p97_5,
    list_search_rps: Math.round(ac.requests.average),
    day_points: DAY_POINTS,
    day_total_ms: +dayMs.toFixed(1),
    day_client_in_process_parsing_ms: +parsedMs.toFixed(1),
    day_server_cpu_ms: +dayCpuMs.toFixed(1),
    day_without_auth_cache_ms: +uncachedMs.toFixed(1),
    day_without_auth_cache_server_cpu_ms: +uncachedCpuMs.toFixed(1),
  };
}

async function main() {
  const url = process.env.DATABASE_URL || undefined;
  if (process.argv.includes('--rss-only')) {
    const rss = await rssFigures(url);
    console.log(
      `server RSS at rest with the demo: PGlite first start ${rss.first.toFixed(0)} MB, restart ${rss.restart.toFixed(0)} MB, with the simulated devices ${rss.live.toFixed(0)} MB${rss.pg === null ? '' : `, PostgreSQL ${rss.pg.toFixed(0)} MB`}`,
    );
    process.exit(0);
  }
  // --http-only: the HTTP figures without the RSS runs (quicker, while working on a query).
  const httpOnly = process.argv.includes('--http-only');
  const runs = [await httpFigures(undefined)];
  if (url) runs.push(await httpFigures(url));
  if (httpOnly) {
    console.log(JSON.stringify({ bench: 'api', runs, load_average_1m: +(loadavg()[0] ?? 0).toFixed(2) }));
    process.exit(0);
  }
  const rss = await rssFigures(url);
  console.log(
    `server RSS at rest with the demo: PGlite first start ${rss.first.toFixed(0)} MB, restart ${rss.restart.toFixed(0)} MB, with the simulated devices reporting ${rss.live.toFixed(0)} MB${rss.pg === null ? '' : `, PostgreSQL (server process only) ${rss.pg.toFixed(0)} MB`}`,
  );
  const rssWorst = Math.max(rss.first, rss.restart, rss.live, rss.pg ?? 0);
  console.log(
    JSON.stringify({
      bench: 'api',
      vehicles: VEHICLES,
      runs,
      rss_at_rest_mb: {
        pglite_first_start: Math.round(rss.first),
        pglite_restart: Math.round(rss.restart),
        pglite_simulated_devices: Math.round(rss.live),
        ...(rss.pg === null ? {} : { postgresql: Math.round(rss.pg) }),
      },
      // Wall-clock figures are only meaningful on a quiet machine: the 1-minute load average
      // (2 cores here) is printed with them.
      load_average_1m: +(loadavg()[0] ?? 0).toFixed(2),
      goals: { list_search_p95_ms: 30, day_total_ms: 100, rss_at_rest_mb: 250 },
      met: {
        list: runs.every((r) => r.list_search_p95_ms < 30),
        day: runs.every((r) => r.day_total_ms < 100),
        rss: rssWorst < 250,
      },
    }),
  );
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
