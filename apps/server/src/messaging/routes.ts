import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';
import { HttpError, forbidden, notFound } from '../http/errors';
import { t } from '../http/i18n';
import { requireTenant } from '../app';
import { logActivity } from '../activity/log';
import { hashToken, newToken } from '../auth/crypto';
import { issueToken, SET_PASSWORD_TTL_MS } from '../auth/routes';
import { scopeSql } from '../entities/scope';
import { containsPattern } from '../storage/db';
import { page } from '../http/page';

interface MessageRow {
  uuid: string;
  channel: 'email' | 'sms';
  kind: string;
  recipient: string;
  locale: string;
  subject: string;
  status: 'queued' | 'sent' | 'failed';
  transport: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  body_text: string | null;
  body_html: string | null;
}

const COLUMNS = `uuid, channel, kind, recipient, locale, subject, status, transport, attempts, last_error, created_at,
  sent_at, body_text, body_html`;

/**
 * Who sees which messages, in one place: a super admin sees every message and the content of those kept
 * in the local mailbox (the demo's inbox: set-password and reset links must be readable there); anyone
 * else needs users.view in the selected company and sees that company's messages, status only (their
 * content carries one-time links and codes meant for one person).
 */
function view(r: MessageRow, withContent: boolean) {
  const readable = withContent && (r.body_text !== null || (r.body_html ?? '') !== '');
  return {
    uuid: r.uuid,
    channel: r.channel,
    kind: r.kind,
    recipient: r.recipient,
    locale: r.locale,
    subject: r.subject,
    status: r.status,
    transport: r.transport,
    attempts: r.attempts,
    last_error: r.last_error,
    created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at),
    has_content: readable,
  };
}

