import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';
import { notFound } from '../http/errors';
import { containsPattern, type Queryable } from '../storage/db';
import type { Bus } from '../realtime/bus';
import { publishRealtime } from '../realtime/hub';
import type { Locale } from '../http/i18n';
import { alertKeysMatching, alertLocale, localizedAlertText } from '../alerts/messages';
import { sortExpression } from './list-sort';
import { page } from '../http/page';

interface NotificationRow {
  uuid: string;
  type: string;
  title: string;
  message: string;
  created_at: Date;
  device_created_at: Date | null;
  violation_value: string | null;
  read_at: Date | null;
  icon: string | null;
  data: Record<string, unknown>;
  vehicle: { uuid: string; license_plate_number: string; type: string; data: Record<string, unknown> } | null;
}

const SELECT = `SELECT n.uuid, n.type, n.title, n.message, n.created_at, n.device_created_at, n.violation_value, n.read_at,
  n.icon, n.data,
  (SELECT jsonb_build_object('uuid', v.uuid, 'license_plate_number', v.license_plate_number, 'type', v.type, 'data', v.data)
   FROM vehicles v WHERE v.id = n.vehicle_id) AS vehicle
  FROM notifications n`;

/**
 * Title and message in `locale`. An alert stores the text in its recipient's language when it fires,
 * and its message keys and parameters in `data` (title_key, message_key, params); lists and details
 * render those again in the language of the request, so a user who switches to Arabic reads every
 * notification in Arabic, old ones included. Rows without keys (created through the API) keep their text.
 */
function localizedText(r: NotificationRow, locale: Locale | undefined): { title: string; message: string } {
  return (locale && localizedAlertText(r.data, locale)) || { title: r.title, message: r.message };
}

/**
 * Contract view of a notification; the violation value is a number when it reads as one. With a
 * locale, alert texts are rendered in it (see localizedText); without, the stored text is shown.
 */
export function notificationView(r: NotificationRow, locale?: Locale) {
  const vv = r.violation_value;
  return {
    uuid: r.uuid,
    type: r.type as 'general',
    ...localizedText(r, locale),
    created_at: iso(r.created_at)!,
    device_created_at: iso(r.device_created_at),
    vehicle: r.vehicle
      ? {
          uuid: r.vehicle.uuid,
          license_plate_number: r.vehicle.license_plate_number,
          license_plate_state_code: (r.vehicle.data?.license_plate_state_code as string | undefined) ?? null,
          license_plate_category: (r.vehicle.data?.license_plate_category as string | undefined) ?? null,
          type: r.vehicle.type,
        }
      : null,
    violation_value: vv === null ? null : vv !== '' && Number.isFinite(Number(vv)) ? Number(vv) : vv,
    read: r.read_at !== null,
    read_at: iso(r.read_at),
    icon: r.icon,
    data: r.data ?? {},
  };
}

