import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../storage/db';
import { HttpError, unauthenticated } from '../http/errors';
import {
  AUTH_USER_COLUMNS,
  authUserOf,
  loadTenant,
  type AuthSession,
  type AuthUser,
  type AuthUserRow,
  type Tenant,
} from '../tenancy/context';
import { effectivePermissions } from '../tenancy/permissions';
import { hashToken } from './crypto';
import { authCacheOf, TOUCH_SESSION_SQL } from './cache';

export interface Principal {
  user: AuthUser;
  session: AuthSession;
}

/** Bearer token from the Authorization header (or, for WebSockets, the `token` query). */
export function bearerToken(req: Pick<FastifyRequest, 'headers'>, query?: unknown): string | null {
  const h = req.headers.authorization;
  if (typeof h === 'string') {
    const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(h.trim());
    if (m) return m[1]!;
  }
  const q = (query as { token?: unknown } | undefined)?.token;
  if (typeof q === 'string' && /^[A-Za-z0-9_-]{20,200}$/.test(q)) return q;
  return null;
}

/** A resolved session as cached: the principal plus what decides whether it is still valid. */
interface CachedSession {
  principal: Principal;
  expiresAt: number;
  lastUsedAt: number;
  /** A media token's session (read-only, files and live feed only). */
  media: boolean;
}

/**
 * Resolve a session token; null for missing, unknown, expired or revoked tokens.
 *
 * Answers come from the database's auth cache when present (see auth/cache.ts: emptied by every
 * write to sessions, users, memberships or companies, here and on the other nodes of a cluster),
 * so most requests authenticate without a query. Unknown tokens are never cached.
 */
export async function sessionFromToken(
  db: Queryable,
  token: string | null,
  now: Date,
  opts: { allowMedia?: boolean } = {},
): Promise<Principal | null> {
  if (!token) return null;
  const hash = hashToken(token);
  const cache = authCacheOf(db);
  const at = now.getTime();
  const key = `s|${hash}`;
  const hit = cache?.get<CachedSession>(key, at);
  // A media token (issue 18) opens only the file routes and the live feed (opts.allowMedia).
  if (hit && hit.media && !opts.allowMedia) return null;
  if (hit && hit.expiresAt > at) {
    if (at - hit.lastUsedAt > 60_000) {
      hit.lastUsedAt = at;
      await db.query(TOUCH_SESSION_SQL, [hit.principal.session.id, now.toISOString()]);
    }
    return hit.principal;
  }
  const epoch = cache?.epoch ?? 0;
  const rows = await db.query<
    AuthUserRow & {
      session_id: number;
      company_id: number | null;
      last_used_at: Date;
      expires_at: Date;
      kind: string;
    }
  >(
    `SELECT s.id AS session_id, s.company_id, s.last_used_at, s.expires_at, s.kind, ${AUTH_USER_COLUMNS}
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2
       AND (s.parent_id IS NULL OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_id
                                           AND p.revoked_at IS NULL AND p.expires_at > $2))`,
    [hash, now.toISOString()],
  );
  const r = rows[0];
  if (!r || r.status !== 'active') return null;
  const media = r.kind === 'media';
  let lastUsedAt = new Date(r.last_used_at).getTime();
  if (at - lastUsedAt > 60_000) {
    await db.query(TOUCH_SESSION_SQL, [r.session_id, now.toISOString()]);
    lastUsedAt = at;
  }
  const principal: Principal = {
    session: Object.freeze({ id: r.session_id, companyId: r.company_id }),
    user: Object.freeze(authUserOf(r)),
  };
  Object.freeze(principal);
  cache?.set(key, { principal, expiresAt: new Date(r.expires_at).getTime(), lastUsedAt, media }, epoch, at);
  return media && !opts.allowMedia ? null : principal;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The company of a request: X-Transport-Uuid, else the session's selected company, else the
 * user's only company. 403 when the user does not belong to it (super admins belong everywhere).
 */
export async function resolveTenant(db: Queryable, p: Principal, headerValue: unknown): Promise<Tenant> {
  let uuid = typeof headerValue === 'string' && headerValue.trim() ? headerValue.trim() : null;
  // Cached per session and header (see sessionFromToken); refusals are not cached.
  const cache = authCacheOf(db);
  const at = Date.now();
  const key = `t|${p.session.id}|${p.user.id}|${uuid ?? ''}`;
  const hit = cache?.get<Tenant>(key, at);
  if (hit) return hit;
  const epoch = cache?.epoch ?? 0;
  if (!uuid) {
    const rows = await db.query<{ uuid: string }>(
      p.session.companyId
        ? 'SELECT uuid FROM transport_companies WHERE id = $1'
        : `SELECT c.uuid FROM memberships m JOIN transport_companies c ON c.id = m.company_id WHERE m.user_id = $1`,
      [p.session.companyId ?? p.user.id],
    );
    if (rows.length !== 1) throw new HttpError(400, 'transport.required');
    uuid = rows[0]!.uuid;
  }
  if (!UUID_RE.test(uuid)) throw new HttpError(403, 'transport.forbidden');
  const tenant = await loadTenant(db, p.user, uuid.toLowerCase(), effectivePermissions);
  if (!tenant) throw new HttpError(403, 'transport.forbidden');
  Object.freeze(tenant.permissions);
  Object.freeze(tenant.features);
  if (tenant.scope) Object.freeze(tenant.scope);
  cache?.set(key, Object.freeze(tenant), epoch, at);
  return tenant;
}

export { unauthenticated };
