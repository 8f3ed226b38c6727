import type { Queryable } from '../../../storage/db';
import type { IoMap } from '../../common/io';
import type { PositionRecord } from '../../common/types';
import type { LocationStore } from '../ports';

/** A device's stored records (the `locations` table) as engine records. */
export class SqlLocationStore implements LocationStore {
  constructor(private readonly db: Queryable) {}

  async readLocations(deviceUuid: string, from: number, to: number): Promise<PositionRecord[]> {
    const rows = await this.db.query<{
      fix_ms: number;
      received_ms: number;
      latitude: number | null;
      longitude: number | null;
      speed: number | null;
      course: number | null;
      ignition: boolean | null;
      digital_output1: number | null;
      digital_output2: number | null;
      io_elements: IoMap;
      valid: boolean;
      vehicle_uuid: string | null;
    }>(
      `SELECT (extract(epoch FROM l.fix_time) * 1000)::float8 AS fix_ms,
              (extract(epoch FROM l.received_at) * 1000)::float8 AS received_ms,
              l.latitude, l.longitude, l.speed, l.course, l.ignition, l.digital_output1, l.digital_output2,
              l.io_elements, l.valid, v.uuid AS vehicle_uuid
       FROM locations l JOIN devices d ON d.id = l.device_id LEFT JOIN vehicles v ON v.id = l.vehicle_id
       WHERE d.uuid = $1 AND l.fix_time >= to_timestamp($2 / 1000.0) AND l.fix_time < to_timestamp($3 / 1000.0)
       ORDER BY l.fix_time`,
      [deviceUuid, from, to],
    );
    return rows.map((r) => ({
      deviceId: deviceUuid,
      ...(r.vehicle_uuid ? { vehicleId: r.vehicle_uuid } : {}),
      time: Math.round(r.fix_ms),
      receivedAt: Math.round(r.received_ms),
      lat: r.latitude ?? Number.NaN,
      lon: r.longitude ?? Number.NaN,
      speed: r.speed ?? 0,
      ...(r.course !== null ? { heading: r.course } : {}),
      ...(r.ignition !== null ? { ignition: r.ignition } : {}),
      io: r.io_elements ?? {},
      digitalOutput1: r.digital_output1,
      digitalOutput2: r.digital_output2,
      ignored: !r.valid,
    }));
  }
}
