import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { startMaintenance } from './maintenance';

/**
 * The maintenance part of the one-process product: autovacuum's work on PGlite (see maintenance.ts;
 * MAINTENANCE_INTERVAL_MIN, 0 = off). The location retention job is its own part (retention), which
 * the scale-out workers run too.
 */
const maintenancePart: PartPlugin = async (app, { config, storage, log }) => {
  const stop = startMaintenance(storage.db, { intervalMs: config.MAINTENANCE_INTERVAL_MIN * 60_000, log });
  app.addHook('onClose', () => stop());
};

export default fp(maintenancePart, { name: 'maintenance', fastify: '5.x' });
