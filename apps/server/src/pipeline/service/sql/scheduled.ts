import type { Queryable } from '../../../storage/db';
import type { ScheduledTripDef, TripInstance } from '../../scheduled/instances';
import type { ScheduledTripStore, StoredTripInstance } from '../ports';

/**
 * Scheduled trips and their instances. Instances are upserted into `trips` (scheduled_trip_id,
 * status, start/end) keyed by `data.instance_id`; a finished instance (completed, missed, cancelled)
 * is never overwritten. The full instance and its revision are kept in `data.instance` / `data.rev`
 * (compare-and-set between nodes, see ports.ts).
 */
export class SqlScheduledTripStore implements ScheduledTripStore {
  constructor(private readonly db: Queryable) {}

  async scheduledTrips(companyUuid: string): Promise<ScheduledTripDef[]> {
    const trips = await this.db.query<{
      id: number;
      uuid: string;
      name: string;
      type: string;
      departure_time: string;
      return_time: string | null;
      data: Record<string, unknown>;
      vehicle_uuid: string | null;
      driver_uuid: string | null;
    }>(
      `SELECT t.id, t.uuid, t.name, t.type, t.departure_time, t.return_time, t.data, v.uuid AS vehicle_uuid, d.uuid AS driver_uuid
       FROM scheduled_trips t JOIN transport_companies c ON c.id = t.company_id
       LEFT JOIN vehicles v ON v.id = t.vehicle_id LEFT JOIN drivers d ON d.id = t.driver_id
       WHERE c.uuid = $1 AND t.status = 'active' ORDER BY t.id`,
      [companyUuid],
    );
    const out: ScheduledTripDef[] = [];
    for (const t of trips) {
      const stops = await this.db.query<{
        uuid: string;
        name: string;
        latitude: number;
        longitude: number;
        offset: number;
        passengers: string[];
      }>(
        `SELECT s.uuid, s.name, s.latitude, s.longitude, s.arrival_offset_minutes AS offset,
                ARRAY(SELECT p.uuid::text FROM scheduled_trip_passengers j JOIN passengers p ON p.id = j.passenger_id
                      WHERE j.stop_id = s.id ORDER BY p.id) AS passengers
         FROM scheduled_trip_stops s WHERE s.scheduled_trip_id = $1 ORDER BY s.position`,
        [t.id],
      );
      if (stops.length === 0) continue;
      // The leg ends at the last stop's expected arrival (at least 30 minutes after departure).
      const span = Math.max(30, ...stops.map((s) => s.offset));
      const plus = (hhmm: string) => {
        const [h, m] = hhmm.slice(0, 5).split(':').map(Number);
        const total = ((h ?? 0) * 60 + (m ?? 0) + span) % 1440;
        return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
      };
      const days = Array.isArray(t.data.days_of_week)
        ? (t.data.days_of_week as number[]).map((d) => d % 7)
        : undefined;
      const round = t.type === 'round' && t.return_time;
      out.push({
        id: t.uuid,
        companyId: companyUuid,
        name: t.name,
        type: round ? 'round' : 'one_way',
        departure: { startTime: t.departure_time.slice(0, 5), endTime: plus(t.departure_time) },
        ...(round
          ? { return: { startTime: t.return_time!.slice(0, 5), endTime: plus(t.return_time!) } }
          : {}),
        ...(days ? { days } : {}),
        ...(typeof t.data.start_date === 'string' ? { validFrom: t.data.start_date } : {}),
        ...(typeof t.data.end_date === 'string' ? { validTo: t.data.end_date } : {}),
        stops: stops.map((s) => ({
          id: s.uuid,
          name: s.name,
          lat: s.latitude,
          lon: s.longitude,
          passengerIds: s.passengers,
        })),
        ...(t.vehicle_uuid ? { vehicleId: t.vehicle_uuid } : {}),
        ...(t.driver_uuid ? { driverId: t.driver_uuid } : {}),
      });
    }
    return out;
  }

