import type { PluginStart } from '../plugins';
import { startDemoFleet } from '../simulator/demo';
import { startGateway } from './gateway';

/**
 * The gateway's hook into the embedded server (main.ts loads this file): device listeners on the
 * configured ports (GATEWAY=off for an API-only process) and, for the seeded demo with SIMULATOR=on
 * (the default), simulated trackers for the demo devices driving against this very gateway over real
 * TCP, so a newcomer sees vehicles move. Command routes are registered by server.ts (they work without
 * a local gateway: commands travel over the bus).
 */
export const start: PluginStart = async ({ config, storage, bus, log }) => {
  if (!config.GATEWAY) {
    log('gateway: off (GATEWAY=off)');
    return { stop: async () => undefined };
  }
  const gateway = await startGateway({ config, storage, bus, log: { info: log, warn: log, error: log } });
  const fleet =
    config.SIMULATOR && config.FLEET_SEED_DEMO
      ? await startDemoFleet({ db: storage.db, ports: gateway.ports, log })
      : null;
  return {
    stop: async () => {
      fleet?.stop();
      await gateway.close();
    },
  };
};
