import { z } from 'zod';

/**
 * Environment keys of the scale-out mode (read next to the server's own schema, config/config.ts, so a
 * bad value stops start-up naming the variable). The embedded default (ROLE=all, no NATS_URL) needs
 * none of them.
 */
export const roles = ['all', 'gateway', 'worker', 'api'] as const;
export type Role = (typeof roles)[number];

export const clusterEnvShape = {
  /**
   * What this process does: `all` = the embedded one-process product (HTTP + WebSocket + gateway +
   * pipeline); `gateway` = device listeners publishing to JetStream; `worker` = the locations queue
   * group storing records and running the pipeline; `api` = HTTP API + WebSocket fan-out.
   */
  ROLE: z.enum(roles).default('all'),
  /** Subject / stream namespace on NATS (several clusters or test runs on one NATS). */
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'must be a plain lowercase token')
    .optional(),
  /** Partitions of the locations stream (ordering unit); every node of a cluster must agree. */
  NATS_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(32),
  /** An unacked message (its worker died) is redelivered after this many ms. */
  NATS_ACK_WAIT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  /** JetStream replicas of the streams (3 on a NATS cluster). */
  NATS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Stored locations older than this many days are dropped by whole partitions; 0 = keep for ever. */
  LOCATION_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** How often the retention job runs (minutes). */
  RETENTION_INTERVAL_MIN: z.coerce.number().int().min(1).max(10_080).default(60),
  /**
   * How often a worker checks its PostgreSQL lease session, tries to become clock leader and
   * rebalances partitions (ms). Fail-over of the clock work and of a dead worker's partitions takes
   * about this long.
   */
  LEASE_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** Name of this node in logs and NATS monitoring. */
  NODE_NAME: z.string().min(1).max(64).optional(),
};

const clusterEnvSchema = z.object(clusterEnvShape);
export type ClusterConfig = z.infer<typeof clusterEnvSchema>;

export class ClusterConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super('Invalid configuration:\n' + issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n'));
    this.name = 'ClusterConfigError';
  }
}

/** Cluster settings of an env map; a role other than `all` needs DATABASE_URL and NATS_URL. */
export function clusterConfig(env: Record<string, string | undefined> = process.env): ClusterConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(clusterEnvShape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const r = clusterEnvSchema.safeParse(input);
  if (!r.success) {
    throw new ClusterConfigError(
      r.error.issues.map((i) => ({ variable: String(i.path[0] ?? '?'), message: i.message })),
    );
  }
  const issues: { variable: string; message: string }[] = [];
  if (r.data.ROLE !== 'all') {
    if (!env.NATS_URL) issues.push({ variable: 'NATS_URL', message: `required with ROLE=${r.data.ROLE}` });
    if (!env.DATABASE_URL)
      issues.push({ variable: 'DATABASE_URL', message: `required with ROLE=${r.data.ROLE}` });
  }
  if (issues.length > 0) throw new ClusterConfigError(issues);
  return r.data;
}
