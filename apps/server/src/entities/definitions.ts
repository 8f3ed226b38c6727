import {
  branchSchema,
  deviceSchema,
  driverSchema,
  geofenceSchema,
  guardianSchema,
  notificationRuleSchema,
  passengerSchema,
  scheduledTripSchema,
  schoolSchema,
  stationSchema,
  supervisorSchema,
  tripSchema,
  tripsAppRecordSchema,
  vehicleSchema,
} from '@fleet/api-client';
import { HttpError } from '../http/errors';
import { assignedError, findInScope, invalidRef, type EntityDef, type WriteContext } from './crud';
import { scopeSql } from './scope';
import { liveStatusSql } from '../modules/locations';

const person = [
  'e.first_name',
  'e.last_name',
  "coalesce(e.first_name, '') || ' ' || coalesce(e.last_name, '')",
];
const personSort = {
  name: 'lower(e.first_name || e.last_name)',
  created_at: 'e.created_at',
  updated_at: 'e.updated_at',
  status: 'e.status',
};

/** The answer for an IMEI registered outside the company (en; http/i18n.ts translates it). */
export const IMEI_UNAVAILABLE =
  'This IMEI cannot be registered. If the device is yours, contact the platform operator.';

/** Vehicles link devices by IMEI: the device must be visible to the tenant and on no other vehicle. */
async function vehicleDevices(input: Record<string, unknown>, ctx: WriteContext) {
  const out: Record<string, unknown> = {};
  const pairs: [string, string][] = [
    ['device_imei', 'Device IMEI'],
    ['gps_device_imei', 'GPS device IMEI'],
  ];
  if (input.device_imei && input.device_imei === input.gps_device_imei)
    throw assignedError('gps_device_imei', 'device');
  for (const [field, label] of pairs) {
    const imei = input[field];
    if (imei === undefined) continue;
    if (imei === null) {
      out[field] = null;
      continue;
    }
    const params: unknown[] = [imei];
    const rows = await ctx.tx.query<{ imei: string }>(
      `SELECT r.imei FROM devices r WHERE r.imei = $1 AND ${scopeSql('devices', 'r', ctx.tenant, params)}`,
      params,
    );
    if (!rows[0]) throw invalidRef(field, label);
    // Serialises two requests putting the same device on vehicles at once (the unique indexes are per
    // column, so device_imei on one vehicle and gps_device_imei on another would both pass them).
    await ctx.tx.query('SELECT 1 FROM devices WHERE imei = $1 FOR NO KEY UPDATE', [imei]);
    const taken = await ctx.tx.query(
      `SELECT 1 FROM vehicles WHERE (device_imei = $1 OR gps_device_imei = $1) AND id <> $2 LIMIT 1`,
      [imei, ctx.id ?? -1],
    );
    if (taken.length) throw assignedError(field, 'device');
    out[field] = imei;
  }
  return out;
}

function bbox(
  geometry:
    | { shape: 'circle'; center: { latitude: number; longitude: number }; radius: number }
    | { shape: 'polygon'; points: { latitude: number; longitude: number }[] },
) {
  if (geometry.shape === 'circle') {
    const dLat = geometry.radius / 111_320;
    const dLng =
      geometry.radius / (111_320 * Math.max(0.01, Math.cos((geometry.center.latitude * Math.PI) / 180)));
    return {
      min_lat: geometry.center.latitude - dLat,
      max_lat: geometry.center.latitude + dLat,
      min_lng: geometry.center.longitude - dLng,
      max_lng: geometry.center.longitude + dLng,
    };
  }
  const lats = geometry.points.map((p) => p.latitude);
  const lngs = geometry.points.map((p) => p.longitude);
  return {
    min_lat: Math.min(...lats),
    max_lat: Math.max(...lats),
    min_lng: Math.min(...lngs),
    max_lng: Math.max(...lngs),
  };
}

/**
 * Records scoped to a station / branch / school hold it with ON DELETE RESTRICT: the delete is refused
 * up front with a 409 naming them (the database's own refusal is 23503 or, on PostgreSQL 17 and
 * PGlite, 23001; both are mapped to a generic 409 in app.ts as a last resort).
 */
