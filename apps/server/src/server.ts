import type { FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { PartOptions, PartPlugin } from './parts/part';
import { clusterConfig } from './cluster/config';
import reportsPart from './reports/plugin';
import gatewayPart from './gateway/plugin';
import simulatorPart from './simulator/plugin';
import pipelinePart from './pipeline/plugin';
import pushPart from './push/plugin';
import messagingPart from './messaging/plugin';
import maintenancePart from './maintenance/plugin';
import retentionPart from './cluster/retention-plugin';
import portalPart from './http/portal-plugin';
import realtimePart from './realtime/plugin';
import geocodingPart from './geocoding/plugin';
import { buildApp, type AppDeps } from './app';
import { registerAuthRoutes } from './auth/routes';
import { registerCrud, type Crud } from './entities/crud';
import { entityDefs } from './entities/definitions';
import { registerUserRoutes } from './entities/users';
import { registerPlatformRoutes } from './entities/companies';
import { registerLocationRoutes } from './modules/locations';
import { registerNotificationRoutes } from './modules/notifications';
import { registerRecordRoutes } from './modules/records';
import { registerDeviceFieldRoutes } from './modules/device-field';
import { registerFileRoutes } from './modules/files';
import { registerOpenApi } from './openapi/openapi';
import { registerShareRoutes } from './modules/share';
import { registerCommandRoutes } from './commands/routes';
import { registerSalikGateRoutes } from './modules/salik-gates';
import { instrumentHttp } from './metrics/health';
import { registerMapRoutes } from './map/base-layers';
import { registerMessagingRoutes } from './messaging/routes';
import { registerGuardianMessageRoutes } from './guardians/routes';

/**
 * The composition root of the server.
 *
 * {@link createServer} builds the HTTP API: the app (hooks, errors) plus every route module of the
 * contract's entities. {@link PARTS} is every other part of the product, each a Fastify
 * plugin (fastify-plugin, so its hooks and decorators reach the root) with its declared dependencies,
 * the process roles it belongs to and its on/off switch; {@link registerParts} registers the list in
 * order. There is no discovery: a part exists because it is listed here.
 *
 * A part starts its work when registered and stops it in an `onClose` hook, so `app.close()` is the
 * whole shutdown of a process. Fastify runs the onClose hooks of plugins in reverse order of
 * registration (the gateway stops taking records before the pipeline flushes what it has).
 *
 * Roles: `embedded` is the one-process product (main.ts); the scale-out roles (cluster/node.ts) pick
 * their share of the same list: `api` serves HTTP (realtime, geocoding, reports and the portal), `gateway` runs
 * the device listeners, `worker` the pipeline and the outbox workers. ROLE=all composes all three.
 */
/** Answers smaller than this (bytes) are sent as they are. */
export const COMPRESS_THRESHOLD = 4096;

export async function createServer(
  deps: AppDeps,
): Promise<FastifyInstance & { cruds: Record<string, Crud> }> {
  const app = buildApp(deps);
  instrumentHttp(app);
  // Large API answers (location pages, reports, exports' JSON) are compressed for clients that ask;
  // small ones are not worth the CPU. Brotli at quality 4 costs about what gzip 6 does and is
  // smaller; the default (11) is for files compressed once, which is what the portal's build does
  // (the portal's own files are sent precompressed and skipped here, as is everything already
  // encoded). Request bodies are not decompressed: clients never send them encoded.
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
  registerAuthRoutes(app);
  const cruds: Record<string, Crud> = {};
  for (const def of entityDefs) cruds[def.name] = registerCrud(app, def);
  registerUserRoutes(app);
  registerPlatformRoutes(app);
  registerLocationRoutes(app);
  registerNotificationRoutes(app);
  registerRecordRoutes(app);
  registerDeviceFieldRoutes(app);
  registerFileRoutes(app);
  registerShareRoutes(app);
  registerOpenApi(app);
  registerCommandRoutes(app);
  registerSalikGateRoutes(app);
  registerMapRoutes(app, deps.config);
  registerMessagingRoutes(app);
  registerGuardianMessageRoutes(app);
  return Object.assign(app, { cruds });
}

/** The kinds of process that compose a server from {@link PARTS}. */
export type PartRole = 'embedded' | 'api' | 'gateway' | 'worker';

export interface Part {
  readonly name: string;
  readonly plugin: PartPlugin;
  /** The processes that run it. */
  readonly roles: readonly PartRole[];
  /** The configured switch: registered only when this says so. */
  readonly on: (o: PartOptions) => boolean;
}

/** Every part of the server, in the order they start (they stop in the reverse order). */
export const PARTS: readonly Part[] = [
  // The WebSocket hub and endpoint (live positions, command answers, notifications). First, so it is
  // the last to stop: the parts that publish (gateway, pipeline) stop before it closes the sockets.
  // No switch: an API serves the portal's socket; processes without one take other roles.
  { name: 'realtime', plugin: realtimePart, roles: ['embedded', 'api'], on: () => true },
  // Reverse geocoding for the portal's addresses; GEOCODER_URL unset answers `enabled: false` (see
  // geocoding/plugin.ts for why the route stays registered).
  { name: 'geocoding', plugin: geocodingPart, roles: ['embedded', 'api'], on: () => true },
  // Report and export routes: the API serves them whether or not this process runs the pipeline.
  { name: 'reports', plugin: reportsPart, roles: ['embedded', 'api'], on: () => true },
  // Device listeners (TCP, UDP, OsmAnd HTTP, MQTT); GATEWAY=off for an API-only process.
  { name: 'gateway', plugin: gatewayPart, roles: ['embedded', 'gateway'], on: (o) => o.config.GATEWAY },
  // Simulated demo trackers driving against the gateway (depends on it); SIMULATOR=off, or no demo.
  {
    name: 'simulator',
    plugin: simulatorPart,
    roles: ['embedded'],
    on: (o) => o.config.GATEWAY && o.config.SIMULATOR && o.config.FLEET_SEED_DEMO,
  },
  // Trips, geofences, Salik, alerts, rollups from the stored records; PIPELINE=off.
  { name: 'pipeline', plugin: pipelinePart, roles: ['embedded', 'worker'], on: (o) => o.config.PIPELINE },
  // Mobile push through FCM (idle with a log line until a service account is configured).
  { name: 'push', plugin: pushPart, roles: ['embedded', 'worker'], on: () => true },
  // Outbound e-mail and SMS from the message outbox.
  { name: 'messaging', plugin: messagingPart, roles: ['embedded', 'worker'], on: () => true },
  // Vacuum and analyse on PGlite (no autovacuum there), and on a PostgreSQL whose autovacuum is off
  // (maintenance.ts asks it); MAINTENANCE_INTERVAL_MIN=0 is off.
  {
    name: 'maintenance',
    plugin: maintenancePart,
    roles: ['embedded'],
    on: (o) => o.config.MAINTENANCE_INTERVAL_MIN > 0,
  },
  // Location retention, when LOCATION_RETENTION_DAYS is set.
  {
    name: 'retention',
    plugin: retentionPart,
    roles: ['embedded', 'worker'],
    on: (o) => clusterConfig(o.env).LOCATION_RETENTION_DAYS > 0,
  },
  // The built portal from the same origin (API only when it is not built).
  { name: 'portal', plugin: portalPart, roles: ['embedded', 'api'], on: () => true },
];

/**
 * Register the parts of `roles` that are switched on, in list order, and return their names.
 * `except` leaves parts out (a test's cluster worker brings its own pipeline).
 */
export async function registerParts(
  app: FastifyInstance,
  roles: readonly PartRole[],
  options: PartOptions,
  except: readonly string[] = [],
): Promise<string[]> {
  const started: string[] = [];
  for (const part of PARTS) {
    if (!part.roles.some((r) => roles.includes(r)) || except.includes(part.name)) continue;
    if (!part.on(options)) continue;
    await app.register(part.plugin, options);
    started.push(part.name);
  }
  return started;
}
