import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { Config } from './config/config';
import type { Storage } from './storage/storage';
import type { Bus } from './realtime/bus';
import type { Messenger } from './auth/messenger';
import { HttpError, forbidden, unauthenticated, uniqueViolationError, validationError } from './http/errors';
import { parseLocale, t, type Locale } from './http/i18n';
import { registerSecurity } from './http/security';
import { bearerToken, resolveTenant, sessionFromToken, type Principal } from './auth/session';
import type { Tenant } from './tenancy/context';
import type { RealtimeHub } from './realtime/hub';

export interface AppDeps {
  config: Config;
  storage: Storage;
  bus: Bus;
  messenger: Messenger;
  /** Clock (tests inject a fixed one). */
  now?: () => Date;
  /** Fastify logger on/off (tests: off). */
  logger?: boolean;
}

export interface AppContext {
  config: Config;
  storage: Storage;
  bus: Bus;
  messenger: Messenger;
  /** The WebSocket hub, set by the realtime part (realtime/plugin.ts); undefined without it. */
  hub?: RealtimeHub | undefined;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    locale: Locale;
    timezone: string;
    principalCache?: Principal | null;
  }
}

/** When each user's language was last saved by this process (see rememberLocale). */
const localeSavedAt = new Map<string, number>();

/**
 * The spec has the portal send the chosen language as X-Locale on every call. What the server writes
 * later, outside any request (alert notifications, pushes, e-mails), uses the user's saved language, so a
 * signed-in request whose X-Locale differs from it saves it: the last language used wins. The same
 * language is saved at most once per 10 s per user and process, so two tabs in two languages cannot turn
 * every request into a write.
 */
async function rememberLocale(req: FastifyRequest, principal: Principal): Promise<void> {
  const header = req.headers['x-locale'];
  if (typeof header !== 'string' || header.trim() === '') return;
  const saved: Locale = principal.user.locale.toLowerCase().startsWith('ar') ? 'ar' : 'en';
  if (req.locale === saved) return;
  const at = Date.now();
  const key = `${principal.user.uuid}|${req.locale}`;
  if (at - (localeSavedAt.get(key) ?? 0) < 10_000) return;
  if (localeSavedAt.size > 10_000) localeSavedAt.clear();
  localeSavedAt.set(key, at);
  await req.server.ctx.storage.db.query('UPDATE users SET locale = $2 WHERE id = $1', [
    principal.user.id,
    req.locale,
  ]);
}

/** The signed-in principal of a request, or 401. */
export async function requirePrincipal(req: FastifyRequest): Promise<Principal> {
  if (req.principalCache === undefined) {
    const { storage, now } = req.server.ctx;
    req.principalCache = await sessionFromToken(storage.db, bearerToken(req), now());
    if (req.principalCache) await rememberLocale(req, req.principalCache);
  }
  if (!req.principalCache) throw unauthenticated();
  return req.principalCache;
}

/** Principal + tenant of a request (X-Transport-Uuid), checking a permission when given. */
export async function requireTenant(
  req: FastifyRequest,
  permission?: string,
): Promise<{ principal: Principal; tenant: Tenant }> {
  const principal = await requirePrincipal(req);
  const tenant = await resolveTenant(req.server.ctx.storage.db, principal, req.headers['x-transport-uuid']);
  if (permission && !tenant.permissions.includes(permission)) throw forbidden();
  return { principal, tenant };
}

function validTimezone(tz: unknown): string {
  if (typeof tz !== 'string' || tz.length > 64) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

const PG_CLIENT_ERRORS = new Set([
  '22P02',
  '22007',
  '22008',
  '22003',
  '22023',
  '2201X',
  '22001',
  '22004',
  '22021',
]);

export function buildApp(deps: AppDeps): FastifyInstance {
  const { config } = deps;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            // Never log query strings or headers: the WebSocket token may travel as ?token=.
            serializers: {
              req: (r: { method: string; url: string; ip?: string }) => ({
                method: r.method,
                url: r.url.split('?')[0],
                remoteAddress: r.ip,
              }),
            },
          },
    bodyLimit: config.BODY_LIMIT,
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    routerOptions: { maxParamLength: 200 },
  });
  const now = deps.now ?? (() => new Date());
  app.decorate('ctx', { ...deps, now });
  app.decorateRequest('locale', 'en');
  app.decorateRequest('timezone', 'UTC');

  app.addHook('onRequest', async (req) => {
    req.locale = parseLocale(req.headers['x-locale']);
    req.timezone = validTimezone(req.headers.timezone);
  });
  registerSecurity(app, config.CORS_ORIGINS);

  app.setErrorHandler((err, req, reply) => {
    const locale = req.locale ?? 'en';
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send(err.render(locale));
    }
    if (err instanceof ZodError) {
      const e = validationError(err);
      return reply.code(422).send(e.render(locale));
    }
    const e = err as {
      code?: string;
      statusCode?: number;
      message?: string;
      constraint?: string;
      detail?: string;
    };
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) {
      return reply.code(413).send({ message: t(locale, 'too_large') });
    }
    if (e.code === '23505') {
      return reply.code(422).send(uniqueViolationError(e).render(locale));
    }
    // A foreign key refusing a delete: 23503 (foreign_key_violation) on PostgreSQL up to 16, 23001
    // (restrict_violation, ON DELETE RESTRICT) on PostgreSQL 17 and PGlite. The entity definitions
    // check their dependents first and name them; this is the last resort.
    if (e.code === '23503' || e.code === '23001') {
      return reply
        .code(409)
        .send({ message: t(locale, 'in_use', { entity: 'record', dependents: 'other records' }) });
    }
    if (e.code && PG_CLIENT_ERRORS.has(e.code)) {
      return reply.code(422).send({ message: t(locale, 'validation.general') });
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({ message: t(locale, 'bad_request') });
    }
    req.log.error({ err }, 'unhandled error');
    if (process.env.FLEET_DEBUG_ERRORS) console.error(err);
    return reply.code(500).send({ message: t(locale, 'server_error') });
  });

  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ message: t(req.locale ?? 'en', 'not_found') }),
  );

  return app;
}

/** Fastify's trustProxy from TRUST_PROXY ('false' | 'true' | hop count | comma-separated addresses). */
export function trustProxyOf(v: string): boolean | string[] | ((address: string, hop: number) => boolean) {
  const t = v.trim().toLowerCase();
  if (t === '' || t === 'false') return false;
  if (t === 'true') return true;
  if (/^\d+$/.test(t)) {
    const hops = Number(t);
    return (_address, hop) => hop < hops;
  }
  return t
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
