import { IO, ioFlag, ioNumber, type IoMap } from './io';

/**
 * The pipeline's view of one stored location record. Times are epoch milliseconds: `time` is the
 * device's own timestamp (the spec's device_created_at / created_at of the record), `receivedAt` the
 * moment the server received it. The storage layer maps its rows onto this shape.
 */
export interface PositionRecord {
  /** Stable id of the stored raw record (used as a tie-breaker so ordering is total and deterministic). */
  readonly id?: string;
  readonly deviceId: string;
  readonly vehicleId?: string;
  readonly time: number;
  readonly receivedAt: number;
  readonly lat: number;
  readonly lon: number;
  /** km/h */
  readonly speed: number;
  readonly heading?: number;
  /** Ignition as reported by the record's own field; IO 239 is used when this is absent. */
  readonly ignition?: boolean | null;
  readonly io?: IoMap;
  readonly digitalOutput1?: number | null;
  readonly digitalOutput2?: number | null;
  /** Set by the sanity filter: kept as raw, but it must not move the vehicle, start a trip or fire an alert. */
  readonly ignored?: boolean;
}

/** Ignition of a record: the explicit field first, then IO 239; undefined when the device reports neither. */
export function recordIgnition(r: PositionRecord): boolean | undefined {
  if (r.ignition === true || r.ignition === false) return r.ignition;
  return ioFlag(r.io, IO.ignition);
}

/** digital_output1 of a record: the explicit field first, then IO 179. */
export function recordOutput1(r: PositionRecord): number | undefined {
  if (typeof r.digitalOutput1 === 'number') return r.digitalOutput1;
  return ioNumber(r.io, IO.digitalOutput1);
}

/** Total order used everywhere: device time, then record id, then coordinates, then speed. */
export function compareRecords(a: PositionRecord, b: PositionRecord): number {
  if (a.time !== b.time) return a.time - b.time;
  const ai = a.id ?? '';
  const bi = b.id ?? '';
  if (ai !== bi) return ai < bi ? -1 : 1;
  if (a.lat !== b.lat) return a.lat - b.lat;
  if (a.lon !== b.lon) return a.lon - b.lon;
  return a.speed - b.speed;
}

/**
 * Sorts by the total order and drops exact duplicates (same time and id, or same time and position when
 * there is no id), which devices produce when they resend an unacknowledged batch.
 */
export function sortAndDedupe<T extends PositionRecord>(records: readonly T[]): T[] {
  const sorted = [...records].sort(compareRecords);
  const out: T[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && compareRecords(prev, r) === 0) continue;
    out.push(r);
  }
  return out;
}
