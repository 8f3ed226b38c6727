import type { FastifyInstance } from 'fastify';
import { t } from './i18n';

/** Path of the portal's service worker script (apps/portal/public/sw.js). */
export const SERVICE_WORKER_PATH = '/sw.js';

/**
 * Security headers on every answer and a CORS allow-list. API answers get a locked-down CSP;
 * the portal's HTML gets one that allows its own scripts, map tiles over https and the socket.
 *
 * Why this stays hand-written (issue 22 asked for @fastify/helmet and @fastify/cors where they fit):
 * - the Content-Security-Policy is chosen per answer, after the handler ran, from its content type
 *   and path (the portal page, the service worker, the API docs, everything else sandboxed).
 *   @fastify/helmet fixes one policy per instance or per route; the portal's page and its files
 *   share one wildcard route, so it would need this same onSend choice on top of it;
 * - a refused preflight answers 403 with a message in the request's language (origin.forbidden);
 *   @fastify/cors only leaves the allow headers out. The allow-list itself is a set lookup.
 * The headers are pinned by app.test.ts, http/portal.test.ts and cluster/portal.test.ts.
 */
export function registerSecurity(app: FastifyInstance, corsOrigins: readonly string[]): void {
  const allowed = new Set(corsOrigins);
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && allowed.has(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Vary', 'Origin');
      reply.header('Access-Control-Expose-Headers', 'Content-Disposition');
      if (req.method === 'OPTIONS') {
        reply.header('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
        reply.header(
          'Access-Control-Allow-Headers',
          'Authorization,Content-Type,Timezone,X-Transport-Uuid,X-User-Uuid,X-Locale,X-Verification-Token',
        );
        reply.header('Access-Control-Max-Age', '600');
        return reply.code(204).send();
      }
    } else if (req.method === 'OPTIONS' && typeof origin === 'string') {
      return reply.code(403).send({ message: t(req.locale ?? 'en', 'origin.forbidden') });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    const hsts = (req.server.ctx.config as { HSTS_MAX_AGE?: number }).HSTS_MAX_AGE ?? 0;
    if (hsts > 0) reply.header('Strict-Transport-Security', `max-age=${hsts}; includeSubDomains`);
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(self)');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !req.url.startsWith('/v1/')) {
      reply.header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; " +
          "script-src 'self'; connect-src 'self' ws: wss:; font-src 'self' data:; frame-ancestors 'none'; " +
          "base-uri 'self'; object-src 'none'",
      );
    } else if (req.url.split('?')[0] === SERVICE_WORKER_PATH) {
      // The portal's service worker runs under this policy: it must fetch its own origin and keep a
      // real origin (a sandboxed worker has no secure context, so no Cache Storage, and every
      // navigation it handles fails).
      reply.header(
        'Content-Security-Policy',
        "default-src 'self'; connect-src 'self'; frame-ancestors 'none'",
      );
    } else if (req.url.startsWith('/v1/docs')) {
      reply.header(
        'Content-Security-Policy',
        "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
      );
    } else {
      reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
    }
    if (req.url.startsWith('/v1/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
