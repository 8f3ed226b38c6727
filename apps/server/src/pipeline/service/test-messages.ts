import { subjects, type InProcessBus } from '../../realtime/bus';
import type { PositionRecord } from '../common/types';
import type { MemoryPipelineStore } from './memory-store';
import type { LocationBatchMessage, StoredLocation } from './ports';

/**
 * Tests: a track builder's record as the gateway hands it to the pipeline on the bus (the shape of one
 * record of a location batch message).
 */
export const storedLocation = (r: PositionRecord): StoredLocation => ({
  fixTime: new Date(r.time).toISOString(),
  receivedAt: r.receivedAt,
  latitude: r.lat,
  longitude: r.lon,
  speed: r.speed,
  ignition: r.io?.[239] === 1,
  ioElements: r.io ?? {},
  valid: true,
});

/**
 * Tests: what the gateway does with a device's records, for one device: stores them (the memory
 * store's locations) and publishes them as one location batch on the bus.
 */
export function deviceUploader(
  store: MemoryPipelineStore,
  bus: InProcessBus,
  ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string },
): (chunk: PositionRecord[]) => Promise<void> {
  return async (chunk) => {
    store.addLocations(ref.deviceUuid, chunk);
    const msg: LocationBatchMessage = { ...ref, records: chunk.map(storedLocation) };
    await bus.publish(subjects.locations(ref.companyUuid, ref.deviceUuid), msg);
  };
}
