import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { createHash, randomBytes } from 'node:crypto';
import { fileParamsSchema, fileQuerySchema } from '@fleet/api-client';
import { route, iso } from '../http/route';
import { HttpError, notFound, parseOr422, unauthenticated } from '../http/errors';
import { bearerToken, sessionFromToken } from '../auth/session';
import { t } from '../http/i18n';

/** Types we accept, recognised by their first bytes (the client's content type is ignored). */
const SIGNATURES: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    ext: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/gif',
    ext: 'gif',
    test: (b) =>
      b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { type: 'application/pdf', ext: 'pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
];

const ALLOWED: Record<string, string[]> = {
  avatars: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  images: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  documents: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
  exports: [
    'application/pdf',
    'text/csv',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
};

export function sniff(content: Buffer): { type: string; ext: string } | null {
  return SIGNATURES.find((s) => s.test(content)) ?? null;
}

/**
 * The `file` part of the request's multipart/form-data body (@fastify/multipart), read into memory up
 * to `limit` bytes; other parts are skipped. Null when there is no file part named `file` (a plain
 * field of that name does not count). Over the limit: the same 413 as before, in the request's
 * language.
 */
async function multipartFile(req: FastifyRequest, limit: number): Promise<Buffer | null> {
  const tooLarge = () =>
    new HttpError(
      413,
      'file.too_large',
      { mb: Math.floor(limit / 1048576) },
      { file: [t(req.locale, 'file.too_large', { mb: Math.floor(limit / 1048576) })] },
    );
  let found: Buffer | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: limit, files: 4, fields: 16, parts: 20 } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !found) found = await part.toBuffer();
        else part.file.resume();
      }
    }
  } catch (err) {
    if (err instanceof req.server.multipartErrors.RequestFileTooLargeError) throw tooLarge();
    // Everything else thrown here is the body's framing (no boundary, truncated, too many parts):
    // the request's fault, answered as a missing file, as the hand parser did.
    return found;
  }
  return found;
}

export function registerFileRoutes(app: FastifyInstance): void {
  const { storage, config } = app.ctx;
  const db = storage.db;
  const limit = config.UPLOAD_LIMIT;

  // Multipart bodies are parsed by @fastify/multipart, streamed, only inside the upload handler (after
  // authentication); a file part over UPLOAD_LIMIT stops the read. Registered on the root (it wraps
  // itself with fastify-plugin) before the routes below.
  void app.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: limit } });

  route(
    app,
    'files.upload',
    async ({ req, reply, params, tenant, principal }) => {
      const content = req.isMultipart() ? await multipartFile(req, limit) : null;
      if (!content || content.length === 0)
        throw new HttpError(422, 'validation.general', {}, { file: ['File is required'] });
      const kind = sniff(content);
      if (!kind || !ALLOWED[params.kind]?.includes(kind.type)) {
        // Field messages outside the shared rule texts are written in the request's language here.
        throw new HttpError(422, 'file.type', {}, { file: [t(req.locale, 'file.type')] });
      }
      const name = `${randomBytes(16).toString('hex')}.${kind.ext}`;
      const [row] = await db.query<{ created_at: Date }>(
        `INSERT INTO files (company_id, kind, name, content_type, size, sha256, content, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
        [
          tenant.companyId,
          params.kind,
          name,
          kind.type,
          content.length,
          createHash('sha256').update(content).digest('hex'),
          content,
          principal.user.id,
        ],
      );
      reply.code(201);
      return {
        data: {
          kind: params.kind,
          name,
          url: `/v1/file/${params.kind}/${name}`,
          size: content.length,
          content_type: kind.type,
          created_at: iso(row!.created_at)!,
        },
      };
    },
    { permission: 'files.create', bodyLimit: limit + 64 * 1024 },
  );

  /*
   * GET /v1/file/:kind/:name: Authorization header or ?token= (media_app_token, for <img> tags, which
   * cannot send X-Transport-Uuid). Who may read what:
   * - avatars, images, documents: members of the owning company (any role: the files are not tied
   *   to a branch or school record), and super admins;
   * - exports (report files): only the user who asked for the report, while still a member of the
   *   company (or a super admin) — like GET /v1/reports/exports/:uuid, which shows the job to its
   *   owner only. Other users of the same company, super admins included, get the same 404 as
   *   another company or a name that does not exist.
   * A file without an owning company (the server never writes one) is served to super admins only.
   */
  app.get('/v1/file/:kind/:name', async (req, reply) => {
    const params = parseOr422(fileParamsSchema, req.params);
    const query = parseOr422(fileQuerySchema, req.query ?? {});
    const principal = await sessionFromToken(db, bearerToken(req, query), app.ctx.now(), {
      allowMedia: true,
    });
    if (!principal) throw unauthenticated();
    const rows = await db.query<{
      content: Buffer | Uint8Array;
      content_type: string;
      size: number;
      sha256: string;
    }>(
      // Export files keep their content in parts (migration 0028), joined here in order.
      `SELECT coalesce((SELECT string_agg(p.data, ''::bytea ORDER BY p.seq) FROM file_parts p WHERE p.file_id = f.id),
                       f.content) AS content, f.content_type, f.size, f.sha256 FROM files f
       WHERE f.kind = $1 AND f.name = $2
         AND ($4 OR f.company_id IN (SELECT company_id FROM memberships WHERE user_id = $3))
         AND (f.kind <> 'exports' OR f.created_by = $3)`,
      [params.kind, params.name, principal.user.id, principal.user.isSuperAdmin],
    );
    const f = rows[0];
    if (!f) throw notFound();
    const inline = f.content_type.startsWith('image/');
    return reply
      .header('Content-Type', f.content_type)
      .header('Content-Length', String(f.size))
      .header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${params.name}"`)
      .header('ETag', `"${f.sha256}"`)
      .header('Cache-Control', 'private, max-age=3600')
      .send(Buffer.from(f.content));
  });
}
