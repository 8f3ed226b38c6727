import type { PositionRecord } from '../common/types';
import type { StoredLocation } from './ports';

/** A stored location as the bus carries it (ports.ts) -> the engines' record. */

const toMs = (v: string | number | Date | undefined): number =>
  v instanceof Date ? v.getTime() : typeof v === 'number' ? v : v ? Date.parse(v) : Number.NaN;

/** Without its own receipt time a record takes `receivedAt` (the pipeline runs right after the batch is stored). */
export function toPositionRecord(
  deviceUuid: string,
  vehicleUuid: string | null,
  s: StoredLocation,
  receivedAt = Number.NaN,
): PositionRecord {
  const time = toMs(s.fixTime);
  const received = s.receivedAt === undefined ? receivedAt : toMs(s.receivedAt);
  return {
    deviceId: deviceUuid,
    ...(vehicleUuid ? { vehicleId: vehicleUuid } : {}),
    time,
    receivedAt: Number.isFinite(received) ? received : time,
    lat: s.latitude ?? Number.NaN,
    lon: s.longitude ?? Number.NaN,
    speed: s.speed ?? 0,
    ...(s.course != null ? { heading: s.course } : {}),
    ...(s.ignition != null ? { ignition: s.ignition } : {}),
    io: s.ioElements ?? {},
    digitalOutput1: s.digitalOutput1 ?? null,
    digitalOutput2: s.digitalOutput2 ?? null,
    ignored: s.valid === false,
  };
}
