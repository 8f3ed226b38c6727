import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStorage, type LocationInput } from '../../storage/storage';
import { destination } from '../common/geo';
import { prng } from '../common/fixtures';
import { cpuMs, rssMb, startServer } from './server-proc';

/**
 * `npm run bench:demo [-- --hours 0,12,23 --warmup 45 --seconds 60 --port 31100]`: the CPU of
 * `npm start` with the demo (embedded PGlite, demo company seeded, SIMULATOR on: its simulated
 * trackers report every 5 s over loopback TCP into the same process), at several hours of a day.
 *
 * What grew through the day was the stored day of each device (issue 13: the demo went from 16 % of a
 * core in its first minutes to 40-50 % later, because every flush re-read the devices' day). The demo's
 * simulator runs on the real clock, so instead of waiting a day, each point starts a fresh data
 * directory, seeds the demo (FLEET_PREPARE_ONLY), stores H hours of 5-second records before now for
 * every simulated demo device (what the demo would have stored by hour H of its day), starts the server
 * as `npm start` runs it, lets it build its state (`--warmup` s, not counted) and measures its CPU over
 * `--seconds`. Per point: CPU % of one core and RSS. Last line: one JSON object with the goal
 * (under 5 % of one core at every hour).
 */
const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : def;
};
const HOURS = opt('hours', '0,12,23')
  .split(',')
  .map(Number)
  .filter((h) => Number.isFinite(h) && h >= 0 && h < 24);
const WARMUP_S = Number(opt('warmup', '45'));
const SECONDS = Number(opt('seconds', '60'));
const PORT = Number(opt('port', '31100'));
const INTERVAL_MS = 5000; // the demo simulator's interval (simulator/demo.ts)
const GOAL_PCT = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const serverDir = fileURLToPath(new URL('../../..', import.meta.url));

function env(dataDir: string): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    FLEET_SEED_DEMO: 'true',
    SIMULATOR: 'on',
    PORT: String(PORT),
    GATEWAY_TELTONIKA_PORT: String(PORT + 1),
    GATEWAY_RUPTELA_PORT: String(PORT + 2),
    GATEWAY_GOSAFE_PORT: String(PORT + 3),
    GATEWAY_ISTARTEK_PORT: String(PORT + 4),
    GATEWAY_OSMAND_PORT: String(PORT + 5),
    GATEWAY_UDP: 'off',
  };
}

/** H hours of records every 5 s before `now` for each simulated demo device (driving and parking). */
async function fillHistory(dataDir: string, hours: number, now: number): Promise<number> {
  if (hours <= 0) return 0;
  const storage = await openStorage({ dataDir: join(dataDir, 'pglite') });
  try {
    const devices = await storage.db.query<{
      id: number;
      company_id: number;
      type: string;
      vehicle_id: number | null;
    }>(
      `SELECT d.id, d.company_id, d.type,
              (SELECT v.id FROM vehicles v WHERE v.device_imei = d.imei OR v.gps_device_imei = d.imei
               ORDER BY (v.device_imei = d.imei) DESC LIMIT 1) AS vehicle_id
       FROM devices d WHERE d.type IN ('teltonika', 'ruptela', 'gosafe', 'istartek') AND d.status = 'active'
       ORDER BY d.id LIMIT 500`,
    );
    let n = 0;
    for (const [k, d] of devices.entries()) {
      const rand = prng(k + 7);
      let lat = 25.1 + rand() * 0.2;
      let lon = 55.15 + rand() * 0.3;
      let heading = rand() * 360;
      let driving = false;
      let until = 0;
      let odo = 0;
      const batch: LocationInput[] = [];
      const from = now - hours * 3_600_000;
      for (let t = from - (from % INTERVAL_MS); t < now - 30_000; t += INTERVAL_MS) {
        if (t >= until) {
          driving = rand() < 0.6;
          until = t + (5 + rand() * 40) * 60_000;
        }
        const speed = driving ? Math.round(20 + rand() * 80) : 0;
        if (driving) {
          heading += (rand() - 0.5) * 30;
          const p = destination(lat, lon, heading, (speed / 3.6) * (INTERVAL_MS / 1000));
          if (p.lat > 24.9 && p.lat < 25.4 && p.lon > 55 && p.lon < 55.6) ({ lat, lon } = p);
          else heading += 180;
          odo += Math.round((speed / 3.6) * (INTERVAL_MS / 1000));
        }
        batch.push({
          deviceId: d.id,
          vehicleId: d.vehicle_id,
          companyId: d.company_id,
          fixTime: new Date(t),
          latitude: lat,
          longitude: lon,
          altitude: 10,
          speed,
          course: Math.round(((heading % 360) + 360) % 360),
          satellites: 9,
          ignition: driving,
          isIdle: false,
          digitalOutput1: 0,
          digitalOutput2: 0,
          ioJson: `{"239":{"value":${driving ? 1 : 0}},"16":{"value":${odo}}}`,
          valid: true,
          source: d.type,
        });
        if (batch.length >= 2000) n += (await storage.insertLocations(batch.splice(0))).length;
      }
      n += (await storage.insertLocations(batch)).length;
    }
    return n;
  } finally {
    await storage.close();
  }
}

async function point(hours: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-demo-bench-'));
  try {
    // Migrate and seed the demo the way `npm start` does on a fresh clone, then stop.
    const prep = spawnSync(process.execPath, ['scripts/start-server.mjs'], {
      cwd: serverDir,
      env: { ...process.env, ...env(dataDir), FLEET_PREPARE_ONLY: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (prep.status !== 0) throw new Error('preparing the demo database failed');
    const stored = await fillHistory(dataDir, hours, Date.now());
    const server = await startServer(undefined, env(dataDir));
    try {
      await sleep(WARMUP_S * 1000);
      const storage0 = Date.now();
      const cpu0 = cpuMs(server.pid);
      let rss = 0;
      const end = Date.now() + SECONDS * 1000;
      while (Date.now() < end) {
        await sleep(1000);
        rss = Math.max(rss, rssMb(server.pid));
      }
      const cpu = cpuMs(server.pid) - cpu0;
      const wall = Date.now() - storage0;
      return {
        hour: hours,
        history_records: stored,
        cpu_pct: Math.round((cpu / wall) * 1000) / 10,
        rss_mb: rss,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(
    `bench:demo: npm start with the demo (PGlite, simulator on), hours ${HOURS.join(', ')} of a day; ` +
      `${WARMUP_S} s warm-up, ${SECONDS} s measured per hour`,
  );
  const rows = [];
  for (const h of HOURS) {
    const r = await point(h);
    rows.push(r);
    console.log(
      `hour ${String(h).padStart(2, '0')}: ${r.history_records} records of the day stored before, ` +
        `server CPU ${r.cpu_pct} % of one core, RSS ${r.rss_mb} MB`,
    );
  }
  const max = Math.max(...rows.map((r) => r.cpu_pct));
  console.log(
    JSON.stringify({
      bench: 'demo',
      database: 'pglite',
      hours: rows,
      cpu_pct_max: max,
      goal: { cpu_pct_max: GOAL_PCT },
      met: max < GOAL_PCT,
    }),
  );
}

await main();
process.exit(0);
