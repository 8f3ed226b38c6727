import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';
import { sortExpression } from './list-sort';
import { logActivity } from '../activity/log';
import { notFound, HttpError } from '../http/errors';
import { containsPattern } from '../storage/db';

import { page as pageOf } from '../http/page';

/**
 * Unknown devices (IMEIs the gateway refused): the list and dismissing one.
 * (One endpoint group of the records; modules/records.ts registers them all.)
 */
export function registerUnknownDeviceRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  /*
   * Refused (unknown) IMEIs: super admins only, list and dismiss (decision).
   * The gateway records an IMEI it does not know with the source address it came from, before any
   * company owns it: the row names no company, and registering the IMEI as a device deletes it
   * (entities/defs/devices.ts), so no row can ever be attributed to the company that will own it.
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
}
