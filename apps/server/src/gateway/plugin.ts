import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { startGateway, type Gateway } from './gateway';

declare module 'fastify' {
  interface FastifyInstance {
    /** The device listeners of this process (the gateway part; absent when GATEWAY=off). */
    gateway: Gateway;
  }
}

/**
 * The gateway part: device listeners on the configured ports (TCP, UDP, OsmAnd HTTP, MQTT). server.ts
 * registers it when GATEWAY is on. It decorates the instance with `gateway` (hence fastify-plugin),
 * which the simulator part reads for the ports. Command routes are not here: they work without a
 * local gateway (commands travel over the bus) and belong to the API.
 */
const gatewayPart: PartPlugin = async (app, { config, storage, ingest, bus, log }) => {
  const gateway = await startGateway({
    config,
    storage: ingest ?? storage,
    bus,
    log: { info: log, warn: log, error: log },
  });
  app.decorate('gateway', gateway);
  app.addHook('onClose', async () => {
    // One line for the benches: how often the consumers' backlog held frames back (publish-backlog.ts).
    const b = gateway.backlog;
    if (b.waits > 0)
      log(`gateway: publish backlog peaked at ${b.peak} records; frames held back ${b.waits} times`);
    await gateway.close();
  });
};

export default fp(gatewayPart, { name: 'gateway', fastify: '5.x' });
