import type { FastifyInstance } from 'fastify';
import { vehicleStatus } from '@fleet/core';
import { route, iso } from '../http/route';
import { notFound } from '../http/errors';
import { hashToken, newToken } from '../auth/crypto';
import { logActivity } from '../activity/log';
import { scopeSql } from '../entities/scope';
import { locationView, type LocationRow } from './locations';

/**
 * Share-location links (spec section 1): POST /v1/vehicles/:uuid/share makes a public link valid
 * for a while; GET /v1/share/:token (no sign-in) shows that vehicle's plate, latest location and
 * live status until it expires. Only the token's hash is stored.
 */
export function registerShareRoutes(app: FastifyInstance): void {
  const { storage, config } = app.ctx;
  const db = storage.db;

  route(
    app,
    'vehicles.share',
    async ({ req, params, body, tenant, principal }) => {
      const p: unknown[] = [params.uuid];
      const rows = await db.query<{ id: number }>(
        `SELECT v.id FROM vehicles v WHERE v.uuid = $1 AND ${scopeSql('vehicles', 'v', tenant, p)}`,
        p,
      );
      if (!rows[0]) throw notFound('Vehicle');
      const token = newToken();
      const expires = new Date(app.ctx.now().getTime() + body.expires_in_minutes * 60_000);
      await db.query(
        'INSERT INTO share_links (token_hash, company_id, vehicle_id, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [hashToken(token), tenant.companyId, rows[0].id, principal.user.id, expires.toISOString()],
      );
      // Who made a public link to a vehicle's position, and until when (never the token itself).
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'created',
        entity: 'vehicle share link',
        entityUuid: params.uuid,
        after: { vehicle_uuid: params.uuid, expires_at: iso(expires) },
        req,
      });
      const base = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
      return { data: { token, url: `${base}/share/${token}`, expires_at: iso(expires)! } };
    },
    { permission: 'vehicles.view' },
  );

  route(app, 'share.show', async ({ params }) => {
    const now = app.ctx.now();
    const rows = await db.query<
      Partial<LocationRow> & {
        license_plate_number: string;
        type: string;
        data: Record<string, unknown>;
        expires_at: Date;
        fix_time: Date | null;
      }
    >(
      `SELECT v.license_plate_number, v.type, v.data, s.expires_at, l.*
       FROM share_links s JOIN vehicles v ON v.id = s.vehicle_id
       LEFT JOIN LATERAL (SELECT ll.fix_time, ll.latitude, ll.longitude, ll.speed, ll.course, ll.altitude, ll.satellites,
                                 ll.ignition, ll.is_idle, ll.digital_output1, ll.digital_output2, ll.io_elements
                          FROM latest_locations ll JOIN devices d ON d.id = ll.device_id
                          WHERE d.imei IN (v.device_imei, v.gps_device_imei) ORDER BY ll.fix_time DESC LIMIT 1) l ON true
       WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [hashToken(params.token), now.toISOString()],
    );
    const r = rows[0];
    if (!r) throw notFound();
    const location = r.fix_time ? locationView(r as LocationRow) : null;
    return {
      data: {
        vehicle: {
          license_plate_number: r.license_plate_number,
          license_plate_state_code: (r.data.license_plate_state_code as string | undefined) ?? null,
          license_plate_category: (r.data.license_plate_category as string | undefined) ?? null,
          type: r.type as 'car',
        },
        location,
        live_status: vehicleStatus(location, now),
        expires_at: iso(r.expires_at)!,
      },
    };
  });
}
