import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { clusterConfig } from './config';
import { startRetentionJob } from './retention';

/**
 * The retention part: deletes location rows older than LOCATION_RETENTION_DAYS (server.ts switches it
 * on only when that is set). The embedded server and every scale-out worker run it (retention.ts
 * makes concurrent runs safe).
 */
const retentionPart: PartPlugin = async (app, { env, storage, log }) => {
  const cluster = clusterConfig(env);
  const stop = startRetentionJob(storage.db, {
    retentionDays: cluster.LOCATION_RETENTION_DAYS,
    intervalMs: cluster.RETENTION_INTERVAL_MIN * 60_000,
    log,
  });
  app.addHook('onClose', async () => stop());
};

export default fp(retentionPart, { name: 'retention', fastify: '5.x' });
