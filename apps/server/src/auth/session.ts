import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../storage/db';
import { HttpError, unauthenticated } from '../http/errors';
import { loadTenant, type AuthSession, type AuthUser, type Tenant } from '../tenancy/context';
import { effectivePermissions } from '../tenancy/permissions';
import { hashToken } from './crypto';

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

/** Resolve a session token; null for missing, unknown, expired or revoked tokens. */
export async function sessionFromToken(
  db: Queryable,
  token: string | null,
  now: Date,
): Promise<Principal | null> {
  if (!token) return null;
  const rows = await db.query<{
    session_id: number;
    company_id: number | null;
    last_used_at: Date;
    id: number;
    uuid: string;
    email: string | null;
    phone: string | null;
    name: string;
    status: string;
    is_super_admin: boolean;
    locale: string;
  }>(
    `SELECT s.id AS session_id, s.company_id, s.last_used_at, u.id, u.uuid, u.email, u.phone, u.name, u.status,
            u.is_super_admin, u.locale
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [hashToken(token), now.toISOString()],
  );
  const r = rows[0];
  if (!r || r.status !== 'active') return null;
  if (now.getTime() - new Date(r.last_used_at).getTime() > 60_000) {
    await db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [r.session_id, now.toISOString()]);
  }
  return {
    session: { id: r.session_id, companyId: r.company_id },
    user: {
      id: r.id,
      uuid: r.uuid,
      email: r.email,
      phone: r.phone,
      name: r.name,
      status: r.status,
      isSuperAdmin: r.is_super_admin,
      locale: r.locale,
    },
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The company of a request: X-Transport-Uuid, else the session's selected company, else the
 * user's only company. 403 when the user does not belong to it (super admins belong everywhere).
 */
export async function resolveTenant(db: Queryable, p: Principal, headerValue: unknown): Promise<Tenant> {
  let uuid = typeof headerValue === 'string' && headerValue.trim() ? headerValue.trim() : null;
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
  return tenant;
}

export { unauthenticated };
