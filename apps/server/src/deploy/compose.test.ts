import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema, loadConfig } from '../config/config';
import { clusterConfig, clusterEnvShape } from '../cluster/config';
import { SERVER_MALLOC_ENV, SERVER_V8_FLAGS } from '../config/node-flags';
import { registry } from '../metrics/metrics';

/**
 * The deployment files (issue 21): Dockerfile, docker-compose.yml, deploy/ (Caddyfile, Prometheus,
 * Grafana). Docker cannot run on the machines the tests run on, so this checks what would break a
 * `docker compose up` silently: every variable a node service sets is one the server reads and its
 * value is valid for that role, every published port is one the node listens on, the load balancer
 * and Prometheus point at ports the nodes open, every command and file named exists, the image
 * installs every workspace, and the Grafana dashboard only charts metrics the server exports.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const dockerfile = read('Dockerfile');
const rootScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const serverScripts = (JSON.parse(read('apps/server/package.json')) as { scripts: Record<string, string> })
  .scripts;

const nodeServices = Object.entries(compose.services).filter(([, s]) => s.image === 'fleet-server');
/** ENV lines of the Dockerfile's runtime stage (the defaults every node starts from). */
const imageEnv: Record<string, string> = {};
const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
for (const m of runtime.matchAll(/^ENV ([\s\S]*?)(?:\n(?!\s))/gm)) {
  for (const kv of m[1]!.matchAll(/([A-Z_]+)=(\S+)/g)) imageEnv[kv[1]!] = kv[2]!;
}
const envOf = (s: Service): Record<string, string> => ({
  ...imageEnv,
  ...Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)])),
});
/** Variables the server reads, and the malloc settings glibc reads at start (config/node-flags.ts). */
const KNOWN = new Set([
  ...Object.keys(envSchema.shape),
  ...Object.keys(clusterEnvShape),
  ...Object.keys(SERVER_MALLOC_ENV),
]);

