import type { PositionRecord } from '../common/types';
import type { StoredLocation } from './ports';

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
