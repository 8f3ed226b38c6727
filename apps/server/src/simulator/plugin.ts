import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { startDemoFleet } from './demo';

/**
 * The simulator part: for the seeded demo with SIMULATOR=on (the default), simulated trackers for the
 * demo devices drive against this process's gateway over real TCP, so a newcomer sees vehicles move.
 * It depends on the gateway part (the listening ports) and is switched off with it.
 */
const simulatorPart: PartPlugin = async (app, { storage, log }) => {
  const fleet = await startDemoFleet({ db: storage.db, ports: app.gateway.ports, log });
  app.addHook('onClose', async () => fleet?.stop());
};

export default fp(simulatorPart, { name: 'simulator', dependencies: ['gateway'], fastify: '5.x' });
