import { z } from 'zod';

/**
 * Environment keys of the health and metrics port (spread into the server's one env schema,
 * config/config.ts).
 *
 * Every process (embedded `npm start` and every cluster role) may open one small HTTP server of its
 * own, the "health port", answering `/healthz`, `/readyz` and `/metrics` (Prometheus). It is a
 * separate port, not a route of the public API, so the figures (device counts, queue depths, route
 * names) are never served to the internet: bind it to an internal interface and let Prometheus and
 * the load balancer's health checks reach it there. `/healthz` and `/readyz` are also answered on
 * the API port of the roles that have one (load balancers often probe the serving port itself).
 */
const healthPort = z.union([
  z.literal('off').transform(() => null),
  z.coerce.number().int().min(0).max(65535),
]);

export const metricsEnvShape = {
  /** Health and metrics port of this process; `off` (the default) = none, `0` = a free port (tests). */
  HEALTH_PORT: healthPort.default(null),
  /** Interface of the health port; 0.0.0.0 in containers, where Prometheus scrapes from outside. */
  HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
};
