import type { PluginStart } from '../plugins';
import { clusterConfig } from '../cluster/config';
import { startRetentionJob } from '../cluster/retention';
import { startMaintenance } from './maintenance';

/**
 * Storage housekeeping of the one-process product (main.ts): autovacuum's work on PGlite (see
 * maintenance.ts; MAINTENANCE_INTERVAL_MIN, 0 = off) and the location retention job when
 * LOCATION_RETENTION_DAYS is set (in scale-out mode the workers run retention, cluster/node.ts).
 */
export const start: PluginStart = async ({ config, env, storage, log }) => {
  const stopMaintenance = startMaintenance(storage.db, {
    intervalMs: config.MAINTENANCE_INTERVAL_MIN * 60_000,
    log,
  });
  const cluster = clusterConfig(env);
  const stopRetention =
    cluster.LOCATION_RETENTION_DAYS > 0
      ? startRetentionJob(storage.db, {
          retentionDays: cluster.LOCATION_RETENTION_DAYS,
          intervalMs: cluster.RETENTION_INTERVAL_MIN * 60_000,
          log,
        })
      : () => undefined;
  return {
    async stop() {
      stopRetention();
      await stopMaintenance();
    },
  };
};