const SCOPED: [table: string, label: string][] = [
  ['branches', 'branches'],
  ['schools', 'schools'],
  ['vehicles', 'vehicles'],
  ['drivers', 'drivers'],
  ['devices', 'devices'],
  ['passengers', 'passengers'],
  ['guardians', 'guardians'],
  ['supervisors', 'supervisors'],
  ['geofences', 'geofences'],
  ['scheduled_trips', 'scheduled trips'],
  ['trips', 'trips'],
  ['trips_app', 'trips app records'],
  ['memberships', 'users'],
];
function scopedDependents(column: 'sub_company_id' | 'branch_id' | 'school_id', ...without: string[]) {
  return SCOPED.filter(([table]) => !without.includes(table)).map(([table, label]) => ({
    sql: `SELECT 1 FROM ${table} WHERE ${column} = $1 LIMIT 1`,
    label,
  }));
}

/**
 * A notification rule keeps its vehicle, geofence and recipient uuids as JSON (params): each must be a
 * record the tenant can see (a company member for recipients), else 422 on the field, the same answer
 * for a foreign and a random uuid.
 *
 * On deletion: an empty vehicle or geofence list means "every vehicle / geofence", so silently dropping
 * a deleted one could turn a rule for one bus into a rule for the whole fleet. Deleting a vehicle or
 * geofence a rule names is therefore refused with the 409 naming the notification rules (like any other
 * dependent); the user edits the rule first. A recipient who is removed from the company is taken out
 * of the rules instead (src/entities/users.ts): a leaving user must not be blocked by alert settings,
 * and a rule left without recipients goes to the company's usual recipients, who see the alerts anyway.
 */
async function ruleRefs(input: Record<string, unknown>, ctx: WriteContext) {
  const lists: [field: string, table: string, label: string][] = [
    ['vehicle_uuids', 'vehicles', 'Vehicle'],
    ['geofence_uuids', 'geofences', 'Geofence'],
    ['recipient_user_uuids', 'users', 'Recipient'],
  ];
  for (const [field, table, label] of lists) {
    const list = input[field];
    if (!Array.isArray(list) || list.length === 0) continue;
    const uuids = [...new Set(list.map((u) => String(u).toLowerCase()))];
    const params: unknown[] = [uuids];
    const sql =
      table === 'users'
        ? `SELECT count(*)::int AS n FROM users r JOIN memberships m ON m.user_id = r.id AND m.company_id = $${params.push(ctx.tenant.companyId)}
           WHERE r.uuid = ANY($1::uuid[])`
        : `SELECT count(*)::int AS n FROM ${table} r WHERE r.uuid = ANY($1::uuid[]) AND ${scopeSql(table, 'r', ctx.tenant, params)}`;
    const [found] = await ctx.tx.query<{ n: number }>(sql, params);
    if (Number(found?.n ?? 0) !== uuids.length) throw invalidRef(field, label);
  }
}

/** A notification rule naming the record ($1 = id of a row of `table`) in its `field` list. */
const ruleDependent = (table: string, field: string) => ({
  sql: `SELECT 1 FROM notification_rules n JOIN ${table} x ON x.id = $1
        WHERE n.company_id = x.company_id AND n.params->'${field}' @> jsonb_build_array(x.uuid::text) LIMIT 1`,
  label: 'notification rules',
});

/**
 * The latest stored fix of a vehicle's trackers (main and GPS device), as the live list reads it: the
 * row for the live-status rule, and its time for the list's last-seen sort and filter.
 */
const VEHICLE_LATEST_FIX = `SELECT ll.fix_time, ll.is_idle, ll.ignition FROM latest_locations ll
  JOIN devices d ON d.id = ll.device_id WHERE d.imei IN (e.device_imei, e.gps_device_imei)
  ORDER BY ll.fix_time DESC LIMIT 1`;
const VEHICLE_LAST_FIX = `SELECT max(ll.fix_time) FROM latest_locations ll
  JOIN devices d ON d.id = ll.device_id WHERE d.imei IN (e.device_imei, e.gps_device_imei)`;

