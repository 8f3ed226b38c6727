import type { FastifyInstance } from 'fastify';
import { endpoints, type EndpointName } from '@fleet/api-client';
import { loadConfig } from '../config/config';
import { createServer, registerParts } from '../server';
import { MemoryMessenger } from '../auth/messenger';
import { InProcessBus } from '../realtime/bus';
import { registerReportRoutes } from '../reports/routes';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';

export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * Every route Fastify has registered, read from its own router (printRoutes without a common
 * prefix prints one tree node per path segment group, with the methods in brackets). HEAD twins of
 * GET routes are left out. Reading the router rather than the contract table means a route added
 * with `app.get(...)` outside the table is seen too.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out: RegisteredRoute[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    if (!m[3]) continue;
    const path = stack.join('');
    for (const method of m[3].split(',').map((s) => s.trim())) {
      if (method === 'HEAD') continue;
      out.push({ method, path });
    }
  }
  return out;
}

/** The contract endpoint name of a registered route, if it is one. */
export function contractName(r: RegisteredRoute): EndpointName | undefined {
  return (Object.keys(endpoints) as EndpointName[]).find(
    (n) => endpoints[n].method === r.method && endpoints[n].path === r.path,
  );
}

/**
 * Routes the server registers outside the contract table, each with why it is not a contract
 * endpoint and how it is guarded. A new route that is neither in the table nor here fails the
 * coverage tests, so it cannot ship without being attacked by the matrix.
 */
export const NON_CONTRACT_ROUTES: Record<string, string> = {
  'GET /ws/:company_uuid/:user_uuid':
    'real-time socket: token + membership checked on upgrade (attacks.test.ts "real-time socket")',
  'GET /v1/openapi.json': 'public API description generated from the contract (no data)',
  'GET /v1/docs': 'public API documentation page (no data)',
  'POST /unsubscribe/:token':
    "RFC 8058 one-click unsubscribe from a guardian mail's List-Unsubscribe-Post header: no session, the signed token names the one guardian it unsubscribes (forged tokens 404, guardians.test.ts)",
};

/**
 * Contract endpoints no server module registers yet. Each must stay unregistered while it is listed
 * here (the coverage test checks both directions), so implementing one forces its removal from this
 * list and brings it under the matrix.
 */
export const NOT_IMPLEMENTED: Record<string, string> = {};

/**
 * The whole HTTP surface as main.ts builds it for a request: createServer, the API parts of server.ts
 * that add routes (realtime's WebSocket, geocoding) and the report and export routes. The gateway adds
 * none.
 */
export async function createFullServer(name: string): Promise<{
  app: FastifyInstance;
  storage: Storage;
  clock: { now: Date };
  close(): Promise<void>;
}> {
  const storage = await openTestStorage(name);
  const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' };
  const config = loadConfig(env);
  const clock = { now: new Date('2026-11-20T10:00:00Z') };
  const bus = new InProcessBus();
  const app = await createServer({
    config,
    storage,
    bus,
    messenger: new MemoryMessenger(),
    now: () => clock.now,
    logger: false,
  });
  await registerParts(app, ['api'], { config, env, storage, bus, log: () => undefined }, [
    'reports',
    'portal',
  ]);
  registerReportRoutes(app, { rollupTimeZone: 'Asia/Dubai' });
  await app.ready();
  return {
    app,
    storage,
    clock,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}