describe('docker-compose.yml and the Dockerfile', () => {
  it('has the services a scale-out deployment needs', () => {
    const roles = nodeServices.map(([, s]) => envOf(s).ROLE).sort();
    expect(roles).toEqual(['api', 'api', 'gateway', 'worker']);
    for (const name of ['postgres', 'nats', 'lb']) expect(compose.services[name]).toBeDefined();
    expect(compose.services.nats!.command).toContain('-js');
  });

  it('every variable of a node service is read by the server and valid for its role', () => {
    for (const [name, s] of nodeServices) {
      const env = envOf(s);
      for (const key of Object.keys(env))
        expect({ service: name, key, known: KNOWN.has(key) }).toEqual({ service: name, key, known: true });
      expect(() => loadConfig(env), name).not.toThrow();
      expect(() => clusterConfig(env), name).not.toThrow();
    }
    for (const key of Object.keys(imageEnv))
      expect({ key, known: KNOWN.has(key) }).toEqual({ key, known: true });
  });

  it('the image and npm start run with the memory settings of config/node-flags.ts', () => {
    for (const [k, v] of Object.entries(SERVER_MALLOC_ENV)) {
      expect(imageEnv[k], k).toBe(v);
      expect(serverScripts.start).toContain(`${k}=${v} `);
    }
    const cmd = /^CMD (\[.*\])$/m.exec(runtime.slice(runtime.lastIndexOf('\nCMD ')))?.[1];
    const args = JSON.parse(cmd ?? '[]') as string[];
    for (const flag of SERVER_V8_FLAGS) {
      expect(args, flag).toContain(flag);
      expect(serverScripts.start).toContain(` ${flag} `);
    }
  });

  it('the database and NATS URLs point at the compose services with their credentials', () => {
    const pg = compose.services.postgres!.environment!;
    for (const [, s] of nodeServices) {
      const env = envOf(s);
      const db = new URL(env.DATABASE_URL!);
      expect(db.hostname).toBe('postgres');
      expect(decodeURIComponent(db.username)).toBe(pg.POSTGRES_USER);
      expect(decodeURIComponent(db.password)).toBe(pg.POSTGRES_PASSWORD);
      expect(db.pathname.slice(1)).toBe(pg.POSTGRES_DB);
      expect(new URL(env.NATS_URL!).hostname).toBe('nats');
    }
  });

  it('every published port is one the node listens on', () => {
    for (const [name, s] of nodeServices) {
      const config = loadConfig(envOf(s));
      const role = envOf(s).ROLE;
      const tcp = new Set<number>();
      const udp = new Set<number>();
      if (config.HEALTH_PORT !== null) tcp.add(config.HEALTH_PORT);
      if (role === 'api' || role === 'all') tcp.add(config.PORT);
      if (role === 'gateway' || role === 'all') {
        for (const p of [
          config.GATEWAY_TELTONIKA_PORT,
          config.GATEWAY_RUPTELA_PORT,
          config.GATEWAY_GOSAFE_PORT,
          config.GATEWAY_ISTARTEK_PORT,
          config.GATEWAY_OSMAND_PORT,
        ])
          if (p !== null) tcp.add(p);
        if (config.GATEWAY_UDP) {
          for (const p of [config.GATEWAY_TELTONIKA_PORT, config.GATEWAY_GOSAFE_PORT])
            if (p !== null) udp.add(p);
        }
      }
      for (const mapping of s.ports ?? []) {
        const m = /^(?:\d+:)?(\d+)(?:\/(tcp|udp))?$/.exec(mapping);
        expect(m, `${name} ${mapping}`).not.toBeNull();
        const port = Number(m![1]);
        const open = m![2] === 'udp' ? udp : tcp;
        expect({ service: name, mapping, listens: open.has(port) }).toEqual({
          service: name,
          mapping,
          listens: true,
        });
      }
      // Nodes bind the health port and the API on every interface inside the container.
      if (config.HEALTH_PORT !== null) expect(config.HEALTH_HOST).toBe('0.0.0.0');
      if (role === 'api') expect(config.HOST).toBe('0.0.0.0');
    }
  });

  it('the load balancer and Prometheus reach ports the nodes open', () => {
    const caddy = read('deploy/Caddyfile');
    const upstreams = [...caddy.matchAll(/\b([a-z0-9-]+):(\d+)\b/g)].map(
      (m) => [m[1]!, Number(m[2])] as const,
    );
    expect(upstreams.length).toBeGreaterThan(1);
    for (const [host, port] of upstreams) {
      const s = compose.services[host];
      expect(s, host).toBeDefined();
      expect(loadConfig(envOf(s!)).PORT).toBe(port);
    }
    expect(caddy).toMatch(/health_uri \/readyz/);
    const prom = parse(read('deploy/prometheus.yml')) as {
      scrape_configs: { dns_sd_configs: { names: string[]; port: number }[] }[];
    };
    const sd = prom.scrape_configs[0]!.dns_sd_configs[0]!;
    expect(sd.names.sort()).toEqual(nodeServices.map(([n]) => n).sort());
    for (const [, s] of nodeServices) expect(loadConfig(envOf(s)).HEALTH_PORT).toBe(sd.port);
  });

  it('every command and file it names exists', () => {
    // Commands: the image's CMD and the ones shown in the comments (node <file>, npm run <script>).
    const texts = [dockerfile, read('docker-compose.yml')];
    const files = texts.flatMap((t) => [...t.matchAll(/\b(apps\/[\w/.-]+\.ts)\b/g)].map((m) => m[1]!));
    expect(files).toContain('apps/server/src/cluster/main.ts');
    expect(files).toContain('apps/server/src/cli/admin-create.ts');
    for (const f of files) expect({ f, exists: existsSync(join(ROOT, f)) }).toEqual({ f, exists: true });
    for (const t of texts) {
      for (const m of t.matchAll(/"npm", "run", "([\w:-]+)"(?:, "-w", "@fleet\/server")?/g)) {
        expect(serverScripts[m[1]!] ?? rootScripts[m[1]!], m[0]).toBeDefined();
      }
    }
    // Mounted files.
    for (const [, s] of Object.entries(compose.services)) {
      for (const v of s.volumes ?? []) {
        const src = v.split(':')[0]!;
        if (src.startsWith('./'))
          expect({ v, exists: existsSync(join(ROOT, src)) }).toEqual({ v, exists: true });
      }
    }
    // The README documents the admin command it shows.
    expect(rootScripts['admin:create']).toContain('apps/server/src/cli/admin-create.ts');
  });

  it('the image installs every workspace, runs as a non-root user on a slim base', () => {
    const workspaces = ['apps', 'packages'].flatMap((d) =>
      readdirSync(join(ROOT, d))
        .filter((w) => existsSync(join(ROOT, d, w, 'package.json')))
        .map((w) => `${d}/${w}`),
    );
    for (const w of workspaces) expect(dockerfile).toContain(`COPY ${w}/package.json ${w}/`);
    expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS build$/m);
    expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS runtime$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    const exposed = /^EXPOSE (.+)$/m.exec(runtime)![1]!.split(/\s+/).map(Number);
    const config = loadConfig({ ...imageEnv });
    expect(exposed).toEqual(
      expect.arrayContaining([
        config.PORT,
        config.HEALTH_PORT,
        config.GATEWAY_TELTONIKA_PORT,
        config.GATEWAY_OSMAND_PORT,
      ]),
    );
  });
});

describe('the Grafana dashboard', () => {
  const dash = JSON.parse(read('deploy/grafana/fleet-dashboard.json')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  it('charts only metrics the server exports, and each figure the issue asks for', async () => {
    const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const used = new Set<string>();
    for (const p of dash.panels) {
      for (const t of p.targets ?? []) {
        for (const m of t.expr.matchAll(/\b(fleet_[a-z0-9_]+)\b/g)) {
          const base = m[1]!.replace(/_(bucket|count|sum)$/, '');
          used.add(base);
          expect({ panel: p.title, metric: base, exported: exported.has(base) }).toEqual({
            panel: p.title,
            metric: base,
            exported: true,
          });
        }
      }
    }
    for (const m of [
      'fleet_gateway_records_received_total',
      'fleet_gateway_records_acknowledged_total',
      'fleet_gateway_refused_total',
      'fleet_gateway_ack_latency_seconds',
      'fleet_jetstream_consumer_pending',
      'fleet_pipeline_lag_seconds',
      'fleet_partitions_owned',
      'fleet_lease_holder',
      'fleet_websocket_clients',
      'fleet_websocket_messages_total',
      'fleet_http_request_duration_seconds',
      'fleet_outbox_backlog',
    ])
      expect(used).toContain(m);
  });
});
