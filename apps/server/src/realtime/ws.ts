import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { WEBSOCKET_PATH_TEMPLATE } from '@fleet/api-client';
import { bearerToken, sessionFromToken, type Principal } from '../auth/session';
import { loadTenant, type Tenant } from '../tenancy/context';
import { effectivePermissions } from '../tenancy/permissions';
import { alertLocale } from '../alerts/messages';
import { parseLocale, t } from '../http/i18n';
import type { RealtimeHub } from './hub';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'fastify' {
  interface FastifyRequest {
    wsAuth?: { principal: Principal; tenant: Tenant };
  }
}

/**
 * WebSocket endpoint /ws/:company_uuid/:user_uuid (spec: the first identifier is required, the
 * second names the user). Authenticated with the session token as `token` query parameter or
 * Authorization header, checked before the upgrade (401 / 403 answers, never a socket); `locale` (en, ar)
 * words alert notifications for this socket. The token
 * never reaches a log line (the request serializer drops query strings). {event:'ping'} gets
 * {event:'pong'}; everything else arrives from the bus through the RealtimeHub.
 */
export async function registerWebSocket(app: FastifyInstance, hub: RealtimeHub): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const db = app.ctx.storage.db;

  const authorize = async (req: FastifyRequest) => {
    const { company_uuid, user_uuid } = req.params as { company_uuid: string; user_uuid: string };
    const principal = await sessionFromToken(db, bearerToken(req, req.query), app.ctx.now(), {
      allowMedia: true,
    });
    if (!principal) return 401;
    if (!UUID_RE.test(company_uuid) || (user_uuid && user_uuid !== principal.user.uuid)) return 403;
    const tenant = await loadTenant(db, principal.user, company_uuid.toLowerCase(), effectivePermissions);
    if (!tenant || !tenant.permissions.includes('vehicles.view')) return 403;
    req.wsAuth = { principal, tenant };
    return 0;
  };

  app.get(
    WEBSOCKET_PATH_TEMPLATE,
    {
      websocket: true,
      preValidation: async (req, reply) => {
        const code = await authorize(req);
        if (code === 0) return;
        // A refusal is worded in the socket's language: `?locale=` (browsers cannot set headers on a
        // WebSocket), else X-Locale.
        const asked = (req.query as { locale?: unknown }).locale;
        const locale = typeof asked === 'string' ? parseLocale(asked) : req.locale;
        return reply
          .code(code)
          .send({ message: t(locale, code === 401 ? 'auth.unauthenticated' : 'forbidden') });
      },
    },
    (socket, req) => {
      const { principal, tenant } = req.wsAuth!;
      const remove = hub.add({
        socket,
        userId: principal.user.id,
        userUuid: principal.user.uuid,
        companyId: tenant.companyId,
        companyUuid: tenant.companyUuid,
        scope: tenant.scope,
        // `?locale=` (sent by the portal with its language), else the user's saved language.
        locale: alertLocale(
          typeof (req.query as { locale?: unknown }).locale === 'string'
            ? (req.query as { locale: string }).locale
            : principal.user.locale,
        ),
      });
      socket.on('message', (raw: Buffer) => {
        let msg: unknown;
        try {
          msg = JSON.parse(raw.toString('utf8'));
        } catch {
          return; // not JSON: ignored
        }
        if ((msg as { event?: unknown } | null)?.event === 'ping')
          socket.send(JSON.stringify({ event: 'pong' }));
      });
      socket.on('close', remove);
      socket.on('error', remove);
    },
  );
}
