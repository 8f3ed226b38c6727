import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';

/**
 * Mobile push tokens (FCM) of the signed-in user: register and deactivate.
 * (One endpoint group of the records; modules/records.ts registers them all.)
 */
export function registerFcmTokenRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

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
}
