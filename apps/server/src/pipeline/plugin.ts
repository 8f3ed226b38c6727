import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { loadSalik } from './salik/load';
import { PipelineService } from './service/service';
import { SqlPipelineStore } from './service/sql-store';
import { clockLeaseEpoch, clockWorkAllowed, clusteredStorage } from '../cluster/lease';
import { registerPipelineHooks } from '../cluster/pipeline-hooks';
import { pipelineConfig } from './config';
import { SensorRepairJob, setSensorRepairJob } from '../gateway/sensor-repair';

/**
 * The pipeline part (embedded mode and the worker role): stored location batches from the bus go
 * through the engines (sanity, trips, geofences, Salik, alerts, scheduled trips, rollups);
 * notifications reach the realtime hub. The report routes are not here: they are the reports part
 * (server.ts), which the API serves whether or not this process runs the pipeline.
 *
 * Rules, geofences and vehicles are cached per company and reloaded once a minute before the clock
 * work, so an admin's edit takes effect within a minute without the CRUD modules having to know
 * about the pipeline; per-vehicle engine state survives the reload.
 */
const pipelinePart: PartPlugin = async (app, { storage, bus, log, env }) => {
  const config = pipelineConfig(env);
  // Embedded: this process is the only writer of trips and rollups, so it may remember what it wrote.
  const store = new SqlPipelineStore(storage.db, { rememberWrites: !clusteredStorage(storage) });
  const pipeline = new PipelineService({
    store,
    bus,
    salik: loadSalik(),
    timeZone: config.FLEET_TIME_ZONE,
    flushDelayMs: config.PIPELINE_FLUSH_MS,
    repairHorizonMs: config.PIPELINE_REPAIR_HORIZON_H * 3_600_000,
    onError: (err) => console.error('[pipeline] batch failed:', err),
    // Scale-out worker: the partition owner changes, so per-device engine state lives in the store.
    persistState: clusteredStorage(storage),
  });
  const unsubscribe = pipeline.start();
  const unhook = clusteredStorage(storage)
    ? registerPipelineHooks(storage, {
        prepare: (devices) => pipeline.prepareDevices(devices),
        commit: () => pipeline.saveStates(),
        reset: () => pipeline.resetDeviceStates(),
      })
    : () => undefined;
  // An alert rule saved on this node applies to the next record at once, not at the minute's reload
  // (an admin switching a rule on expects it to work now). Other nodes keep the minute's reload.
  // The hook must sit on the API's root instance, hence fastify-plugin below.
  app.addHook('onResponse', async (req, reply) => {
    if (req.method === 'GET' || reply.statusCode >= 300) return;
    if (!req.url.startsWith('/v1/notification-rules')) return;
    const company = req.headers['x-transport-uuid'];
    if (typeof company === 'string' && /^[0-9a-f-]{36}$/i.test(company)) pipeline.reloadCompany(company);
  });

  let ticking: Promise<void> = Promise.resolve();
  const tickAll = async () => {
    const companies = await storage.db.query<{ uuid: string }>('SELECT uuid FROM transport_companies');
    for (const { uuid } of companies) {
      pipeline.reloadCompany(uuid);
      // Scale-out mode: only the node holding the clock lease runs the clock work (cluster/lease.ts).
      if (!clockWorkAllowed(storage)) continue;
      try {
        await pipeline.tick(uuid, clockLeaseEpoch(storage));
      } catch (err) {
        console.error(`[pipeline] clock work of company ${uuid} failed:`, err);
      }
    }
  };
  const timer = setInterval(() => {
    ticking = ticking.then(tickAll, tickAll);
  }, config.PIPELINE_TICK_MS);
  timer.unref();

  // Back-dated sensor settings: re-apply them to the stored rows of the window, then recompute it
  // (gateway/sensor-repair.ts). Every pipeline process polls; SKIP LOCKED gives each request to one.
  const sensorRepairs = new SensorRepairJob(storage.db, (uuid, from, to) => pipeline.repair(uuid, from, to), {
    cluster: { bus, holds: (uuid) => pipeline.holdsDevice(uuid) },
  });
  setSensorRepairJob(sensorRepairs);
  let repairing: Promise<unknown> = Promise.resolve();
  const runRepairs = () =>
    sensorRepairs.runAll().catch((err) => console.error('[pipeline] sensor repair failed:', err));
  const repairTimer = setInterval(() => {
    repairing = repairing.then(runRepairs, runRepairs);
  }, 15_000);
  repairTimer.unref();
  log('pipeline: trips, geofences, salik, alerts and rollups running');

  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearInterval(repairTimer);
    setSensorRepairJob(undefined);
    sensorRepairs.close();
    await repairing.catch(() => undefined);
    unsubscribe();
    unhook();
    await ticking.catch(() => undefined);
    await pipeline.flush();
  });
};

export default fp(pipelinePart, { name: 'pipeline', fastify: '5.x' });
