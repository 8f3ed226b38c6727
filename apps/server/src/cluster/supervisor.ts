import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeEnv, spawnNode, type NodeProcess } from './harness';
import { openStorage, type Storage } from '../storage/storage';
import { seedDemo, DEMO_EMAIL } from '../seed/demo';
import { seedHistory } from '../seed/history';
import { startDemoFleet } from '../simulator/demo';
import type { SimulatedFleet } from '../simulator/fleet';

/**
 * `npm run start:cluster`: the scale-out mode on one machine. Starts 2 gateways, 2 pipeline workers and
 * 2 API/WebSocket nodes against the PostgreSQL of DATABASE_URL and the NATS of NATS_URL (defaults: the
 * local services of this machine), prints where each listens, restarts a node that dies, and stops
 * them all on Ctrl-C. Every node starts at once: the first to reach the database creates the schema
 * and applies the migrations under an advisory lock, the others wait (storage/migrate.ts).
 *
 * Options:
 *   --gateways N --workers N --apis N   nodes per role (default 2 each)
 *   --api-port P          first API port (default 8081; API node i listens on P + i). The API nodes
 *                         serve the portal too (built first, as `npm start` does; SKIP_PORTAL_BUILD=1
 *                         skips the build).
 *   --gateway-port-base B device ports: gateway i listens on B + 10 i + {0 Teltonika, 1 Ruptela,
 *                         2 GoSafe, 3 iStartek, 4 OsmAnd}. Without it: Traccar's ports + 1000 i
 *                         (Teltonika 5027 / 6027, Ruptela 5046 / 6046, ...).
 *   --health-port P       first health port (default 9101): /healthz /readyz /metrics of node j
 *                         (workers, then gateways, then API nodes) on P + j; 0 = free ports; off = none.
 *   --demo                seed the demo company (when the database has none) and drive its simulated
 *                         devices against the gateways (spread over them), as `npm start` does.
 *   --no-restart          leave a dead node dead.
 */
const args = process.argv.slice(2);
function usage(msg: string): never {
  console.error(msg);
  process.exit(2);
}
const known = new Set([
  '--gateways',
  '--workers',
  '--apis',
  '--api-port',
  '--gateway-port-base',
  '--health-port',
  '--demo',
  '--no-restart',
]);
for (let i = 0; i < args.length; i++) {
  if (!known.has(args[i]!)) usage(`unknown option ${args[i]} (see apps/server/src/cluster/supervisor.ts)`);
  if (args[i] !== '--demo' && args[i] !== '--no-restart') i++;
}
const raw = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? usage(`--${name} needs a value`)) : undefined;
};
const opt = (name: string, def: number, min: number, max: number) => {
  const r = raw(name);
  const v = r === undefined ? def : Number(r);
  if (!Number.isInteger(v) || v < min || v > max)
    usage(`--${name} must be an integer between ${min} and ${max}`);
  return v;
};
const counts = {
  gateway: opt('gateways', 2, 0, 64),
  worker: opt('workers', 2, 0, 64),
  api: opt('apis', 2, 0, 64),
};
const apiPort = opt('api-port', 8081, 1, 65_000);
const gatewayBase = raw('gateway-port-base') === undefined ? null : opt('gateway-port-base', 0, 1, 65_000);
const healthBase = raw('health-port') === 'off' ? null : opt('health-port', 9101, 0, 65_000);
const demo = args.includes('--demo');
const restart = !args.includes('--no-restart');

