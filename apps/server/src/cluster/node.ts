import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../config/config';
import { openStorage, type Storage } from '../storage/storage';
import { InProcessBus, type Bus } from '../realtime/bus';
import { NatsBus } from '../realtime/nats-bus';
import { createServer, registerParts } from '../server';
import { OutboxMessenger } from '../messaging/messenger';
import { loadMessagingConfig } from '../messaging/config';
import type { Gateway } from '../gateway/gateway';
import { clusterConfig, type ClusterConfig, type Role } from './config';
import { GatewayBus, RoutedBus } from './buses';
import { jetStreamIngest } from './ingest';
import { startWorker, type Worker } from './worker';
import { LeaderLease, LockSession, registerClockLease } from './lease';
import { portalDist } from '../http/portal';
import {
  Health,
  databaseCheck,
  natsCheck,
  registerHealthRoutes,
  startHealthServer,
  type HealthServer,
} from '../metrics/health';
import { onScrape, setNode } from '../metrics/metrics';
import { watchClusterFigures } from './figures';

/**
 * Hook for the pipeline in the worker role (and in ROLE=all on NATS): given the worker's bus (local
 * `locations.*` announcements of freshly stored batches, NATS for everything else) and the storage,
 * start the pipeline and return its stop function. The composition root passes the same factory the
 * embedded mode uses.
 */
export type PipelineFactory = (bus: Bus, storage: Storage, config: Config) => Promise<() => Promise<void>>;

export interface ClusterNode {
  role: Role;
  name: string;
  bus: NatsBus;
  storage: Storage;
  app?: FastifyInstance;
  gateway?: Gateway;
  worker?: Worker;
  /** Worker roles: the PostgreSQL lock session (partition ownership, leader lease). */
  session?: LockSession;
  /** Worker roles: the clock-work leader lease. */
  leader?: LeaderLease;
  /** Readiness checks of this node (database, NATS, its role's duty). */
  health: Health;
  /** The health port (HEALTH_PORT): /healthz /readyz /metrics. */
  healthServer?: HealthServer;
  /** Where this node listens (printed by the supervisor). */
  listening: Record<string, string | number>;
  close(): Promise<void>;
}

export interface StartNodeOptions {
  env?: Record<string, string | undefined>;
  pipeline?: PipelineFactory;
  log?: (msg: string) => void;
}

/**
 * A Fastify instance that never listens, holding the parts of a role without HTTP (worker, gateway):
 * they start when registered and stop through its close, like the parts of the API.
 */
async function partsHost(): Promise<FastifyInstance> {
  return Fastify({ logger: false });
}

/**
 * One process of the scale-out mode (DATABASE_URL + NATS_URL): gateway, worker, api, or all three on
 * NATS. The embedded default (no NATS_URL) is main.ts's business, not this function's.
 */
