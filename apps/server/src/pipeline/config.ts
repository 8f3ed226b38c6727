import { z } from 'zod';

/**
 * Environment keys of the pipeline, spread into the server's one env schema (config/config.ts) so a bad
 * value stops start-up naming the variable; `pipelineConfig` reads them for the plugin, the report
 * routes and the cluster nodes, which get the raw environment.
 */
export const pipelineEnvShape = {
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