export function registerMessagingRoutes(app: FastifyInstance): void {
  const { storage, config, messenger } = app.ctx;
  const db = storage.db;
  const publicUrl = (path: string) => `${config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`}${path}`;

  /** Where clause of what this reader may see (see `view`). */
  async function readerScope(
    req: Parameters<typeof requireTenant>[0],
    superAdmin: boolean,
    params: unknown[],
  ) {
    if (superAdmin) return { where: 'true', content: true };
    const { tenant } = await requireTenant(req, 'users.view');
    params.push(tenant.companyId);
    return { where: `company_id = $${params.length}`, content: false };
  }

  route(app, 'messages.list', async ({ req, query, principal }) => {
    const params: unknown[] = [];
    const scope = await readerScope(req, principal.user.isSuperAdmin, params);
    const where = [scope.where];
    if (query.status) {
      params.push(query.status);
      where.push(`status = $${params.length}`);
    }
    if (query.channel) {
      params.push(query.channel);
      where.push(`channel = $${params.length}`);
    }
    if (query.search) {
      params.push(containsPattern(query.search));
      where.push(`(recipient ILIKE $${params.length} OR subject ILIKE $${params.length})`);
    }
    params.push(query.limit, (query.page - 1) * query.limit);
    const rows = await db.query<MessageRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM message_outbox WHERE ${where.join(' AND ')}
       ORDER BY created_at ${query.order === 'asc' ? 'ASC' : 'DESC'}, id ${query.order === 'asc' ? 'ASC' : 'DESC'}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const total = rows[0] ? Number(rows[0].total) : 0;
    return page(
      rows.map((r) => view(r, scope.content)),
      total,
      query,
    );
  });

  route(app, 'messages.show', async ({ req, params: p, principal }) => {
    const params: unknown[] = [p.uuid];
    const scope = await readerScope(req, principal.user.isSuperAdmin, params);
    const [r] = await db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM message_outbox WHERE uuid = $1 AND ${scope.where}`,
      params,
    );
    if (!r) throw notFound('Message');
    const v = view(r, scope.content);
    return {
      data: {
        ...v,
        body_text: v.has_content ? r.body_text : null,
        body_html: v.has_content && r.body_html ? r.body_html : null,
      },
    };
  });

  route(
    app,
    'users.invite',
    async ({ req, params, tenant, principal }) => {
      const result = await db.transaction(async (tx) => {
        const [u] = await tx.query<{
          id: number;
          email: string | null;
          name: string | null;
          locale: string;
          is_super_admin: boolean;
          last_login_at: Date | null;
        }>(
          `SELECT u.id, u.email, u.name, u.locale, u.is_super_admin, u.last_login_at FROM users u
           JOIN memberships m ON m.user_id = u.id AND m.company_id = $2 WHERE u.uuid = $1`,
          [params.uuid, tenant.companyId],
        );
        if (!u) throw notFound('User');
        // The same rule as editing a user: nobody below a super admin acts on a super admin.
        if (u.is_super_admin && tenant.userType !== 'super_admin') throw forbidden();
        if (!u.email) return null;
        // A new link; the earlier ones stop working.
        await tx.query(
          `UPDATE auth_tokens SET used_at = $2 WHERE user_id = $1 AND kind = 'set_password' AND used_at IS NULL`,
          [u.id, app.ctx.now().toISOString()],
        );
        const token = await issueToken(
          tx,
          u.id,
          'set_password',
          new Date(app.ctx.now().getTime() + SET_PASSWORD_TTL_MS),
        );
        const link = publicUrl(`/set-password/${token}`);
        await messenger.send(
          {
            channel: 'email',
            to: u.email,
            kind: 'set_password',
            subject: 'Set your password',
            text: `Open ${link} to set your password.`,
            secret: token,
            link,
            // Their own language once they have used the product; before that, the inviting admin's.
            locale: u.last_login_at ? (u.locale.startsWith('ar') ? 'ar' : 'en') : req.locale,
            params: { name: u.name ?? undefined },
            userId: u.id,
            companyId: tenant.companyId,
          },
          { db: tx },
        );
        await logActivity(tx, {
          companyId: tenant.companyId,
          userId: principal.user.id,
          action: 'updated',
          entity: 'user invitation',
          entityUuid: params.uuid,
          after: { invitation_sent_to: u.email },
          req,
        });
        return u.email;
      });
      if (result === null)
        throw new HttpError(
          422,
          'validation.general',
          {},
          {
            email: [t('en', 'validation.required', { field: 'Email' })],
          },
        );
      return { message: t(req.locale, 'invitation.sent') };
    },
    { permission: 'users.update' },
  );

  route(
    app,
    'vehicles.shareEmail',
    async ({ req, params, body, tenant, principal }) => {
      const p: unknown[] = [params.uuid];
      const rows = await db.query<{ id: number; license_plate_number: string }>(
        `SELECT v.id, v.license_plate_number FROM vehicles v WHERE v.uuid = $1 AND ${scopeSql('vehicles', 'v', tenant, p)}`,
        p,
      );
      if (!rows[0]) throw notFound('Vehicle');
      const expires = new Date(app.ctx.now().getTime() + body.expires_in_minutes * 60_000);
      await db.transaction(async (tx) => {
        // One link per recipient, so each can be told apart in the activity log and none is shared.
        for (const to of body.emails) {
          const token = newToken();
          await tx.query(
            'INSERT INTO share_links (token_hash, company_id, vehicle_id, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)',
            [hashToken(token), tenant.companyId, rows[0]!.id, principal.user.id, expires.toISOString()],
          );
          const link = publicUrl(`/share/${token}`);
          await messenger.send(
            {
              channel: 'email',
              to,
              kind: 'share_location',
              subject: 'Live location',
              text: `Open ${link} to see the vehicle's live location.`,
              secret: token,
              link,
              locale: req.locale,
              params: {
                title: rows[0]!.license_plate_number,
                name: principal.user.name ?? undefined,
                expiresAt: expires.toISOString(),
              },
              companyId: tenant.companyId,
            },
            { db: tx },
          );
        }
        await logActivity(tx, {
          companyId: tenant.companyId,
          userId: principal.user.id,
          action: 'created',
          entity: 'vehicle share link',
          entityUuid: params.uuid,
          after: { vehicle_uuid: params.uuid, expires_at: iso(expires), emailed_to: body.emails },
          req,
        });
      });
      return {
        message: t(req.locale, 'share.emailed', { count: body.emails.length }),
        data: { expires_at: iso(expires)!, recipients: body.emails.length },
      };
    },
    { permission: 'vehicles.view' },
  );
}