const base: Record<string, string> = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${apiPort}`,
};
for (const k of [
  'DATABASE_SCHEMA',
  'NATS_PREFIX',
  'NATS_PARTITIONS',
  'LOCATION_RETENTION_DAYS',
  'MQTT_URL',
  'PORTAL_DIST',
  'HEALTH_HOST',
]) {
  if (process.env[k]) base[k] = process.env[k]!;
}

type Role = 'gateway' | 'worker' | 'api';
const ORDER: Role[] = ['worker', 'gateway', 'api'];

/** Health port of node i of a role: workers first, then gateways, then API nodes. */
function healthPort(role: Role, i: number): string {
  if (healthBase === null) return 'off';
  if (healthBase === 0) return '0';
  let j = 0;
  for (const r of ORDER) {
    if (r === role) return String(healthBase + j + i);
    j += counts[r];
  }
  return 'off';
}

function gatewayPorts(i: number): Record<string, string> {
  if (gatewayBase === null) {
    const off = 1000 * i;
    return {
      GATEWAY_TELTONIKA_PORT: String(5027 + off),
      GATEWAY_RUPTELA_PORT: String(5046 + off),
      GATEWAY_GOSAFE_PORT: String(5078 + off),
      GATEWAY_ISTARTEK_PORT: String(5222 + off),
      GATEWAY_OSMAND_PORT: String(5055 + off),
    };
  }
  const b = gatewayBase + 10 * i;
  return {
    GATEWAY_TELTONIKA_PORT: String(b),
    GATEWAY_RUPTELA_PORT: String(b + 1),
    GATEWAY_GOSAFE_PORT: String(b + 2),
    GATEWAY_ISTARTEK_PORT: String(b + 3),
    GATEWAY_OSMAND_PORT: String(b + 4),
  };
}

function envFor(role: Role, i: number): Record<string, string> {
  const health = { HEALTH_PORT: healthPort(role, i) };
  if (role === 'gateway') {
    return nodeEnv(base, role, {
      ...gatewayPorts(i),
      GATEWAY_UDP: 'on',
      ...health,
      ...(i === 0 && base.MQTT_URL ? { MQTT_URL: base.MQTT_URL } : {}),
    });
  }
  if (role === 'api') return nodeEnv(base, role, { PORT: String(apiPort + i), HOST: '127.0.0.1', ...health });
  return nodeEnv(base, role, health);
}

const running = new Map<string, NodeProcess>();
let stopping = false;
const fleets: SimulatedFleet[] = [];
let storage: Storage | null = null;

function describe(p: NodeProcess): string {
  const { name, role, pid, ...rest } = p.info;
  const where = Object.entries(rest)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  return `${name.padEnd(10)} ${role.padEnd(8)} pid ${String(pid).padEnd(7)} ${where}`;
}

async function launch(role: Role, i: number): Promise<NodeProcess> {
  const name = `${role}-${i + 1}`;
  const p = await spawnNode(name, envFor(role, i), {
    echo: (line) => {
      // Node logs carry their name already (cluster/node.ts).
      if (!line.startsWith('READY ')) console.log(line.startsWith(`[${name}]`) ? line : `[${name}] ${line}`);
    },
  });
  running.set(name, p);
  console.log(describe(p));
  void p.exited.then((code) => {
    running.delete(name);
    if (stopping) return;
    console.log(`${name} exited (${code}); ${restart ? 'restarting in 1 s' : 'not restarting'}`);
    if (restart) setTimeout(() => void launch(role, i).catch((e: unknown) => console.error(String(e))), 1000);
  });
  return p;
}

/** Build the portal the API nodes serve, as `npm start` does (SKIP_PORTAL_BUILD=1 to skip). */
function buildPortal(): void {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  if (process.env.SKIP_PORTAL_BUILD || base.PORTAL_DIST || !existsSync(`${root}apps/portal/package.json`))
    return;
  console.log('building the portal (SKIP_PORTAL_BUILD=1 skips this)...');
  const r = spawnSync('npm', ['run', 'build', '-w', '@fleet/portal'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('the portal build failed: the API nodes will serve the API only');
  }
}

async function main(): Promise<void> {
  console.log(
    `fleet cluster: ${counts.gateway} gateways, ${counts.worker} workers, ${counts.api} API nodes on ${base.DATABASE_URL} and ${base.NATS_URL}`,
  );
  if (counts.api > 0) buildPortal();
  const seeding = demo
    ? (async () => {
        // Migrates (under the same lock as the nodes) and seeds only a database without companies.
        storage = await openStorage({ url: base.DATABASE_URL, schema: base.DATABASE_SCHEMA ?? 'public' });
        const r = await seedDemo(storage.db, process.env.FLEET_DEMO_PASSWORD ?? 'demo12345');
        console.log(
          r.seeded
            ? 'seeded the demo companies "Demo Transport" and "Gulf Freight Services"'
            : 'demo: the database has companies already, not seeded',
        );
        const days = Number(process.env.FLEET_DEMO_HISTORY_DAYS ?? 30);
        if (r.seeded && days > 0) {
          console.log(
            `demo: writing ${days} days of history through the pipeline (about a minute of CPU)...`,
          );
          const h = await seedHistory(storage, { days });
          console.log(
            `demo history: ${h.records} positions of ${h.vehicles} vehicles in ${(h.ms / 1000).toFixed(1)} s`,
          );
        }
      })()
    : Promise.resolve();
  // Every node at once: the migrations serialise on their advisory lock.
  const jobs: Promise<NodeProcess>[] = [];
  for (const role of ORDER) for (let i = 0; i < counts[role]; i++) jobs.push(launch(role, i));
  const nodes = await Promise.all(jobs);
  await seeding;
  const gateways = nodes.filter((n) => n.info.role === 'gateway');
  if (demo && storage && gateways.length > 0) {
    // The demo's simulated devices are spread over the gateways (device k drives against gateway
    // k mod n) over real TCP; a restarted gateway comes back on the same ports and they reconnect.
    // Their records flow through JetStream to the workers and, live, to every API node.
    for (const [i, gw] of gateways.entries()) {
      const g = gw.info;
      const f = await startDemoFleet({
        db: (storage as Storage).db,
        ports: {
          ...(typeof g.teltonika === 'number' ? { teltonika: g.teltonika } : {}),
          ...(typeof g.ruptela === 'number' ? { ruptela: g.ruptela } : {}),
          ...(typeof g.gosafe === 'number' ? { gosafe: g.gosafe } : {}),
          ...(typeof g.istartek === 'number' ? { istartek: g.istartek } : {}),
        },
        seed: 2026 + i,
        share: { index: i, of: gateways.length },
        log: (m) => console.log(`[demo] ${gw.name}: ${m}`),
      });
      if (f) fleets.push(f);
    }
  }
  console.log('cluster ready (Ctrl-C stops every node)');
  const apis = nodes.filter((n) => n.info.role === 'api');
  if (apis.length > 0) {
    console.log(`\nportal and API: ${apis.map((n) => String(n.info.http)).join('  ')}`);
    if (demo)
      console.log(
        `sign in as ${DEMO_EMAIL} with password ${process.env.FLEET_DEMO_PASSWORD ? '(FLEET_DEMO_PASSWORD)' : 'demo12345'}`,
      );
    else console.log('first account: npm run admin:create -- --email you@example.com (same DATABASE_URL)');
  }
  if (healthBase !== null)
    console.log('health and metrics: <node health>/healthz /readyz /metrics (listed above)');
}

const stopAll = () => {
  if (stopping) return;
  stopping = true;
  for (const f of fleets) f.stop();
  void Promise.all([...running.values()].map((p) => p.kill('SIGTERM')))
    .then(() => (storage as Storage | null)?.close())
    .finally(() => process.exit(0));
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  stopAll();
  process.exitCode = 1;
});