  async saveTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      const data = SqlScheduledTripStore.instanceData(i, 0);
      const updated = await this.db.query<{ id: number }>(
        `UPDATE trips SET status = $2, end_at = $3::timestamptz, updated_at = now(),
           data = data || $4::jsonb || jsonb_build_object('rev', coalesce((data->>'rev')::int, 0) + 1)
         WHERE data->>'instance_id' = $1 AND status IN ('pending', 'delayed', 'started') RETURNING id`,
        [i.id, i.status, i.endedAt ? new Date(i.endedAt).toISOString() : null, data],
      );
      if (updated.length) continue;
      await this.insertInstance(i, data);
    }
  }

  /**
   * Inserts the trip row of an instance (from its scheduled trip). The unique index on
   * data->>'instance_id' (migration 0011) makes a concurrent second insert a no-op.
   */
  private async insertInstance(i: TripInstance, data: string): Promise<void> {
    await this.db.query(
      `INSERT INTO trips (company_id, sub_company_id, branch_id, school_id, name, status, vehicle_id, driver_id,
         scheduled_trip_id, start_at, end_at, data)
       SELECT t.company_id, t.sub_company_id, t.branch_id, t.school_id, t.name, $2, t.vehicle_id, t.driver_id, t.id,
              $3::timestamptz, $4::timestamptz, $5::jsonb
       FROM scheduled_trips t WHERE t.uuid = $1
       ON CONFLICT ((data->>'instance_id')) WHERE data ? 'instance_id' DO NOTHING`,
      [
        i.tripId,
        i.status,
        new Date(i.plannedStart).toISOString(),
        i.endedAt ? new Date(i.endedAt).toISOString() : null,
        data,
      ],
    );
  }

  /** The columns and data fields of a stored instance (the full instance is kept in `data.instance`). */
  private static instanceData(i: TripInstance, rev: number): string {
    return JSON.stringify({
      instance_id: i.id,
      leg: i.leg,
      date: i.date,
      late: i.late,
      incomplete: i.incomplete,
      reached: i.reached,
      instance: i,
      rev,
    });
  }

  async createTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      // A row of an older version (no `data.instance`) gets the instance, with its stored status.
      const upgraded = await this.db.query<{ id: number }>(
        `UPDATE trips SET data = data || jsonb_build_object('rev', 0, 'instance', $2::jsonb || jsonb_build_object(
             'status', status, 'late', coalesce((data->>'late')::boolean, false),
             'incomplete', coalesce((data->>'incomplete')::boolean, false),
             'reached', coalesce(data->'reached', '{}'::jsonb)))
         WHERE data->>'instance_id' = $1 AND NOT data ? 'instance' RETURNING id`,
        [i.id, JSON.stringify(i)],
      );
      if (upgraded.length) continue;
      await this.insertInstance(i, SqlScheduledTripStore.instanceData(i, 0));
    }
  }

  private static storedInstances(
    rows: { instance: TripInstance | string; rev: number }[],
  ): StoredTripInstance[] {
    return rows.map((r) => ({
      instance: typeof r.instance === 'string' ? (JSON.parse(r.instance) as TripInstance) : r.instance,
      rev: r.rev,
    }));
  }

  async tripInstancesSince(companyUuid: string, sinceMs: number): Promise<StoredTripInstance[]> {
    const rows = await this.db.query<{ instance: TripInstance; rev: number }>(
      `SELECT t.data->'instance' AS instance, coalesce((t.data->>'rev')::int, 0) AS rev
       FROM trips t JOIN transport_companies c ON c.id = t.company_id
       WHERE c.uuid = $1 AND t.data ? 'instance' AND t.start_at >= to_timestamp($2 / 1000.0)
       ORDER BY t.start_at, t.id`,
      [companyUuid, sinceMs],
    );
    return SqlScheduledTripStore.storedInstances(rows);
  }

  async openVehicleTripInstances(vehicleUuid: string): Promise<StoredTripInstance[]> {
    const rows = await this.db.query<{ instance: TripInstance; rev: number }>(
      `SELECT t.data->'instance' AS instance, coalesce((t.data->>'rev')::int, 0) AS rev
       FROM trips t JOIN vehicles v ON v.id = t.vehicle_id
       WHERE v.uuid = $1 AND t.status IN ('pending', 'delayed', 'started') AND t.data ? 'instance'
       ORDER BY t.start_at, t.id`,
      [vehicleUuid],
    );
    return SqlScheduledTripStore.storedInstances(rows);
  }

  async openTripVehicles(companyUuid: string): Promise<string[]> {
    const rows = await this.db.query<{ uuid: string }>(
      `SELECT DISTINCT v.uuid FROM trips t JOIN vehicles v ON v.id = t.vehicle_id
       JOIN transport_companies c ON c.id = t.company_id
       WHERE c.uuid = $1 AND t.status IN ('pending', 'delayed', 'started') AND t.data ? 'instance'`,
      [companyUuid],
    );
    return rows.map((r) => r.uuid);
  }

  async updateTripInstance(i: TripInstance, rev: number): Promise<boolean> {
    const rows = await this.db.query<{ id: number }>(
      `UPDATE trips SET status = $2, end_at = $3::timestamptz, data = data || $4::jsonb, updated_at = now()
       WHERE data->>'instance_id' = $1 AND coalesce((data->>'rev')::int, 0) = $5 RETURNING id`,
      [
        i.id,
        i.status,
        i.endedAt ? new Date(i.endedAt).toISOString() : null,
        SqlScheduledTripStore.instanceData(i, rev + 1),
        rev,
      ],
    );
    return rows.length > 0;
  }
}
