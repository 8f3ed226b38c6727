import type { FastifyInstance } from 'fastify';
import { vehicleTypes } from '@fleet/api-client';
import { route, iso } from '../http/route';
import { sortExpression } from './list-sort';
import { logActivity } from '../activity/log';
import { notFound, HttpError } from '../http/errors';
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

export function registerRecordRoutes(app: FastifyInstance): void {
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

  /*
   * Refused (unknown) IMEIs: super admins only, list and dismiss (decision).
   * The gateway records an IMEI it does not know with the source address it came from, before any
   * company owns it: the row names no company, and registering the IMEI as a device deletes it
   * (entities/definitions.ts), so no row can ever be attributed to the company that will own it.
   * Any company-level view would therefore show one tenant the hardware (IMEIs, protocols, attempt
   * times) and the network addresses (SIM / APN / office IPs) of devices that belong to another, and
   * a company-level dismiss would let one tenant erase another's evidence. The portal does not show
   * this list; it is an operator's tool for the platform (a super admin, in whichever company they
   * act), where the addresses are needed to find a misconfigured installer. Everyone else, company
   * admins included, gets the 403 scoped admins already got.
   */
  const requireSuperAdmin = (principal: { user: { isSuperAdmin: boolean } }) => {
    if (!principal.user.isSuperAdmin) throw new HttpError(403, 'forbidden');
  };
  route(
    app,
    'devices.unknown',
    async ({ query, principal }) => {
      requireSuperAdmin(principal);
      const orderBy = sortExpression(
        query.sort,
        {
          last_attempt_at: 'last_attempt_at',
          first_attempt_at: 'first_seen_at',
          imei: 'imei',
          attempts: 'attempts',
        },
        'last_attempt_at',
      );
      const params: unknown[] = [];
      const where = ['true'];
      if (query.search) where.push(`imei ILIKE $${params.push(containsPattern(query.search))}`);
      if (query.type) where.push(`protocol = $${params.push(query.type)}`);
      const [c] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM unknown_devices WHERE ${where.join(' AND ')}`,
        params,
      );
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<{
        uuid: string;
        imei: string;
        protocol: string | null;
        remote_address: string | null;
        attempts: number;
        first_seen_at: Date;
        last_attempt_at: Date;
      }>(
        `SELECT * FROM unknown_devices WHERE ${where.join(' AND ')} ORDER BY ${orderBy} ${query.order === 'asc' ? 'ASC' : 'DESC'}, id LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      return pageOf(
        rows.map((r) => ({
          uuid: r.uuid,
          imei: r.imei,
          type: ([
            'teltonika',
            'ruptela',
            'gosafe',
            'door_technologies',
            'istartek',
            'osmand',
            'mqtt',
          ].includes(r.protocol ?? '')
            ? r.protocol
            : null) as 'teltonika' | null,
          remote_address: r.remote_address,
          attempts: r.attempts,
          first_attempt_at: iso(r.first_seen_at)!,
          last_attempt_at: iso(r.last_attempt_at)!,
        })),
        c?.n ?? 0,
        query,
      );
    },
    { permission: 'devices.create' },
  );
  route(
    app,
    'devices.unknownDismiss',
    async ({ req, params, tenant, principal }) => {
      requireSuperAdmin(principal);
      const rows = await db.query<{ imei: string; protocol: string | null; attempts: number }>(
        'DELETE FROM unknown_devices WHERE uuid = $1 RETURNING imei, protocol, attempts',
        [params.uuid],
      );
      if (!rows[0]) throw notFound('Device');
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'deleted',
        entity: 'unknown device',
        entityUuid: params.uuid,
        before: { imei: rows[0].imei, protocol: rows[0].protocol, attempts: rows[0].attempts },
        req,
      });
      return { message: req.locale === 'ar' ? 'تم الحذف.' : 'Dismissed.' };
    },
    { permission: 'devices.delete' },
  );

  route(
    app,
    'activityLog.list',
    async ({ query, tenant }) => {
      const orderBy = sortExpression(
        query.sort,
        { created_at: 'a.at', action: 'a.action', subject_type: 'a.entity' },
        'created_at',
      );
      const params: unknown[] = [tenant.companyId];
      const where = ['a.company_id = $1'];
      if (tenant.scope) {
        // Scoped admins see the activity of users inside their own scope only.
        where.push(
          `a.user_id IN (SELECT m.user_id FROM memberships m WHERE m.company_id = $1 AND m.${tenant.scope.column} = $${params.push(tenant.scope.id)})`,
        );
      }
      if (query.action) where.push(`a.action = $${params.push(query.action)}`);
      if (query.subject_type) where.push(`a.entity = $${params.push(query.subject_type)}`);
      if (query.subject_uuid) where.push(`a.entity_uuid = $${params.push(query.subject_uuid)}`);
      if (query.user_uuid)
        where.push(`a.user_id = (SELECT id FROM users WHERE uuid = $${params.push(query.user_uuid)})`);
      if (query.from) where.push(`a.at >= $${params.push(query.from)}`);
      if (query.to) where.push(`a.at <= $${params.push(query.to)}`);
      if (query.search)
        where.push(
          `(a.entity ILIKE $${params.push(containsPattern(query.search))} OR a.action ILIKE $${params.length})`,
        );
      const [c] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM activity_log a WHERE ${where.join(' AND ')}`,
        params,
      );
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<{
        uuid: string;
        action: string;
        entity: string;
        entity_uuid: string | null;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
        ip: string | null;
        user_agent: string | null;
        at: Date;
        user: { uuid: string; name: string } | null;
      }>(
        `SELECT a.*, (SELECT jsonb_build_object('uuid', u.uuid, 'name', u.name) FROM users u WHERE u.id = a.user_id) AS "user"
         FROM activity_log a WHERE ${where.join(' AND ')}
         ORDER BY ${orderBy} ${query.order === 'asc' ? 'ASC' : 'DESC'}, a.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      return pageOf(
        rows.map((r) => ({
          uuid: r.uuid,
          action: r.action as 'created',
          user: r.user,
          subject_type: r.entity,
          subject_uuid: r.entity_uuid,
          description: `${r.user?.name ?? 'System'} ${r.action.replace('_', ' ')} ${r.entity}`,
          before: r.before,
          after: r.after,
          ip_address: r.ip,
          user_agent: r.user_agent,
          created_at: iso(r.at)!,
        })),
        c?.n ?? 0,
        query,
      );
    },
    { permission: 'activity-log.view' },
  );

  route(app, 'fcmTokens.register', async ({ body, principal }) => {
    const [row] = await db.query<{
      uuid: string;
      token: string;
      platform: string;
      device_id: string;
      app_version: string | null;
      active: boolean;
      created_at: Date;
      updated_at: Date;
    }>(
      `INSERT INTO fcm_tokens (user_id, company_id, token, platform, device_id, app_version)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, company_id = EXCLUDED.company_id, platform = EXCLUDED.platform,
         device_id = EXCLUDED.device_id, app_version = EXCLUDED.app_version, active = true, updated_at = now()
       RETURNING *`,
      [
        principal.user.id,
        principal.session.companyId,
        body.token,
        body.platform,
        body.device_id,
        body.app_version ?? null,
      ],
    );
    return {
      success: true,
      data: {
        uuid: row!.uuid,
        token: row!.token,
        platform: row!.platform as 'android',
        device_id: row!.device_id,
        app_version: row!.app_version,
        is_active: row!.active,
        created_at: iso(row!.created_at)!,
        updated_at: iso(row!.updated_at)!,
      },
    };
  });
  route(app, 'fcmTokens.deactivate', async ({ body, principal }) => {
    const rows = await db.query(
      'UPDATE fcm_tokens SET active = false, updated_at = now() WHERE token = $1 AND user_id = $2 RETURNING 1',
      [body.token, principal.user.id],
    );
    return { success: rows.length > 0 };
  });

  route(
    app,
    'configurations.devices',
    async ({ tenant }) => {
      const params: unknown[] = [];
      const rows = await db.query<{
        uuid: string;
        imei: string;
        type: string;
        make: string | null;
        model: string | null;
        assigned: boolean;
      }>(
        `SELECT r.uuid, r.imei, r.type, r.make, r.model,
           EXISTS (SELECT 1 FROM vehicles v WHERE v.device_imei = r.imei OR v.gps_device_imei = r.imei) AS assigned
         FROM devices r WHERE ${scopeSql('devices', 'r', tenant, params)} ORDER BY r.imei`,
        params,
      );
      return {
        data: {
          data: rows.map((r) => ({
            value: r.imei,
            label: [r.imei, r.make, r.model].filter(Boolean).join(' · '),
            uuid: r.uuid,
            imei: r.imei,
            type: r.type as 'teltonika',
            assigned: r.assigned,
          })),
        },
      };
    },
    { permission: 'devices.view' },
  );
  const typeLabels: Record<string, [string, string]> = {
    bus: ['Bus', 'حافلة'],
    car: ['Car', 'سيارة'],
    truck: ['Truck', 'شاحنة'],
    motorcycle: ['Motorcycle', 'دراجة نارية'],
    'motor-bike': ['Motor-bike', 'دراجة'],
  };
  route(app, 'configurations.vehicleTypes', async () => ({
    data: {
      data: vehicleTypes.map((v) => ({
        value: v,
        label: typeLabels[v]?.[0] ?? v,
        label_ar: typeLabels[v]?.[1] ?? null,
      })),
    },
  }));
  route(app, 'configurations.vehicleStates', async ({ params }) => ({
    data: {
      data: (PLATE_STATES[params.country_code.toUpperCase()] ?? []).map(([value, label, label_ar]) => ({
        value,
        label,
        label_ar,
      })),
    },
  }));
}

