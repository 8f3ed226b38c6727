import type { Queryable } from '../../../storage/db';
import type { GeofenceEvent } from '../../geofence/tracker';
import type { GeofenceEventStore } from '../ports';

/**
 * geofence_events: contract fields in `data` (geofenceEventSchema). Idempotent: one row per (vehicle,
 * geofence, time, kind), enforced by a unique index (migration 0014), so records run through the
 * engines again after a worker died before saving its device state store nothing twice.
 */
export class SqlGeofenceEventStore implements GeofenceEventStore {
  constructor(private readonly db: Queryable) {}

  async insertGeofenceEvents(companyUuid: string, events: readonly GeofenceEvent[]): Promise<number> {
    let inserted = 0;
    for (const e of events) {
      // A replayed event (same vehicle, fence, time and kind) is a no-op against the unique index of
      // migration 0014.
      const rows = await this.db.query(
        `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
         SELECT c.id, v.id, g.id, $4, to_timestamp($5 / 1000.0),
                jsonb_build_object('geofence_uuid', g.uuid, 'geofence_name', g.name) || $6::jsonb
         FROM transport_companies c JOIN vehicles v ON v.uuid = $2 AND v.company_id = c.id
         JOIN geofences g ON g.uuid = $3 AND g.company_id = c.id
         WHERE c.uuid = $1
         ON CONFLICT (vehicle_id, geofence_id, at, kind) DO NOTHING
         RETURNING id`,
        [
          companyUuid,
          e.vehicleId,
          e.geofenceId,
          e.kind,
          e.time,
          JSON.stringify({
            latitude: e.lat,
            longitude: e.lon,
            speed: 0,
            dwell_seconds: e.dwellS === undefined ? null : Math.round(e.dwellS),
            ...(e.enteredAt !== undefined ? { entered_at: new Date(e.enteredAt).toISOString() } : {}),
          }),
        ],
      );
      inserted += rows.length;
    }
    return inserted;
  }
}
