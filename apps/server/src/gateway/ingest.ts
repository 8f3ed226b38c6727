import type { DecodedRecord } from '@fleet/device-protocols';
import type { DeviceRef, LocationInput } from '../storage/storage';
import { gatewayFrame } from '../metrics/metrics';
import type { GatewayConfig } from './config';
import { errText, type DeviceRecords, type GatewayContext, type GatewayStats } from './context';
import type { IngestQueue } from './ingest-queue';
import { toLocationInput } from './records';
import { flagBeforeInstallation } from './hygiene';
import { applySensors, type SensorSettingsCache } from './sensors';

/**
 * Storing what the transports decoded: sensor settings applied, records turned into rows
 * (records.ts), stored through the cross-device {@link IngestQueue}, and the new ones (a resend stores
 * only what was not there yet) handed to publishing (publish.ts). A transport acknowledges a frame only
 * after {@link ingest} resolved.
 */

export interface IngestDeps {
  readonly config: GatewayConfig;
  readonly sensors: SensorSettingsCache;
  readonly queue: IngestQueue;
  readonly stats: GatewayStats;
  readonly now: () => Date;
  /**
   * Undefined when the publish backlog has room, else a promise to await before storing a frame
   * (back-pressure: see publish-backlog.ts).
   */
  ready?(): Promise<void> | undefined;
  /** After the commit: the new records of one device. */
  publish(device: DeviceRef, fresh: readonly LocationInput[], generic: boolean): void;
}

/** Store records of known devices; resolves with the new ones per device (rejects on failure). */
export async function ingest(
  deps: IngestDeps,
  groups: readonly DeviceRecords[],
  generic: boolean,
): Promise<void> {
  const { config, sensors, queue, stats, now } = deps;
  const at = now().getTime();
  const inputs: LocationInput[] = [];
  const perGroup: LocationInput[][] = [];
  for (const g of groups) {
    const settings = await sensors.get(g.device.deviceId);
    const mine: LocationInput[] = new Array(g.records.length);
    for (let i = 0; i < g.records.length; i++) {
      const record = applySensors(g.records[i]!, g.device.type, settings);
      inputs.push((mine[i] = toLocationInput(record, g.device, at, config.GATEWAY_MAX_FUTURE_S * 1000)));
      flagBeforeInstallation(mine[i]!, g.device);
    }
    perGroup.push(mine);
  }
  if (inputs.length === 0) return;
  const wait = deps.ready?.();
  if (wait) await wait;
  const frame = gatewayFrame(groups.find((g) => g.records.length > 0)!.records[0]!.protocol, inputs.length);
  let fresh: LocationInput[];
  try {
    fresh = await queue.submit(inputs);
  } catch (err) {
    stats.storageFailures++;
    frame.refused();
    throw err;
  }
  frame.acked();
  if (fresh.length === 0) return;
  // Normally every record is new; after a resend only some are: keep those, per device.
  const kept = fresh.length === inputs.length ? undefined : new Set(fresh);
  groups.forEach((g, i) => {
    const mine = kept ? perGroup[i]!.filter((x) => kept.has(x)) : perGroup[i]!;
    deps.publish(g.device, mine, generic);
  });
}

/** Stores generic tracker records; returns an HTTP-like status (200 stored, 403 unknown, 503 failure). */
export async function ingestGeneric(
  ctx: GatewayContext,
  records: readonly DecodedRecord[],
  source: string,
  remote: string | null,
): Promise<number> {
  const byImei = new Map<string, DecodedRecord[]>();
  for (const r of records) {
    const list = byImei.get(r.imei);
    if (list) list.push(r);
    else byImei.set(r.imei, [r]);
  }
  const groups: DeviceRecords[] = [];
  for (const [imei, list] of byImei) {
    const dev = await ctx.storage.resolveDevice(imei);
    if (!dev) {
      await ctx.refuse(imei, source, remote);
      return 403;
    }
    ctx.heardConnectionless(dev);
    groups.push({ device: dev, records: list });
  }
  try {
    await ctx.ingest(groups, true);
    for (const g of groups) ctx.counters.count(g.device.deviceId, source, 'decoded');
    return 200;
  } catch (err) {
    ctx.log.warn(`gateway: ${source} storage failure, not acknowledged: ${errText(err)}`);
    return 503;
  }
}
