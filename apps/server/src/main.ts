import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config/config';
import { useEmbeddedHeapGrowth } from './config/node-flags';
import { openStorage } from './storage/storage';
import { InProcessBus } from './realtime/bus';
import { OutboxMessenger } from './messaging/messenger';
import { describeMailRoute, loadMessagingConfig, MessagingConfigError } from './messaging/config';
import { createServer, registerParts } from './server';
import { seedDemo, DEMO_EMAIL } from './seed/demo';
import { seedHistory } from './seed/history';
import { Health, databaseCheck, registerHealthRoutes, startHealthServer } from './metrics/health';
import { onScrape, setNode } from './metrics/metrics';
import { watchClusterFigures } from './cluster/figures';

/** Set in the child that prepares a new embedded database (see prepareInChild). */
const PREPARE_ONLY = process.env.FLEET_PREPARE_ONLY === '1';

/**
 * Prepare a new embedded database folder (migrations and the demo seed) in a child process running
 * this same entry, then open the prepared folder here. Creating, migrating and seeding compile and
 * run far more of PGlite's WebAssembly than serving does, and what that leaves behind (the grown
 * WebAssembly memory, compiled code, a fragmented malloc heap) never leaves the process: measured
 * at rest, a first start in-process was 215-260 MB RSS, a server opening a prepared folder 200-215 MB.
 */
function prepareInChild(): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, FLEET_PREPARE_ONLY: '1' },
      stdio: 'inherit',
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`preparing the embedded database failed (exit ${code})`)),
    );
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const log = (line: string) => console.log(line);
  const storageOptions = {
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : join(config.DATA_DIR, 'pglite'),
    schema: config.DATABASE_SCHEMA,
    pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
    pgliteThread: config.PGLITE_THREAD,
  };
  if (!config.DATABASE_URL) useEmbeddedHeapGrowth();
  if (!PREPARE_ONLY && storageOptions.dataDir && !existsSync(join(storageOptions.dataDir, 'PG_VERSION'))) {
    if (config.FLEET_SEED_DEMO && config.FLEET_DEMO_HISTORY_DAYS > 0)
      log(
        `First start: preparing the database, the demo and ${config.FLEET_DEMO_HISTORY_DAYS} days of its history through the pipeline (about a minute of CPU on 2 cores; later starts are instant)...`,
      );
    await prepareInChild();
  }
  let storage = await openStorage(storageOptions);
  const seeded = config.FLEET_SEED_DEMO
    ? await seedDemo(storage.db, config.FLEET_DEMO_PASSWORD)
    : { seeded: false };
  if (seeded.seeded) log('Seeded the demo companies "Demo Transport" and "Gulf Freight Services".');
  if (seeded.seeded && config.FLEET_DEMO_HISTORY_DAYS > 0) {
    // A month of past positions through the pipeline (seed/history.ts), so charts and reports have data.
    const h = await seedHistory(storage, { days: config.FLEET_DEMO_HISTORY_DAYS });
    log(
      `Demo history: ${h.days} days, ${h.records} positions of ${h.vehicles} vehicles through the pipeline in ${(h.ms / 1000).toFixed(1)} s.`,
    );
  }
  if (PREPARE_ONLY) {
    await storage.close();
    process.exit(0);
  }
  if (storage.db.driver === 'pglite' && (storage.migrated.length > 0 || seeded.seeded)) {
    // New migrations on an existing folder (or a seed after the demo was removed) grow the embedded
    // database's WebAssembly memory, which never shrinks while its instance lives. Reopening
    // the folder starts a new instance at the size the running server needs; the old memory is
    // released once collected, which is asked for here when node runs with --expose-gc (npm start).
    await storage.close();
    storage = await openStorage(storageOptions);
    (globalThis as { gc?: () => void }).gc?.();
  }
  const bus = new InProcessBus((err, subject) => console.error(`[bus] handler of ${subject} failed:`, err));
  let messaging;
  try {
    messaging = loadMessagingConfig(process.env);
  } catch (e) {
    if (e instanceof MessagingConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const messenger = new OutboxMessenger({ db: storage.db, config: messaging, log });
  const app = await createServer({ config, storage, bus, messenger });

  // /healthz and /readyz on the API port, /metrics (and both again) on HEALTH_PORT when set.
  setNode('embedded', 'all');
  const health = new Health().add('database', databaseCheck(storage.db));
  registerHealthRoutes(app, health);
  onScrape(watchClusterFigures({ storage }));
  // Every other part (gateway, pipeline, reports, push, ...), as server.ts lists them.
  const parts = await registerParts(app, ['embedded'], { config, env: process.env, storage, bus, log });
  log(`parts: ${parts.join(', ')}`);
  const portal = app.hasDecorator('portal') && app.portal !== null;

  await app.listen({ port: config.PORT, host: config.HOST });
  // The port really bound (PORT=0 asks the system for a free one).
  const bound = app.server.address();
  const port = bound && typeof bound === 'object' ? bound.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  health.add('http', () => (app.server.listening ? undefined : 'API port not listening'));
  const healthServer =
    config.HEALTH_PORT === null
      ? null
      : await startHealthServer({ port: config.HEALTH_PORT, host: config.HEALTH_HOST, health });
  log('');
  log(
    `fleet is running at ${url}${portal ? '' : '  (portal not built: API only; run npm start at the root to build it)'}`,
  );
  log(
    `API: ${url}/v1   docs: ${url}/v1/docs   storage: ${storage.db.driver === 'pg' ? 'PostgreSQL' : `PGlite in ${resolve(config.DATA_DIR)}`}`,
  );
  if (healthServer) log(`health: ${healthServer.url}/healthz /readyz /metrics`);
  log(describeMailRoute(messaging));
  if (config.FLEET_SEED_DEMO)
    log(
      `Sign in as ${DEMO_EMAIL} with password ${config.FLEET_DEMO_PASSWORD === 'demo12345' ? 'demo12345' : '(FLEET_DEMO_PASSWORD)'}`,
    );

  // SIGINT / SIGTERM (or an uncaught error): the parts stop through app.close() (their onClose hooks,
  // in reverse order of start), then the bus and the storage. A second signal, or 10 s, forces exit.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) console.error(err);
    log(`${signal ?? 'error'}: shutting down`);
    await healthServer?.close();
    await app.close();
    await bus.close();
    await storage.close();
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
