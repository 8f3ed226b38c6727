import type { FastifyInstance } from 'fastify';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_WORKER_PATH } from './security';
import { t } from './i18n';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * Where the built portal is: PORTAL_DIST, else apps/portal/dist. The embedded server (main.ts) and
 * the API nodes of the scale-out mode (cluster/node.ts) both serve it from here, with the same
 * {@link registerPortal}, so either is the whole web tier.
 */
export function portalDist(config: { PORTAL_DIST?: string | undefined }): string {
  return resolve(config.PORTAL_DIST ?? fileURLToPath(new URL('../../../portal/dist', import.meta.url)));
}

/**
 * Serve the built portal from the same origin: files under `dist`, anything else that is not
 * /v1 or /ws falls back to index.html (client-side routes). Paths are resolved and must stay inside
 * `dist` (no traversal); unknown extensions are sent as octet-stream with nosniff.
 */
export function registerPortal(app: FastifyInstance, dist: string): boolean {
  const root = resolve(dist);
  const index = join(root, 'index.html');
  if (!existsSync(index)) return false;
  app.get('/*', async (req, reply) => {
    const path = decodeURIComponent(req.url.split('?')[0] ?? '/');
    if (path.startsWith('/v1/') || path === '/v1' || path.startsWith('/ws/')) {
      return reply.code(404).send({ message: t(req.locale ?? 'en', 'not_found') });
    }
    let file = resolve(root, '.' + path);
    if (file !== root && !file.startsWith(root + sep)) file = index;
    if (!existsSync(file) || !statSync(file).isFile()) file = index;
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const immutable = file.includes(`${sep}assets${sep}`);
    return reply
      .header('Content-Type', type)
      .header(
        'Cache-Control',
        // The page and the service worker are checked on every load (a new build takes effect at once).
        file === index || path === SERVICE_WORKER_PATH
          ? 'no-cache'
          : immutable
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
      )
      .send(createReadStream(file));
  });
  return true;
}
