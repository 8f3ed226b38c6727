import type { DeviceRef, LocationInput } from '../storage/storage';
import { publishOn, subjects, type Bus } from '../realtime/bus';
import { publishRealtime } from '../realtime/hub';
import { liveLocation, withIoElements } from './records';

/**
 * Publishing after a commit, the gateway's one reason to talk to the bus about records: the device's
 * batch on `locations.<company>.<device>` for the pipeline, and each valid record (in fix-time order) as
 * a live location of the api-client contract on `realtime.<company>` for the WebSocket hub. The only
 * publisher of live positions (ARCHITECTURE.md).
 */
/**
 * After a commit: hand each new record to the pipeline and the realtime hub. Returns a promise that
 * settles (never rejects: failures go to `bg`) when every publish did, for the gateway's
 * {@link PublishBacklog}.
 */
export function publishStored(
  bus: Bus,
  bg: (p: Promise<unknown>, what: string) => void,
  device: DeviceRef,
  fresh: readonly LocationInput[],
  generic: boolean,
): Promise<unknown> {
  if (fresh.length === 0) return Promise.resolve();
  for (const r of fresh) withIoElements(r);
  const all: Promise<unknown>[] = [];
  const track = (p: Promise<unknown>, what: string) => {
    bg(p, what);
    all.push(p);
  };
  track(
    publishOn(bus, subjects.locations(device.companyUuid, device.deviceUuid), {
      companyUuid: device.companyUuid,
      deviceUuid: device.deviceUuid,
      vehicleUuid: device.vehicleUuid,
      generic,
      records: fresh,
    }),
    'publish locations',
  );
  const vehicleUuid = device.vehicleUuid;
  if (!vehicleUuid) return Promise.allSettled(all);
  const sorted = fresh.length > 1 ? [...fresh].sort((a, b) => +a.fixTime - +b.fixTime) : fresh;
  for (const r of sorted) {
    if (r.valid === false) continue;
    track(
      publishRealtime(bus, {
        company_uuid: device.companyUuid,
        event: generic ? 'generic-device-location' : 'device-location',
        path: vehicleUuid,
        data: liveLocation(r, device, vehicleUuid),
        vehicle_uuid: vehicleUuid,
      }),
      'publish realtime',
    );
  }
  return Promise.allSettled(all);
}
