import { z } from 'zod';

/**
 * Environment keys of the pipeline, spread into the server's one env schema (config/config.ts) so a bad
 * value stops start-up naming the variable; `pipelineConfig` reads them for the plugin, the report
 * routes and the cluster nodes, which get the raw environment.
 */
export const pipelineEnvShape = {
  /**
   * Run the pipeline in this process (server.ts's switch of the pipeline part; default on). Off gives an
   * API that still serves reports from what another process stored.
   */
  PIPELINE: z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v))
    .default(true),
  /** IANA zone the pipeline cuts days and hours in (rollups, trips per day, scheduled trips). */
  FLEET_TIME_ZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Dubai')
    .default('Asia/Dubai'),
  /** How often the clock work runs (offline and inactive alerts, scheduled trips, documents); tests shorten it. */
  PIPELINE_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * How long after a batch the trips and rollups it moved are written (all devices in one
   * transaction). The pipeline is incremental, so a short delay costs little; it bounds the lag from a
   * fix to its trip and rollups in the API.
   */
  PIPELINE_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /**
   * Late records older than this many hours are repaired by the background job, not on the ingest
   * path (see pipeline/README.md).
   */
  PIPELINE_REPAIR_HORIZON_H: z.coerce
    .number()
    .min(1)
    .max(24 * 365)
    .default(48),
};

const pipelineEnvSchema = z.object(pipelineEnvShape);
export type PipelineConfig = z.infer<typeof pipelineEnvSchema>;

/** Pipeline settings from an env map; throws naming the bad variable. */
export function pipelineConfig(env: Record<string, string | undefined> = {}): PipelineConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(pipelineEnvShape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const r = pipelineEnvSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`Invalid configuration: ${String(issue.path[0])}: ${issue.message}`);
  }
  return r.data;
}