export async function startNode(opts: StartNodeOptions = {}): Promise<ClusterNode> {
  const env = opts.env ?? process.env;
  const config = loadConfig(env);
  const cluster: ClusterConfig = clusterConfig({ ...env, ROLE: env.ROLE ?? 'all' });
  if (!env.NATS_URL) throw new Error('NATS_URL is required for a cluster node');
  const role = cluster.ROLE;
  const name = cluster.NODE_NAME ?? `${role}-${process.pid}`;
  const log = opts.log ?? ((m: string) => console.log(`[${name}] ${m}`));
  const storage = await openStorage({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR,
    schema: config.DATABASE_SCHEMA,
  });
  const bus = await NatsBus.connect({
    servers: env.NATS_URL,
    ...(cluster.NATS_PREFIX ? { prefix: cluster.NATS_PREFIX } : {}),
    partitions: cluster.NATS_PARTITIONS,
    ackWaitMs: cluster.NATS_ACK_WAIT_MS,
    replicas: cluster.NATS_REPLICAS,
    name,
    log,
  });
  const listening: Record<string, string | number> = {};
  const stops: (() => Promise<void>)[] = [];
  const health = new Health().add('database', databaseCheck(storage.db)).add('nats', natsCheck(bus.nc));
  const node: ClusterNode = { role, name, bus, storage, health, listening, close: async () => undefined };
  setNode(name, role);

  if (role === 'worker' || role === 'all') {
    // One PostgreSQL session per worker node holds its leases (lease.ts): the clock-work leader lease
    // and the ownership of its share of the locations partitions. On PGlite (ROLE=all, one process)
    // there is nobody to share with: no session, all partitions, clock work always on.
    if (config.DATABASE_URL) {
      const session = new LockSession({
        url: config.DATABASE_URL,
        namespace: `${config.DATABASE_SCHEMA ?? 'public'}/${cluster.NATS_PREFIX ?? ''}`,
        checkMs: cluster.LEASE_CHECK_MS,
        log,
      });
      session.start();
      const leader = new LeaderLease(session, 'clock', log);
      leader.start();
      const unregister = registerClockLease(storage, leader);
      node.session = session;
      node.leader = leader;
      stops.push(async () => {
        unregister();
        await leader.stop();
        await session.close();
      });
    }
    const local = new InProcessBus((err, subject) =>
      log(`pipeline handler on ${subject} failed: ${String(err)}`),
    );
    const pipelineBus = new RoutedBus(local, bus, ['locations.>']);
    // The worker's parts (server.ts: pipeline, push, messaging, retention) on the worker's bus, held by
    // an instance that never listens. Push and messaging are competing senders on their outboxes (rows
    // claimed FOR UPDATE SKIP LOCKED), so every worker may run them and none sends a row twice. A test's
    // own pipeline factory replaces the pipeline and leaves the outbox workers out.
    const workerParts = await partsHost();
    if (opts.pipeline) stops.push(await opts.pipeline(pipelineBus, storage, config));
    await registerParts(
      workerParts,
      ['worker'],
      { config, env, storage, bus: pipelineBus, log },
      opts.pipeline ? ['pipeline', 'push', 'messaging'] : [],
    );
    await workerParts.ready();
    stops.push(() => workerParts.close());
    const handover = node.session
      ? {
          db: storage.db,
          namespace: `${config.DATABASE_SCHEMA ?? 'public'}/${cluster.NATS_PREFIX ?? ''}`,
          owner: `${name}/${process.pid}/${randomBytes(3).toString('hex')}`,
        }
      : undefined;
    node.worker = startWorker({
      ...(handover ? { handover } : {}),
      storage,
      bus,
      local,
      log,
      ...(node.session ? { session: node.session } : {}),
    });
    stops.push(() => node.worker!.close());
    if (node.session) {
      const session = node.session;
      health.add('lease_session', () => (session.up ? undefined : 'PostgreSQL lease session down'));
    }
    const offFigures = onScrape(watchClusterFigures(node));
    stops.push(async () => void offFigures());
    listening.worker = `queue group "workers" on ${bus.streamNames.locations} (${bus.partitionCount} partitions)`;
  }
  if (role === 'gateway' || role === 'all') {
    // The gateway part of server.ts, storing through JetStream (the workers' consumers insert).
    const gatewayParts = await partsHost();
    await registerParts(gatewayParts, ['gateway'], {
      config,
      env,
      storage,
      ingest: jetStreamIngest(storage, bus),
      bus: new GatewayBus(bus),
      log,
    });
    await gatewayParts.ready();
    stops.push(() => gatewayParts.close());
    const gw = gatewayParts.hasDecorator('gateway') ? gatewayParts.gateway : undefined;
    if (gw) {
      node.gateway = gw;
      for (const [k, v] of Object.entries(gw.ports)) if (v !== undefined) listening[k] = v;
    }
    health.add('device_listeners', () =>
      !config.GATEWAY || (gw && Object.values(gw.ports).some((p) => p !== undefined))
        ? undefined
        : 'no listener bound',
    );
  }
  if (role === 'api' || role === 'all') {
    const app = await createServer({
      config,
      storage,
      bus,
      messenger: new OutboxMessenger({ db: storage.db, config: loadMessagingConfig(env), log }),
      logger: config.LOG_LEVEL !== 'silent',
    });
    registerHealthRoutes(app, health);
    // The API's parts of server.ts: the report routes and the built portal from the same origin,
    // exactly as the embedded server serves them (main.ts), so a load balancer in front of the API
    // nodes is the whole web tier.
    await registerParts(app, ['api'], { config, env, storage, bus, log });
    if (app.hasDecorator('portal') && app.portal !== null) listening.portal = app.portal;
    else log(`portal not built (${portalDist(config)}): API only; run npm run build -w @fleet/portal`);
    await app.listen({ port: config.PORT, host: config.HOST });
    health.add('http', () => (app.server.listening ? undefined : 'API port not listening'));
    const addr = app.server.address();
    listening.http = typeof addr === 'object' && addr ? `http://${config.HOST}:${addr.port}` : String(addr);
    node.app = app;
    stops.push(() => app.close());
  }
  await bus.ready();
  if (config.HEALTH_PORT !== null) {
    const hs = await startHealthServer({ port: config.HEALTH_PORT, host: config.HEALTH_HOST, health });
    node.healthServer = hs;
    listening.health = hs.url;
    stops.push(() => hs.close());
  }
  node.close = async () => {
    for (const s of stops.reverse()) await s().catch((err: unknown) => log(`stop failed: ${String(err)}`));
    await bus.close();
    await storage.close();
  };
  return node;
}