export interface NewNotification {
  companyId: number;
  companyUuid: string;
  /** Internal user ids of the recipients (users allowed to see the vehicle). */
  userIds: number[];
  vehicleId?: number | null;
  type: string;
  title: string;
  message: string;
  violationValue?: number | string | null;
  deviceCreatedAt?: Date | null;
  icon?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Store a notification for each recipient and deliver it over the WebSocket at once
 * ({event: 'notification', path: <the user's uuid>, data}) to that user only: the portal listens
 * under the key notification + its own uuid (spec: notification uses the path only), as the pipeline's alerts do. The pipeline's
 * alert rules call this. Returns the stored uuids.
 */
export async function createNotifications(db: Queryable, bus: Bus, n: NewNotification): Promise<string[]> {
  if (n.userIds.length === 0) return [];
  const rows = await db.query<{ uuid: string; user_uuid: string }>(
    `WITH ins AS (
       INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, violation_value, device_created_at, icon, data)
       SELECT $1, u, $3, $4, $5, $6, $7, $8, $9, $10 FROM unnest($2::bigint[]) AS u
       RETURNING uuid, user_id)
     SELECT ins.uuid, users.uuid AS user_uuid FROM ins JOIN users ON users.id = ins.user_id`,
    [
      n.companyId,
      n.userIds,
      n.vehicleId ?? null,
      n.type,
      n.title,
      n.message,
      n.violationValue === undefined || n.violationValue === null ? null : String(n.violationValue),
      n.deviceCreatedAt ? n.deviceCreatedAt.toISOString() : null,
      n.icon ?? null,
      JSON.stringify(n.data ?? {}),
    ],
  );
  for (const r of rows) {
    const [full] = await db.query<NotificationRow>(`${SELECT} WHERE n.uuid = $1`, [r.uuid]);
    await publishRealtime(bus, {
      company_uuid: n.companyUuid,
      event: 'notification',
      path: r.user_uuid,
      data: notificationView(full!),
      user_uuid: r.user_uuid,
    });
  }
  return rows.map((r) => r.uuid);
}

export function registerNotificationRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;
  const perm = { permission: 'notifications.view' };

  route(
    app,
    'notifications.list',
    async ({ req, query, tenant, principal }) => {
      const orderBy = sortExpression(
        query.sort,
        {
          created_at: 'n.created_at',
          device_created_at: 'n.device_created_at',
          type: 'n.type',
          read_at: 'n.read_at',
        },
        'created_at',
      );
      const params: unknown[] = [principal.user.id, tenant.companyId];
      const where = ['n.user_id = $1', 'n.company_id = $2'];
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (query.search) {
        // Alerts are shown in the reader's language (localizedText), so the search looks where the
        // rendered text comes from: the templates of that language (by message key), the values put
        // into them (plates, names; a name in the other language excluded), and the stored text
        // (notifications created through the API, and the recipient's language when it fired).
        const locale = alertLocale(req.locale);
        const other = locale === 'ar' ? 'en' : 'ar';
        const like = containsPattern(query.search);
        params.push(like);
        const p = `$${params.length}`;
        params.push(alertKeysMatching(query.search, locale));
        const keys = `$${params.length}::text[]`;
        where.push(`(n.title ILIKE ${p} OR n.message ILIKE ${p}
          OR n.data->>'title_key' = ANY(${keys}) OR n.data->>'message_key' = ANY(${keys})
          OR EXISTS (
            SELECT 1 FROM jsonb_each_text(CASE WHEN jsonb_typeof(n.data->'params') = 'object'
                                               THEN n.data->'params' ELSE '{}'::jsonb END) AS param
            WHERE param.value ILIKE ${p} AND param.key NOT LIKE '%\\_${other}'))`);
      }
      if (query.type) add('n.type = ?', query.type);
      if (query.read !== undefined) where.push(query.read ? 'n.read_at IS NOT NULL' : 'n.read_at IS NULL');
      if (query.vehicle_uuid)
        add('n.vehicle_id = (SELECT id FROM vehicles WHERE uuid = ?)', query.vehicle_uuid);
      if (query.from) add('n.created_at >= ?', query.from);
      if (query.to) add('n.created_at <= ?', query.to);
      const [c] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications n WHERE ${where.join(' AND ')}`,
        params,
      );
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<NotificationRow>(
        `${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} ${query.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, n.id DESC
         LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const total = c?.n ?? 0;
      return page(
        rows.map((r) => notificationView(r, req.locale)),
        total,
        query,
      );
    },
    perm,
  );

  route(
    app,
    'notifications.unreadCount',
    async ({ tenant, principal }) => {
      const [c] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND company_id = $2 AND read_at IS NULL',
        [principal.user.id, tenant.companyId],
      );
      return { data: { count: c?.n ?? 0 } };
    },
    perm,
  );

  const own = async (uuid: string, userId: number, companyId: number) => {
    const [row] = await db.query<NotificationRow>(
      `${SELECT} WHERE n.uuid = $1 AND n.user_id = $2 AND n.company_id = $3`,
      [uuid, userId, companyId],
    );
    if (!row) throw notFound('Notification');
    return row;
  };

  route(
    app,
    'notifications.show',
    async ({ req, params, tenant, principal }) => ({
      data: notificationView(await own(params.uuid, principal.user.id, tenant.companyId), req.locale),
    }),
    perm,
  );

  route(
    app,
    'notifications.read',
    async ({ req, params, tenant, principal }) => {
      await own(params.uuid, principal.user.id, tenant.companyId);
      await db.query('UPDATE notifications SET read_at = coalesce(read_at, $2) WHERE uuid = $1', [
        params.uuid,
        app.ctx.now().toISOString(),
      ]);
      return {
        data: notificationView(await own(params.uuid, principal.user.id, tenant.companyId), req.locale),
      };
    },
    perm,
  );

  route(
    app,
    'notifications.readAll',
    async ({ tenant, principal }) => {
      const rows = await db.query(
        'UPDATE notifications SET read_at = $3 WHERE user_id = $1 AND company_id = $2 AND read_at IS NULL RETURNING 1',
        [principal.user.id, tenant.companyId, app.ctx.now().toISOString()],
      );
      return { data: { updated: rows.length } };
    },
    perm,
  );
}
