import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../storage/db';
import { httpRequest, readiness, scrape } from './metrics';

/**
 * Liveness and readiness of one process, and its health port.
 *
 * - `/healthz`: the process is alive and its event loop turns (200, no dependency is asked). A
 *   supervisor restarts a node failing it.
 * - `/readyz`: every readiness check passes: the database answers, NATS answers (cluster roles),
 *   and the role's own duty is up (the API listens, the gateway's device listeners are bound, the
 *   worker holds its PostgreSQL lease session and owns partitions...). 200 when all pass, 503
 *   otherwise; the body names each check. A load balancer sends traffic only to ready nodes.
 * - `/metrics`: Prometheus exposition (metrics.ts), on the health port only.
 *
 * A check taking longer than {@link CHECK_TIMEOUT_MS} fails (a hung database is not ready).
 */
export const CHECK_TIMEOUT_MS = 2000;

/** A readiness check: resolves when fine, rejects (or resolves with a reason string) when not. */
export type Check = () => Promise<void | string> | void | string;

export interface ReadyReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; error?: string }>;
}

export class Health {
  private readonly checks = new Map<string, Check>();

  /** Add (or replace) a named readiness check. */
  add(name: string, check: Check): this {
    this.checks.set(name, check);
    return this;
  }

  async ready(): Promise<ReadyReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          const r = await Promise.race([
            Promise.resolve().then(check),
            new Promise<string>((resolve) => {
              timer = setTimeout(() => resolve(`no answer in ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
            }),
          ]);
          return [name, typeof r === 'string' ? { ok: false, error: r } : { ok: true }] as const;
        } catch (err) {
          return [name, { ok: false, error: err instanceof Error ? err.message : String(err) }] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    for (const [name, c] of entries) readiness.labels(name).set(c.ok ? 1 : 0);
    return { ready: entries.every(([, c]) => c.ok), checks };
  }
}

/** The database answers a query. */
export function databaseCheck(db: Queryable): Check {
  return async () => {
    await db.query('SELECT 1');
  };
}

/** NATS answers a round trip (a flush waits for the server's PONG). */
export function natsCheck(nc: { isClosed(): boolean; flush(): Promise<void> }): Check {
  return async () => {
    if (nc.isClosed()) return 'connection closed';
    await nc.flush();
  };
}

export interface HealthServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The health port: `/healthz`, `/readyz`, `/metrics` on a small HTTP server of its own. */
export async function startHealthServer(opts: {
  port: number;
  host: string;
  health: Health;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/healthz') return send(200, 'application/json', '{"alive":true}');
    if (path === '/readyz') {
      void opts.health.ready().then(
        (r) => send(r.ready ? 200 : 503, 'application/json', JSON.stringify(r)),
        (err: unknown) => send(500, 'text/plain', String(err)),
      );
      return;
    }
    if (path === '/metrics') {
      void scrape().then(
        (m) => send(200, m.contentType, m.body),
        (err: unknown) => send(500, 'text/plain', String(err)),
      );
      return;
    }
    send(404, 'text/plain', 'not found: /healthz /readyz /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `/healthz` and `/readyz` on the API port too (load balancers probe the port they send traffic
 * to), and the HTTP latency histogram per route template. Registered before the portal's
 * catch-all route.
 */
export function registerHealthRoutes(app: FastifyInstance, health: Health): void {
  app.get('/healthz', { logLevel: 'warn' }, async (_req, reply) =>
    reply.header('Cache-Control', 'no-store').send({ alive: true }),
  );
  app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
    const r = await health.ready();
    return reply
      .code(r.ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send(r);
  });
}

/** HTTP latency per route template, method and status (fleet_http_request_duration_seconds). */
export function instrumentHttp(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}