export const entityDefs: EntityDef[] = [
  {
    name: 'vehicles',
    table: 'vehicles',
    label: 'vehicle',
    permission: 'vehicles',
    item: vehicleSchema,
    columns: ['license_plate_number', 'type', 'make', 'model', 'device_imei', 'gps_device_imei'],
    refs: {
      branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' },
      station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' },
      school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
      driver_uuid: { table: 'drivers', column: 'driver_id', label: 'Driver', exclusive: 'driver' },
    },
    search: ['e.license_plate_number', 'e.make', 'e.model', 'e.device_imei', "e.data->>'chassis_number'"],
    // The contract's vehicleSortColumns: every one of them has an expression here.
    sort: {
      license_plate_number: 'e.license_plate_number',
      type: 'e.type',
      make: 'e.make',
      model: 'e.model',
      device_imei: 'e.device_imei',
      status: 'e.status',
      last_seen: `(${VEHICLE_LAST_FIX})`,
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    filters: {
      live_status: `coalesce((SELECT ${liveStatusSql('l', 'now()')} FROM (${VEHICLE_LATEST_FIX}) l), 'no-data') = $?`,
      last_seen: `(CASE WHEN (${VEHICLE_LAST_FIX}) IS NULL THEN 'never'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '1 hour' THEN 'hour'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '24 hours' THEN 'day'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '7 days' THEN 'week'
        ELSE 'older' END) = $?`,
    },
    defaultSort: 'created_at',
    dependents: [
      { sql: 'SELECT 1 FROM scheduled_trips WHERE vehicle_id = $1 LIMIT 1', label: 'scheduled trips' },
      { sql: 'SELECT 1 FROM trips WHERE vehicle_id = $1 LIMIT 1', label: 'trips' },
      { sql: 'SELECT 1 FROM trips_app WHERE vehicle_id = $1 LIMIT 1', label: 'trips app records' },
      { sql: 'SELECT 1 FROM supervisors WHERE vehicle_id = $1 LIMIT 1', label: 'supervisors' },
      ruleDependent('vehicles', 'vehicle_uuids'),
    ],
    prepare: (input, ctx) => vehicleDevices(input, ctx),
    onChange: (app, row) => {
      app.ctx.hub?.invalidateVehicle(row.uuid);
      app.ctx.storage.invalidateDevices();
    },
  },
  {
    name: 'drivers',
    table: 'drivers',
    label: 'driver',
    permission: 'drivers',
    item: driverSchema,
    columns: ['first_name', 'last_name', 'email', 'phone', 'license_number'],
    refs: {
      branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' },
      station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' },
    },
    reverse: {
      vehicle_uuid: {
        otherTable: 'vehicles',
        otherColumn: 'driver_id',
        label: 'Vehicle',
        exclusive: 'vehicle',
      },
    },
    search: [...person, 'e.email', 'e.phone', 'e.license_number'],
    filters: {
      vehicle_uuid: 'EXISTS (SELECT 1 FROM vehicles v WHERE v.driver_id = e.id AND v.uuid = $?)',
    },
    sort: personSort,
    defaultSort: 'created_at',
    dependents: [
      { sql: 'SELECT 1 FROM scheduled_trips WHERE driver_id = $1 LIMIT 1', label: 'scheduled trips' },
      { sql: 'SELECT 1 FROM trips WHERE driver_id = $1 LIMIT 1', label: 'trips' },
      { sql: 'SELECT 1 FROM trips_app WHERE driver_id = $1 LIMIT 1', label: 'trips app records' },
      { sql: 'SELECT 1 FROM vehicles WHERE driver_id = $1 LIMIT 1', label: 'vehicles' },
    ],
  },
  {
    name: 'devices',
    table: 'devices',
    label: 'device',
    permission: 'devices',
    item: deviceSchema,
    columns: ['imei', 'type', 'make', 'model', 'sim'],
    search: ['e.imei', 'e.make', 'e.model', 'e.sim'],
    filters: { current_status: 'e.connection_status = $?' },
    sort: {
      imei: 'e.imei',
      type: 'e.type',
      status: 'e.status',
      last_connected_at: 'e.last_connected_at',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    extraSelect: [
      '(SELECT v.uuid FROM vehicles v WHERE v.device_imei = p.imei OR v.gps_device_imei = p.imei LIMIT 1) AS "vehicle_uuid"',
    ],
    view: (item, row) => ({
      ...item,
      current_status: row.connection_status,
      last_connected_at: row.last_connected_at instanceof Date ? row.last_connected_at.toISOString() : null,
    }),
    dependents: [
      {
        sql: 'SELECT 1 FROM vehicles v JOIN devices d ON d.id = $1 WHERE v.device_imei = d.imei OR v.gps_device_imei = d.imei LIMIT 1',
        label: 'vehicles',
      },
    ],
    prepare: async (input, ctx) => {
      const taken = await ctx.tx.query<{ company_id: number }>(
        'SELECT company_id FROM devices WHERE imei = $1 AND id <> $2',
        [input.imei, ctx.id ?? -1],
      );
      // An IMEI is a device's only credential at the gateway, so it is unique on the platform. Issue 18:
      // the refusal must not confirm to one tenant that another tenant runs this IMEI. Inside the
      // company the usual 'already taken' (the device is theirs to see); otherwise a neutral answer that
      // points to the platform operator, who can check ownership (see the README security section).
      if (taken.length)
        throw new HttpError(
          422,
          'validation.general',
          {},
          {
            imei: [
              taken.some((r) => Number(r.company_id) === ctx.tenant.companyId)
                ? 'This IMEI is already taken'
                : IMEI_UNAVAILABLE,
            ],
          },
        );
      if (ctx.id !== undefined) {
        // The IMEI of a device on a vehicle follows through ON UPDATE CASCADE.
      }
      return {};
    },
    afterWrite: async (_id, input, ctx) => {
      await ctx.tx.query('DELETE FROM unknown_devices WHERE imei = $1', [input.imei]);
    },
    onChange: (app) => app.ctx.storage.invalidateDevices(),
  },
  {
    name: 'geofences',
    table: 'geofences',
    label: 'geofence',
    permission: 'geofences',
    item: geofenceSchema,
    columns: ['name', 'type', 'geometry'],
    links: {
      vehicle_uuids: {
        table: 'geofence_vehicles',
        self: 'geofence_id',
        other: 'vehicle_id',
        otherTable: 'vehicles',
        label: 'Vehicle',
      },
    },
    search: ['e.name', "e.data->>'description'", "e.data->>'purpose'"],
    filters: { shape: 'e.shape = $?', purpose: "e.data->>'purpose' = $?" },
    sort: {
      name: 'lower(e.name)',
      type: 'e.type',
      status: 'e.status',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    dependents: [ruleDependent('geofences', 'geofence_uuids')],
    prepare: async (input) => {
      const g = input.geometry as Parameters<typeof bbox>[0];
      return { geometry: JSON.stringify(g), shape: g.shape, ...bbox(g) };
    },
  },
  {
    name: 'branches',
    table: 'branches',
    label: 'branch',
    permission: 'branches',
    item: branchSchema,
    columns: ['name', 'description', 'location'],
    refs: { station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' } },
    search: ['e.name', 'e.description'],
    sort: {
      name: 'lower(e.name)',
      status: 'e.status',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    prepare: async (input) => ({
      location:
        input.location === null || input.location === undefined ? null : JSON.stringify(input.location),
    }),
    dependents: scopedDependents('branch_id', 'branches'),
  },
  {
    name: 'stations',
    table: 'sub_companies',
    label: 'station',
    permission: 'stations',
    item: stationSchema,
    columns: ['name', 'name_ar'],
    search: ['e.name', 'e.name_ar'],
    sort: {
      name: 'lower(e.name)',
      status: 'e.status',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    dependents: scopedDependents('sub_company_id'),
  },
  {
    name: 'schools',
    table: 'schools',
    label: 'school',
    permission: 'schools',
    item: schoolSchema,
    columns: ['name', 'name_ar', 'code', 'type'],
    refs: { branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' } },
    search: ['e.name', 'e.name_ar', 'e.code', "e.data->>'city'"],
    filters: { education_level: "e.data->>'education_level' = $?" },
    sort: {
      name: 'lower(e.name)',
      code: 'e.code',
      type: 'e.type',
      status: 'e.status',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    dependents: scopedDependents('school_id', 'branches', 'schools'),
  },
  {
    name: 'passengers',
    table: 'passengers',
    label: 'passenger',
    permission: 'passengers',
    item: passengerSchema,
    columns: ['first_name', 'last_name'],
    refs: { school_uuid: { table: 'schools', column: 'school_id', label: 'School' } },
    links: {
      guardian_uuids: {
        table: 'passenger_guardians',
        self: 'passenger_id',
        other: 'guardian_id',
        otherTable: 'guardians',
        label: 'Guardian',
      },
    },
    search: [...person, "e.data->>'student_number'"],
    filters: {
      guardian_uuid:
        'EXISTS (SELECT 1 FROM passenger_guardians j JOIN guardians g ON g.id = j.guardian_id WHERE j.passenger_id = e.id AND g.uuid = $?)',
      scheduled_trip_uuid:
        'EXISTS (SELECT 1 FROM scheduled_trip_passengers j JOIN scheduled_trips s ON s.id = j.scheduled_trip_id WHERE j.passenger_id = e.id AND s.uuid = $?)',
    },
    sort: personSort,
    defaultSort: 'created_at',
    dependents: [
      {
        sql: 'SELECT 1 FROM scheduled_trip_passengers WHERE passenger_id = $1 LIMIT 1',
        label: 'scheduled trips',
      },
    ],
  },
  {
    name: 'guardians',
    table: 'guardians',
    label: 'guardian',
    permission: 'guardians',
    item: guardianSchema,
    columns: ['first_name', 'last_name', 'email', 'phone'],
    links: {
      passenger_uuids: {
        table: 'passenger_guardians',
        self: 'guardian_id',
        other: 'passenger_id',
        otherTable: 'passengers',
        label: 'Passenger',
      },
    },
    search: [...person, 'e.email', 'e.phone'],
    // Guardians saved before the message preference (issue 14) existed: e-mail when they have an
    // address, else SMS; English. Migration 0026's trigger reads missing values the same way.
    view: (item) => ({
      ...item,
      message_channel: item.message_channel ?? (item.email ? 'email' : 'sms'),
      language: item.language ?? 'en',
    }),
    filters: {
      passenger_uuid:
        'EXISTS (SELECT 1 FROM passenger_guardians j JOIN passengers x ON x.id = j.passenger_id WHERE j.guardian_id = e.id AND x.uuid = $?)',
    },
    sort: personSort,
    defaultSort: 'created_at',
  },
  {
    name: 'supervisors',
    table: 'supervisors',
    label: 'supervisor',
    permission: 'supervisors',
    item: supervisorSchema,
    columns: ['first_name', 'last_name', 'email', 'phone'],
    refs: {
      school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
      vehicle_uuid: { table: 'vehicles', column: 'vehicle_id', label: 'Vehicle', exclusive: 'vehicle' },
    },
    search: [...person, 'e.email', 'e.phone'],
    sort: personSort,
    defaultSort: 'created_at',
    dependents: [
      { sql: 'SELECT 1 FROM scheduled_trips WHERE supervisor_id = $1 LIMIT 1', label: 'scheduled trips' },
      { sql: 'SELECT 1 FROM trips WHERE supervisor_id = $1 LIMIT 1', label: 'trips' },
    ],
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    name: 'notificationRules',
    table: 'notification_rules',
    label: 'notification rule',
    permission: 'settings',
    item: notificationRuleSchema,
    columns: ['name', 'type'],
    search: ['e.name', 'e.type'],
    sort: {
      name: 'lower(e.name)',
      type: 'e.type',
      status: 'e.status',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultSort: 'created_at',
    prepare: async (input, ctx) => {
      await ruleRefs(input, ctx);
      return {
        params: JSON.stringify(
          Object.fromEntries(Object.entries(input).filter(([k]) => !['name', 'type', 'status'].includes(k))),
        ),
      };
    },
    view: (item, row) => ({ ...item, ...((row.params as Record<string, unknown>) ?? {}) }),
  },
];
