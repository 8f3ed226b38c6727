/** Trips, scheduled trips (with their stops) and the trips app's records. */
import { scheduledTripSchema, tripSchema, tripsAppRecordSchema } from '@fleet/api-client';
import { findInScope, invalidRef, type EntityDef } from '../entity-def';

export const tripEntity: EntityDef = {
  name: 'trips',
  table: 'trips',
  label: 'trip',
  permission: 'trips',
  item: tripSchema,
  columns: ['name', 'description', 'start_at', 'end_at'],
  refs: {
    scheduled_trip_uuid: { table: 'scheduled_trips', column: 'scheduled_trip_id', label: 'Scheduled trip' },
    vehicle_uuid: { table: 'vehicles', column: 'vehicle_id', label: 'Vehicle' },
    driver_uuid: { table: 'drivers', column: 'driver_id', label: 'Driver' },
    supervisor_uuid: { table: 'supervisors', column: 'supervisor_id', label: 'Supervisor' },
    school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
  },
  search: ['e.name', 'e.description'],
  timeColumn: 'start_at',
  sort: {
    name: 'lower(e.name)',
    start_at: 'e.start_at',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'start_at',
  dependents: [{ sql: 'SELECT 1 FROM trips_app WHERE trip_id = $1 LIMIT 1', label: 'trips app records' }],
};

export const scheduledTripEntity: EntityDef = {
  name: 'scheduledTrips',
  table: 'scheduled_trips',
  label: 'scheduled trip',
  permission: 'scheduled-trips',
  item: scheduledTripSchema,
  columns: ['name', 'type', 'departure_time', 'return_time'],
  refs: {
    driver_uuid: { table: 'drivers', column: 'driver_id', label: 'Driver' },
    vehicle_uuid: { table: 'vehicles', column: 'vehicle_id', label: 'Vehicle' },
    supervisor_uuid: { table: 'supervisors', column: 'supervisor_id', label: 'Supervisor' },
    school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
  },
  links: {
    passenger_uuids: {
      table: 'scheduled_trip_passengers',
      self: 'scheduled_trip_id',
      other: 'passenger_id',
      otherTable: 'passengers',
      label: 'Passenger',
      exclusive: 'passenger',
    },
  },
  search: ['e.name'],
  sort: {
    name: 'lower(e.name)',
    departure_time: 'e.departure_time',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  extraSelect: [
    `(SELECT coalesce(jsonb_agg(jsonb_build_object('name', s.name, 'location', jsonb_build_object('latitude', s.latitude, 'longitude', s.longitude, 'address', s.address), 'arrival_offset_minutes', s.arrival_offset_minutes, 'passenger_uuids', ARRAY(SELECT x.uuid::text FROM scheduled_trip_passengers j JOIN passengers x ON x.id = j.passenger_id WHERE j.stop_id = s.id ORDER BY x.id)) ORDER BY s.position), '[]'::jsonb) FROM scheduled_trip_stops s WHERE s.scheduled_trip_id = p.id) AS "stops"`,
  ],
  afterWrite: async (id, input, ctx) => {
    // Stops are replaced as a whole; a stop's passengers must be passengers of the trip.
    const stops = (input.stops ?? []) as {
      name: string;
      location: { latitude: number; longitude: number; address: string | null };
      arrival_offset_minutes: number;
      passenger_uuids: string[];
    }[];
    const tripPassengers = new Set((input.passenger_uuids ?? []) as string[]);
    await ctx.tx.query('UPDATE scheduled_trip_passengers SET stop_id = NULL WHERE scheduled_trip_id = $1', [
      id,
    ]);
    await ctx.tx.query('DELETE FROM scheduled_trip_stops WHERE scheduled_trip_id = $1', [id]);
    for (const [i, s] of stops.entries()) {
      const [stop] = await ctx.tx.query<{ id: number }>(
        `INSERT INTO scheduled_trip_stops (scheduled_trip_id, position, name, latitude, longitude, address, arrival_offset_minutes)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          id,
          i,
          s.name,
          s.location.latitude,
          s.location.longitude,
          s.location.address ?? null,
          s.arrival_offset_minutes,
        ],
      );
      for (const p of s.passenger_uuids) {
        if (!tripPassengers.has(p)) throw invalidRef(`stops.${i}.passenger_uuids`, 'Passenger');
        const found = await findInScope(ctx.tx, 'passengers', p, ctx.tenant);
        if (!found) throw invalidRef(`stops.${i}.passenger_uuids`, 'Passenger');
        await ctx.tx.query(
          'UPDATE scheduled_trip_passengers SET stop_id = $3 WHERE scheduled_trip_id = $1 AND passenger_id = $2',
          [id, found.id, stop!.id],
        );
      }
    }
  },
  view: (item) => {
    const { stops, ...rest } = item as { stops: { location: Record<string, unknown> }[] };
    return {
      ...rest,
      stops: (stops ?? []).map((s) => ({
        ...s,
        location: { ...s.location, address: s.location.address ?? null },
      })),
    };
  },
  dependents: [{ sql: 'SELECT 1 FROM trips WHERE scheduled_trip_id = $1 LIMIT 1', label: 'trips' }],
};

export const tripsAppEntity: EntityDef = {
  name: 'tripsApp',
  table: 'trips_app',
  label: 'trips-app record',
  permission: 'trips-app',
  item: tripsAppRecordSchema,
  columns: ['started_at', 'ended_at'],
  refs: {
    trip_uuid: { table: 'trips', column: 'trip_id', label: 'Trip' },
    driver_uuid: { table: 'drivers', column: 'driver_id', label: 'Driver' },
    vehicle_uuid: { table: 'vehicles', column: 'vehicle_id', label: 'Vehicle' },
  },
  search: ['e.reference', "e.data->>'notes'"],
  timeColumn: 'created_at',
  sort: {
    reference: 'e.reference',
    started_at: 'e.started_at',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  prepare: async (_input, ctx) =>
    ctx.id === undefined
      ? { reference: `TA-${Date.now().toString(36).toUpperCase()}-${Math.floor(Math.random() * 1e4)}` }
      : {},
  view: (item, row) => ({ ...item, reference: row.reference }),
};
