import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_WORKER_PATH } from './security';
import { t } from './i18n';

/**
 * Where the built portal is: PORTAL_DIST, else apps/portal/dist. The embedded server (main.ts) and
 * the API nodes of the scale-out mode (cluster/node.ts) both serve it from here, with the same
 * {@link registerPortal}, so either is the whole web tier.
 */
export function portalDist(config: { PORTAL_DIST?: string | undefined }): string {
  return resolve(config.PORTAL_DIST ?? fileURLToPath(new URL('../../../portal/dist', import.meta.url)));
}

/**
 * Serve the built portal from the same origin with @fastify/static: files under `dist`, anything else
 * that is not /v1 or /ws falls back to index.html (client-side routes). Paths are resolved inside
 * `dist` (no traversal). The build compresses the text files once (apps/portal/scripts/compress-dist.mjs:
 * `.br` and `.gz` beside each); `preCompressed` sends the copy the request's Accept-Encoding allows,
 * with `Vary: Accept-Encoding`, so serving costs no compression work.
 *
 * Content types come from @fastify/static's table, except scripts: it says application/javascript,
 * we keep text/javascript (RFC 9239, and what the portal has always been served with).
 */
export function registerPortal(app: FastifyInstance, dist: string): boolean {
  const root = resolve(dist);
  const index = join(root, 'index.html');
  if (!existsSync(index)) return false;
  void app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (res, served) => {
      // `served` is the .br / .gz copy when one is sent; headers follow the file it stands for.
      const file = served.replace(/\.(br|gz)$/, '');
      const rel = relative(root, file);
      res.setHeader(
        'Cache-Control',
        // The page and the service worker are checked on every load (a new build takes effect at once).
        file === index || `/${rel.split(sep).join('/')}` === SERVICE_WORKER_PATH
          ? 'no-cache'
          : rel.startsWith(`assets${sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
      );
      // A file with compressed copies is answered per Accept-Encoding: caches must key on it.
      if (served !== file || existsSync(`${file}.br`) || existsSync(`${file}.gz`))
        res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  const onSend = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (String(reply.getHeader('content-type')).startsWith('application/javascript'))
      reply.header('Content-Type', 'text/javascript; charset=utf-8');
    return payload;
  };
  // compress: false - the build already wrote the .br/.gz copies worth having; @fastify/compress
  // would otherwise compress every streamed file again on each request (tiny ones included).
  app.get('/*', { onSend, compress: false }, async (req, reply) => {
    const path = decodeURIComponent(req.url.split('?')[0] ?? '/');
    if (path.startsWith('/v1/') || path === '/v1' || path.startsWith('/ws/')) {
      return reply.code(404).send({ message: t(req.locale ?? 'en', 'not_found') });
    }
    const file = resolve(root, '.' + path);
    const inside = file !== root && file.startsWith(root + sep);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) return reply.sendFile('index.html');
    return reply.sendFile(relative(root, file));
  });
  return true;
}
