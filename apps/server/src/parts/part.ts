import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config/config';
import type { GatewayDeps } from '../gateway/gateway';
import type { Bus } from '../realtime/bus';
import type { Storage } from '../storage/storage';

/**
 * What every part of the server (realtime, geocoding, gateway, pipeline, reports, push, messaging,
 * maintenance, portal, simulator) is given when server.ts registers it as a Fastify plugin. A part starts its work in its
 * plugin body and stops it in an `onClose` hook, so `app.close()` is the one shutdown path of every
 * process (embedded, and each cluster role).
 *
 * The process environment is passed as-is so each part parses its own keys (pipelineConfig,
 * loadPushConfig, ...), as the parts did before they became plugins.
 */
export interface PartOptions {
  config: Config;
  env: Record<string, string | undefined>;
  storage: Storage;
  bus: Bus;
  log: (line: string) => void;
  /**
   * Where the gateway stores decoded records. Defaults to `storage`; the cluster's gateway role
   * passes its JetStream ingest (cluster/ingest.ts), whose consumers store them.
   */
  ingest?: GatewayDeps['storage'];
}

/** A part of the server as server.ts lists it. */
export type PartPlugin = FastifyPluginAsync<PartOptions>;
