import { nodeEnv, spawnNode, type NodeProcess } from './harness';

/**
 * `npm run start:cluster`: the scale-out mode on one machine. Starts 2 gateways, 2 pipeline workers and
 * 2 API/WebSocket nodes against the PostgreSQL of DATABASE_URL and the NATS of NATS_URL (defaults: the
 * local services of this machine), prints where each listens, restarts a node that dies, and stops
 * them all on Ctrl-C. Options: --gateways N --workers N --apis N (default 2 each), --api-port P (first
 * API port, default 8081), --no-restart.
 *
 * Gateway i listens on Traccar's ports + 1000 * i (Teltonika 5027 / 6027, Ruptela 5046 / 6046, ...).
 */
const args = process.argv.slice(2);
const opt = (name: string, def: number, max = 64) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : def;
  if (!Number.isInteger(v) || v < 0 || v > max) {
    console.error(`--${name} must be an integer between 0 and ${max}`);
    process.exit(2);
  }
  return v;
};
const counts = { gateway: opt('gateways', 2), worker: opt('workers', 2), api: opt('apis', 2) };
const apiPort = opt('api-port', 8081, 65_000) || 8081;
const restart = !args.includes('--no-restart');

const base: Record<string, string> = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
for (const k of [
  'DATABASE_SCHEMA',
  'NATS_PREFIX',
  'NATS_PARTITIONS',
  'LOCATION_RETENTION_DAYS',
  'MQTT_URL',
]) {
  if (process.env[k]) base[k] = process.env[k]!;
}

function envFor(role: 'gateway' | 'worker' | 'api', i: number): Record<string, string> {
  if (role === 'gateway') {
    const off = 1000 * i;
    return nodeEnv(base, role, {
      GATEWAY_TELTONIKA_PORT: String(5027 + off),
      GATEWAY_RUPTELA_PORT: String(5046 + off),
      GATEWAY_GOSAFE_PORT: String(5078 + off),
      GATEWAY_ISTARTEK_PORT: String(5222 + off),
      GATEWAY_OSMAND_PORT: String(5055 + off),
      GATEWAY_UDP: 'on',
      ...(i === 0 && base.MQTT_URL ? { MQTT_URL: base.MQTT_URL } : {}),
    });
  }
  if (role === 'api') return nodeEnv(base, role, { PORT: String(apiPort + i), HOST: '127.0.0.1' });
  return nodeEnv(base, role);
}

const running = new Map<string, NodeProcess>();
let stopping = false;

function describe(p: NodeProcess): string {
  const { name, role, pid, ...rest } = p.info;
  const where = Object.entries(rest)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  return `${name.padEnd(10)} ${role.padEnd(8)} pid ${String(pid).padEnd(7)} ${where}`;
}

async function launch(role: 'gateway' | 'worker' | 'api', i: number): Promise<void> {
  const name = `${role}-${i + 1}`;
  const p = await spawnNode(name, envFor(role, i), {
    echo: (line) => {
      if (!line.startsWith('READY ')) console.log(`[${name}] ${line}`);
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
}

async function main(): Promise<void> {
  console.log(
    `fleet cluster: ${counts.gateway} gateways, ${counts.worker} workers, ${counts.api} API nodes on ${base.DATABASE_URL} and ${base.NATS_URL}`,
  );
  // Workers first (they create the durable consumers), the API nodes' migrations serialise on a lock.
  const jobs: Promise<void>[] = [];
  for (let i = 0; i < counts.worker; i++) jobs.push(launch('worker', i));
  for (let i = 0; i < counts.gateway; i++) jobs.push(launch('gateway', i));
  for (let i = 0; i < counts.api; i++) jobs.push(launch('api', i));
  await Promise.all(jobs);
  console.log('cluster ready (Ctrl-C stops every node)');
}

const stopAll = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all([...running.values()].map((p) => p.kill('SIGTERM'))).finally(() => process.exit(0));
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  stopAll();
  process.exitCode = 1;
});
