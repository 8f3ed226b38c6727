import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config';
import type { Storage } from './storage/storage';
import type { Bus } from './realtime/bus';

/**
 * How the gateway and the pipeline plug into the server process. main.ts imports
 * `src/gateway/plugin.ts` and `src/pipeline/plugin.ts` when they exist and calls their `start`
 * before the HTTP server listens (so they may add routes with `route(app, ...)`), and `stop` on
 * shutdown. The process environment is passed as-is so each part parses its own keys.
 */
export interface PluginContext {
  config: Config;
  env: Record<string, string | undefined>;
  storage: Storage;
  bus: Bus;
  app: FastifyInstance;
  log: (line: string) => void;
}

export interface RunningPlugin {
  stop(): Promise<void>;
}

export type PluginStart = (ctx: PluginContext) => Promise<RunningPlugin>;
