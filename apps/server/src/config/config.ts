import { z } from 'zod';
import { gatewayEnvShape } from '../gateway/config';
import { pipelineEnvShape } from '../pipeline/config';
import { metricsEnvShape } from '../metrics/config';

/**
 * The one environment schema of the server. Every knob the API/storage/real-time parts read lives
 * here; the gateway adds its own listener settings (ports per protocol) in its module.
 * A bad value stops start-up with a message naming the variable (see {@link ConfigError}).
 */
const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const list = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** When set, storage is a real PostgreSQL (node-postgres) instead of embedded PGlite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /**
   * Embedded PGlite shared_buffers; PostgreSQL servers keep their own setting. Small, because
   * every buffer page touched stays resident in the WebAssembly memory for the life of the process
   * (16 MB vs 32 MB: ~18 MB less at rest), while PGlite's files are still cached by the OS.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must look like 32MB')
    .default('16MB'),
  /**
   * Embedded PGlite on its own thread (storage/pglite-thread.ts), so a long statement never holds the
   * gateway's ACKs and the API; `off` runs it on the server's thread as before.
   */
  PGLITE_THREAD: bool.default(true),
  /** Postgres schema to use (tests isolate per file); default `public`. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a plain lowercase identifier')
    .default('public'),
  /** Reserved for the scale-out bus (NATS JetStream adapter of the `Bus` interface). */
  NATS_URL: z
    .string()
    .regex(/^nats:\/\//, 'must be a nats:// URL')
    .optional(),
  FLEET_DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo12345'),
  /** Seed the demo company on first start (an empty database). */
  FLEET_SEED_DEMO: bool.default(true),
  /** Days of demo history written through the pipeline right after the demo seed (0 = none). */
  FLEET_DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(90).default(30),
  /** Comma-separated origins allowed by CORS; empty means same-origin only. */
  CORS_ORIGINS: list.default([]),
  /** Maximum JSON body in bytes. */
  BODY_LIMIT: z.coerce.number().int().min(1024).max(50_000_000).default(1_048_576),
  /** Maximum uploaded file in bytes (images and documents). */
  UPLOAD_LIMIT: z.coerce.number().int().min(1024).max(100_000_000).default(5_242_880),
  /** Session lifetime in hours. */
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Built portal to serve from the same origin (SPA fallback); default apps/portal/dist. */
  PORTAL_DIST: z.string().optional(),
  /** Public URL used in e-mails (set-password / reset links). */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Strict-Transport-Security max-age in seconds, sent on every answer when > 0 (issue 18). Set it only
   * when the product is reached over HTTPS (a TLS-terminating proxy): e.g. 31536000 (a year). 0 = off.
   */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).default(0),
  /**
   * Proxies whose X-Forwarded-For to trust for the client address (sign-in throttles are per address):
   * 'false' (default: the socket's address), 'true' (any: only behind a proxy that overwrites the
   * header), a hop count ('1'), or addresses / CIDRs ('127.0.0.1,10.0.0.0/8').
   */
  TRUST_PROXY: z.string().max(500).default('false'),
  /**
   * Embedded database housekeeping (maintenance/maintenance.ts): how often vacuum and analyse run on
   * PGlite, which has no autovacuum; 0 = never. Ignored on PostgreSQL.
   */
  MAINTENANCE_INTERVAL_MIN: z.coerce.number().int().min(0).max(1440).default(10),
  /**
   * Map base layers (map/base-layers.ts): a JSON array of { id, name: { en, ar }, url, attribution,
   * maxZoom, subdomains?, kind? }, or a JSON file holding it. Unset: the offline basemap only.
   */
  MAP_BASE_LAYERS: z.string().optional(),
  MAP_BASE_LAYERS_FILE: z.string().optional(),
  /**
   * Reverse geocoding (geocoding/): base URL of a Nominatim-compatible geocoder (its /reverse API).
   * Unset: addresses are off. The rate is requests per second to it (Nominatim's policy: 1); a
   * position waits at most GEOCODER_WAIT_MS for a slot, else it has no address this time.
   */
  GEOCODER_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  GEOCODER_RATE_PER_SEC: z.coerce.number().positive().max(1000).default(1),
  GEOCODER_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  GEOCODER_USER_AGENT: z.string().min(1).default('fleet-portal (self-hosted)'),
  /**
   * How long a report page (trip list, stops, idling) waits for addresses the cache does not have;
   * the rest are null in that answer and cached for the next one (geocoding/service.ts).
   */
  GEOCODER_REPORT_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(1500),
  /** Device gateway, commands and demo simulator (see gateway/config.ts). */
  ...gatewayEnvShape,
  /** Pipeline time zone and clock (see pipeline/config.ts). */
  ...pipelineEnvShape,
  /** Health and metrics port (see metrics/config.ts). */
  ...metricsEnvShape,
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super('Invalid configuration:\n' + issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** Parse the environment (default `process.env`); throws {@link ConfigError} naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const r = envSchema.safeParse(input);
  if (!r.success) {
    throw new ConfigError(
      r.error.issues.map((i) => ({ variable: String(i.path[0] ?? '?'), message: i.message })),
    );
  }
  return r.data;
}