/** Plate issuing states per country (value, English, Arabic). */
const PLATE_STATES: Record<string, [string, string, string][]> = {
  AE: [
    ['AD', 'Abu Dhabi', 'أبوظبي'],
    ['DXB', 'Dubai', 'دبي'],
    ['SHJ', 'Sharjah', 'الشارقة'],
    ['AJ', 'Ajman', 'عجمان'],
    ['UAQ', 'Umm Al Quwain', 'أم القيوين'],
    ['RAK', 'Ras Al Khaimah', 'رأس الخيمة'],
    ['FUJ', 'Fujairah', 'الفجيرة'],
  ],
  SA: [
    ['RUH', 'Riyadh', 'الرياض'],
    ['MKK', 'Makkah', 'مكة المكرمة'],
    ['MED', 'Madinah', 'المدينة المنورة'],
    ['EP', 'Eastern Province', 'المنطقة الشرقية'],
    ['QAS', 'Qassim', 'القصيم'],
    ['ASR', 'Asir', 'عسير'],
  ],
  OM: [
    ['MCT', 'Muscat', 'مسقط'],
    ['DHO', 'Dhofar', 'ظفار'],
    ['BAT', 'Al Batinah', 'الباطنة'],
  ],
  QA: [['QA', 'Qatar', 'قطر']],
  KW: [['KW', 'Kuwait', 'الكويت']],
  BH: [['BH', 'Bahrain', 'البحرين']],
};
