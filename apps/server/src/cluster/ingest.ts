import type { DeviceRef, LocationInput, Storage } from '../storage/storage';
import { subjects } from '../realtime/bus';
import type { PublishOptions } from '../realtime/nats-bus';

/** What a gateway publishes per device and batch on `locations.<company>.<device>` (JSON). */
export interface WireLocationBatch {
  companyUuid: string;
  deviceUuid: string;
  vehicleUuid: string | null;
  generic: boolean;
  records: LocationInput[];
}

export interface DurablePublisher {
  publish<T>(subject: string, message: T, options?: PublishOptions): Promise<void>;
}

/** Protocols that arrive through the generic path (published as generic-device-location). */
const GENERIC_SOURCES = new Set(['osmand', 'mqtt', 'generic', 'json']);

/**
 * The gateway role's "storage": device lookups and connection state go to PostgreSQL as usual, but
 * `insertLocations` is the JetStream publish. It groups the cross-device batch per device, publishes
 * one message per device and resolves only when EVERY PubAck arrived, so the gateway ACKs devices
 * only for records JetStream has persisted (a failed or timed-out publish rejects: nothing is ACKed,
 * the device resends). The message id (device, first and last fix, count) lets JetStream drop a
 * resend inside its duplicate window; the worker's unique (device, fix time) drops the rest.
 * All records are reported as new: de-duplication happens where they are stored, in the worker.
 */
export function jetStreamIngest(
  storage: Pick<Storage, 'db' | 'resolveDevice' | 'recordUnknownDevice' | 'setDeviceConnection'>,
  bus: DurablePublisher,
): Pick<
  Storage,
  'db' | 'insertLocations' | 'resolveDevice' | 'recordUnknownDevice' | 'setDeviceConnection'
> & {
  published: { messages: number; records: number };
} {
  const refs = new Map<number, DeviceRef>();
  const published = { messages: 0, records: 0 };

  async function refOf(deviceId: number): Promise<DeviceRef> {
    const hit = refs.get(deviceId);
    if (hit) return hit;
    const [row] = await storage.db.query<{ imei: string }>('SELECT imei FROM devices WHERE id = $1', [
      deviceId,
    ]);
    const ref = row ? await storage.resolveDevice(row.imei) : null;
    if (!ref) throw new Error(`device ${deviceId} vanished before its records were published`);
    refs.set(deviceId, ref);
    return ref;
  }

  return {
    db: storage.db,
    published,
    async resolveDevice(imei) {
      const ref = await storage.resolveDevice(imei);
      if (ref) refs.set(ref.deviceId, ref);
      return ref;
    },
    recordUnknownDevice: (imei, protocol, remote) => storage.recordUnknownDevice(imei, protocol, remote),
    setDeviceConnection: (id, status, at) => storage.setDeviceConnection(id, status, at),
    async insertLocations(batch) {
      if (batch.length === 0) return [];
      const byDevice = new Map<number, LocationInput[]>();
      for (const r of batch) {
        let list = byDevice.get(r.deviceId);
        if (!list) byDevice.set(r.deviceId, (list = []));
        list.push(r);
      }
      await Promise.all(
        [...byDevice].map(async ([deviceId, records]) => {
          const ref = await refOf(deviceId);
          const times = records.map((r) => r.fixTime.getTime());
          const msg: WireLocationBatch = {
            companyUuid: ref.companyUuid,
            deviceUuid: ref.deviceUuid,
            vehicleUuid: ref.vehicleUuid,
            generic: GENERIC_SOURCES.has(records[0]!.source ?? ''),
            records,
          };
          await bus.publish(subjects.locations(ref.companyUuid, ref.deviceUuid), msg, {
            msgId: `${ref.deviceUuid}:${Math.min(...times)}:${Math.max(...times)}:${records.length}`,
          });
          published.messages++;
          published.records += records.length;
        }),
      );
      return [...batch];
    },
  };
}

/** A wire batch back into storage inputs (dates revived, shape checked); null when malformed. */
export function reviveBatch(raw: unknown): WireLocationBatch | null {
  const m = raw as Partial<WireLocationBatch> | null;
  if (!m || typeof m !== 'object' || typeof m.companyUuid !== 'string' || typeof m.deviceUuid !== 'string')
    return null;
  if (!Array.isArray(m.records)) return null;
  const records: LocationInput[] = [];
  for (const r of m.records as unknown[]) {
    const x = r as Partial<LocationInput> & { fixTime?: unknown };
    if (!x || typeof x.deviceId !== 'number' || typeof x.companyId !== 'number') return null;
    const fix = new Date(x.fixTime as unknown as string);
    if (Number.isNaN(fix.getTime())) return null;
    records.push({ ...(x as LocationInput), fixTime: fix });
  }
  return {
    companyUuid: m.companyUuid,
    deviceUuid: m.deviceUuid,
    vehicleUuid: typeof m.vehicleUuid === 'string' ? m.vehicleUuid : null,
    generic: m.generic === true,
    records,
  };
}
