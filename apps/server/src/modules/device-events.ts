import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';
import { sortExpression } from './list-sort';
import { notFound } from '../http/errors';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import { containsPattern, type Queryable } from '../storage/db';

import { page as pageOf } from '../http/page';

const VEHICLE_SUMMARY = `jsonb_build_object('uuid', v.uuid, 'license_plate_number', v.license_plate_number,
  'license_plate_state_code', v.data->>'license_plate_state_code', 'license_plate_category', v.data->>'license_plate_category',
  'type', v.type)`;

/**
 * Device-derived records written by the pipeline (device_trips, geofence_events, salik_events):
 * contract fields live in `data`; the API adds uuid, vehicle and times and keeps them to vehicles
 * inside the tenant's scope.
 */
/**
 * Geofence events only of geofences the reader can see (issue 18: a station admin was told the names of
 * company-wide geofences it gets 404 on).
 */
function visibleGeofenceSql(table: string, tenant: Tenant, params: unknown[]): string[] {
  if (table !== 'geofence_events') return [];
  return [
    `EXISTS (SELECT 1 FROM geofences g WHERE g.id = e.geofence_id AND ${scopeSql('geofences', 'g', tenant, params)})`,
  ];
}

async function eventList(
  db: Queryable,
  tenant: Tenant,
  table: string,
  timeColumn: string,
  q: Record<string, unknown> & { page: number; limit: number; order?: string },
  filters: Record<string, string>,
  shape: (r: Record<string, unknown>) => Record<string, unknown>,
  list: { sorts: Record<string, string>; defaultSort: string; search: string[] },
) {
  const orderBy = sortExpression(q.sort as string | undefined, list.sorts, list.defaultSort);
  const params: unknown[] = [];
  const where = [
    `e.company_id = $${params.push(tenant.companyId)}`,
    scopeSql('vehicles', 'v', tenant, params),
    ...visibleGeofenceSql(table, tenant, params),
  ];
  if (q.from) where.push(`e.${timeColumn} >= $${params.push(q.from)}`);
  if (q.to) where.push(`e.${timeColumn} <= $${params.push(q.to)}`);
  if (q.vehicle_uuid) where.push(`v.uuid = $${params.push(q.vehicle_uuid)}`);
  for (const [key, sql] of Object.entries(filters)) {
    if (q[key] !== undefined) where.push(sql.replace('$?', `$${params.push(q[key])}`));
  }
  if (typeof q.search === 'string' && q.search !== '') {
    const p = `$${params.push(containsPattern(q.search))}`;
    where.push(`(${list.search.map((e) => `${e} ILIKE ${p}`).join(' OR ')})`);
  }
  const from = `FROM ${table} e JOIN vehicles v ON v.id = e.vehicle_id WHERE ${where.join(' AND ')}`;
  const [c] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
  params.push(q.limit, (q.page - 1) * q.limit);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT e.*, v.uuid AS vehicle_uuid, ${VEHICLE_SUMMARY} AS vehicle ${from}
     ORDER BY ${orderBy} ${q.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, e.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return pageOf(rows.map(shape), c?.n ?? 0, q);
}

async function eventOne(
  db: Queryable,
  tenant: Tenant,
  table: string,
  uuid: string,
  shape: (r: Record<string, unknown>) => Record<string, unknown>,
  label: string,
) {
  const params: unknown[] = [uuid];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT e.*, v.uuid AS vehicle_uuid, ${VEHICLE_SUMMARY} AS vehicle FROM ${table} e JOIN vehicles v ON v.id = e.vehicle_id
     WHERE e.uuid = $1 AND e.company_id = $${params.push(tenant.companyId)} AND ${scopeSql('vehicles', 'v', tenant, params)}
       ${visibleGeofenceSql(table, tenant, params)
         .map((c) => `AND ${c}`)
         .join(' ')}`,
    params,
  );
  if (!rows[0]) throw notFound(label);
  return shape(rows[0]);
}

const data = (r: Record<string, unknown>) => (r.data as Record<string, unknown>) ?? {};

const deviceTripView = (r: Record<string, unknown>) => ({
  ...data(r),
  uuid: r.uuid,
  vehicle_uuid: r.vehicle_uuid,
  started_at: iso(r.started_at as Date),
  ended_at: iso(r.ended_at as Date | null),
  distance_km:
    data(r).distance_km ??
    (r.distance_m === null || r.distance_m === undefined ? 0 : Number(r.distance_m) / 1000),
});
const geofenceEventView = (r: Record<string, unknown>) => ({
  ...data(r),
  uuid: r.uuid,
  event: r.kind,
  vehicle: r.vehicle,
  occurred_at: iso(r.at as Date),
  created_at: iso(r.created_at as Date),
});
const salikEventView = (r: Record<string, unknown>) => ({
  ...data(r),
  uuid: r.uuid,
  gate_name: data(r).gate_name ?? r.gate,
  vehicle: r.vehicle,
  crossed_at: iso(r.at as Date),
  fee: r.fee === null ? 0 : Number(r.fee),
  created_at: iso(r.created_at as Date),
});

/** Sort names (answer fields) and searched text of the device-derived lists. */
const PLATE = 'v.license_plate_number';
const DEVICE_TRIP_LIST = {
  sorts: {
    started_at: 'e.started_at',
    ended_at: 'e.ended_at',
    distance_km: 'e.distance_m',
    created_at: 'e.created_at',
  },
  defaultSort: 'started_at',
  search: [PLATE],
};
const GEOFENCE_EVENT_LIST = {
  sorts: { occurred_at: 'e.at', created_at: 'e.created_at', event: 'e.kind' },
  defaultSort: 'occurred_at',
  search: [PLATE, "e.data->>'geofence_name'", '(SELECT g.name FROM geofences g WHERE g.id = e.geofence_id)'],
};
const SALIK_EVENT_LIST = {
  sorts: { crossed_at: 'e.at', created_at: 'e.created_at', fee: 'e.fee', gate_name: 'e.gate' },
  defaultSort: 'crossed_at',
  search: [PLATE, 'e.gate', "e.data->>'gate_name'"],
};

/**
 * Device-derived records written by the pipeline: device trips, geofence events and Salik events.
 * (One endpoint group of the records; modules/records.ts registers them all.)
 */
export function registerDeviceEventRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  route(
    app,
    'deviceTrips.list',
    async ({ query, tenant }) =>
      eventList(
        db,
        tenant,
        'device_trips',
        'started_at',
        query,
        {},
        deviceTripView,
        DEVICE_TRIP_LIST,
      ) as never,
    {
      permission: 'device-trips.view',
    },
  );
  route(
    app,
    'deviceTrips.show',
    async ({ params, tenant }) =>
      ({
        data: await eventOne(db, tenant, 'device_trips', params.uuid, deviceTripView, 'Device trip'),
      }) as never,
    { permission: 'device-trips.view' },
  );
  route(
    app,
    'geofenceEvents.list',
    async ({ query, tenant }) =>
      eventList(
        db,
        tenant,
        'geofence_events',
        'at',
        query,
        {
          event: 'e.kind = $?',
          geofence_uuid: 'e.geofence_id = (SELECT id FROM geofences WHERE uuid = $?)',
        },
        geofenceEventView,
        GEOFENCE_EVENT_LIST,
      ) as never,
    { permission: 'geofence-events.view' },
  );
  route(
    app,
    'geofenceEvents.show',
    async ({ params, tenant }) =>
      ({
        data: await eventOne(db, tenant, 'geofence_events', params.uuid, geofenceEventView, 'Geofence event'),
      }) as never,
    {
      permission: 'geofence-events.view',
    },
  );
  route(
    app,
    'salikEvents.list',
    async ({ query, tenant }) =>
      eventList(
        db,
        tenant,
        'salik_events',
        'at',
        query,
        { gate_uuid: "e.data->>'gate_uuid' = $?::text" },
        salikEventView,
        SALIK_EVENT_LIST,
      ) as never,
    { permission: 'salik-events.view' },
  );
  route(
    app,
    'salikEvents.show',
    async ({ params, tenant }) =>
      ({
        data: await eventOne(db, tenant, 'salik_events', params.uuid, salikEventView, 'Salik event'),
      }) as never,
    {
      permission: 'salik-events.view',
    },
  );
}
