import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../src/config/config';
import { createServer, registerParts } from '../src/server';
import { MemoryMessenger } from '../src/auth/messenger';
import { InProcessBus } from '../src/realtime/bus';
import type { Storage } from '../src/storage/storage';
import { hashPassword } from '../src/auth/crypto';
import { openTestStorage } from './db';

/** Tables emptied between tests (everything but the migrations bookkeeping). */
const TABLES = [
  'message_outbox',
  'share_links',
  'activity_log',
  'files',
  'device_commands',
  'fcm_tokens',
  'notification_rules',
  'notifications',
  'salik_events',
  'geofence_events',
  'device_trips',
  'latest_locations',
  'locations',
  'trips_app',
  'scheduled_trip_passengers',
  'scheduled_trip_stops',
  'scheduled_trips',
  'trips',
  'geofence_vehicles',
  'geofences',
  'passenger_guardians',
  'passengers',
  'guardians',
  'supervisors',
  'vehicles',
  'drivers',
  'unknown_devices',
  'devices',
  'login_attempts',
  'otp_codes',
  'auth_tokens',
  'sessions',
  'memberships',
  'users',
  'schools',
  'branches',
  'sub_companies',
  'transport_companies',
];

export interface Harness {
  app: FastifyInstance;
  storage: Storage;
  messenger: MemoryMessenger;
  bus: InProcessBus;
  config: Config;
  clock: { now: Date };
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** One storage + app per test file (PGlite opens once); `reset` truncates data cheaply. */
export async function createHarness(name: string, env: Record<string, string> = {}): Promise<Harness> {
  const storage = await openTestStorage(name);
  const vars = { NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false', ...env };
  const config = loadConfig(vars);
  const messenger = new MemoryMessenger();
  const bus = new InProcessBus();
  const clock = { now: new Date('2026-11-20T10:00:00Z') };
  const app = await createServer({ config, storage, bus, messenger, now: () => clock.now, logger: false });
  // The API's realtime and geocoding parts (server.ts PARTS); reports and the portal are left to the
  // tests that need them.
  await registerParts(app, ['api'], { config, env: vars, storage, bus, log: () => undefined }, [
    'reports',
    'portal',
  ]);
  await app.ready();
  return {
    app,
    storage,
    messenger,
    bus,
    config,
    clock,
    async reset() {
      await storage.db.exec(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`);
      messenger.sent.length = 0;
      storage.invalidateDevices();
      app.ctx.hub?.invalidateVehicle();
    },
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

let cachedHash: Promise<string> | undefined;
/** The hash of 'password123' (computed once per file; scrypt is deliberately slow). */
export const PASSWORD = 'password123';
export function passwordHash(): Promise<string> {
  return (cachedHash ??= hashPassword(PASSWORD));
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  token?: string | undefined;
  company?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(app: FastifyInstance, c: Call): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  if (c.company) headers['x-transport-uuid'] = c.company;
  return app.inject({
    method: c.method,
    url: c.url,
    headers,
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
}
