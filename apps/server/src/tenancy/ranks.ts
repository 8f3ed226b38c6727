/**
 * The rank model: who may manage whom. Every user-management route (apps/server/src/entities/users.ts)
 * asks here and nowhere else.
 *
 * Ranks, highest first:
 *   4 super admin (platform operator, `users.is_super_admin`)
 *   3 company admin (membership `admin` with the type's default permissions)
 *   2 station / branch / school admin (`sub_company_admin`, `branch_admin`, `school_admin`, defaults)
 *   1 user with explicit permissions (a membership that stores its own permission list, any type)
 *
 * Rules (decided for issue 18; each has a test in security-tests/privilege-matrix.test.ts):
 * - A super admin may manage anyone. Only a super admin may create, edit, deactivate, delete or reset
 *   a super admin (a company admin never touches the platform operator).
 * - Otherwise the actor may manage a target only when all of these hold:
 *   a. the target's rank is not above the actor's. Equal rank is allowed: a company must be able to
 *      offboard its own company admins without the platform operator, and rule b already stops an
 *      equal from gaining anything by it;
 *   b. the target holds no permission the actor does not hold (resetting someone's password or
 *      e-mail is taking over their account: it must never yield more than the actor already has);
 *   c. the target's membership lies inside the actor's scope (a branch admin manages users of its
 *      branch only; a scoped actor never manages company-wide users);
 *   d. for the global parts of the account (password, e-mail, phone - both sign-in identities - and
 *      status, which locks the account everywhere): the target belongs to no other company. A user of
 *      several companies has these changed only by themselves or a super admin; a company may still
 *      remove its own membership of them (delete) and edit that membership.
 * - Grants (create, update, permission edit, user type change): the resulting membership's effective
 *   permissions (an empty list means the type's defaults, so `[]` for `admin` is all of them) must be
 *   a subset of the actor's; its rank must not be above the actor's; its scope must lie inside the
 *   actor's; and only a super admin creates a super admin.
 * - Nobody deactivates or deletes themselves (they would lock themselves out by accident).
 */
import { HttpError } from '../http/errors';
import type { Queryable } from '../storage/db';
import type { AuthUser, Scope, Tenant } from './context';
import { defaultPermissions, effectivePermissions, type UserType } from './permissions';

export type Rank = 1 | 2 | 3 | 4;

export const RANK_NAMES: Record<Rank, string> = {
  4: 'super admin',
  3: 'company admin',
  2: 'station / branch / school admin',
  1: 'user with explicit permissions',
};

/** Rank of a membership (or of a super admin, whatever their membership says). */
export function rankOf(m: { isSuperAdmin: boolean; userType: UserType; explicit: boolean }): Rank {
  if (m.isSuperAdmin || m.userType === 'super_admin') return 4;
  if (m.explicit) return 1;
  return m.userType === 'admin' ? 3 : 2;
}

/** What a user-management call does to its target. */
export type ManageVerb = 'update' | 'password' | 'email' | 'status' | 'delete' | 'permissions';

/** The verbs touching the global user row (shared by every company the user belongs to). */
const GLOBAL_VERBS: ReadonlySet<ManageVerb> = new Set(['password', 'email', 'status']);

/** The acting user in the company of the request. */
export interface Actor {
  user: Pick<AuthUser, 'id' | 'isSuperAdmin'>;
  tenant: Pick<Tenant, 'userType' | 'scope' | 'permissions' | 'rank'>;
}

/** A target user as seen from one company. */
export interface Target {
  id: number;
  isSuperAdmin: boolean;
  userType: UserType;
  permissions: string[];
  rank: Rank;
  scopeIds: ScopeIds;
  /** Memberships in other companies. */
  otherCompanies: number;
}

export interface ScopeIds {
  sub_company_id: number | null;
  branch_id: number | null;
  school_id: number | null;
}

/** The 403 of the rank model, with a sentence saying why (en/ar in http/i18n.ts). */
export const rankForbidden = (
  reason: 'rank' | 'scope' | 'grant' | 'multi' | 'self' | 'super' | 'platform',
) => new HttpError(403, `rank.${reason}`);

/**
 * Platform operation (listing and onboarding transport companies, issue 18 finding 10) is for rank 4
 * only: a company admin of any company, a scoped admin or a user with every permission is refused,
 * whatever company header they send (the routes are session-level, not company-level).
 */
export function assertPlatformOperator(user: Pick<AuthUser, 'isSuperAdmin'>): void {
  if (!user.isSuperAdmin) throw rankForbidden('platform');
}

function inScope(scope: Scope | null, ids: ScopeIds): boolean {
  return !scope || ids[scope.column] === scope.id;
}

function subset(of: readonly string[], held: readonly string[]): boolean {
  const h = new Set(held);
  return of.every((p) => h.has(p));
}

/** Load the target user of `uuid` as a member of the company; null when not a member. */
export async function loadTarget(db: Queryable, companyId: number, uuid: string): Promise<Target | null> {
  const rows = await db.query<{
    id: number;
    is_super_admin: boolean;
    user_type: UserType;
    permissions: string[] | null;
    sub_company_id: number | null;
    branch_id: number | null;
    school_id: number | null;
    others: number;
  }>(
    `SELECT u.id, u.is_super_admin, m.user_type, m.permissions, m.sub_company_id, m.branch_id, m.school_id,
            (SELECT count(*)::int FROM memberships o WHERE o.user_id = u.id AND o.company_id <> $2) AS others
     FROM users u JOIN memberships m ON m.user_id = u.id AND m.company_id = $2
     WHERE u.uuid = $1`,
    [uuid, companyId],
  );
  const r = rows[0];
  if (!r) return null;
  const userType: UserType = r.is_super_admin ? 'super_admin' : r.user_type;
  return {
    id: Number(r.id),
    isSuperAdmin: r.is_super_admin,
    userType,
    permissions: effectivePermissions(userType, r.is_super_admin ? null : r.permissions),
    rank: rankOf({ isSuperAdmin: r.is_super_admin, userType, explicit: r.permissions !== null }),
    scopeIds: { sub_company_id: r.sub_company_id, branch_id: r.branch_id, school_id: r.school_id },
    otherCompanies: Number(r.others),
  };
}

/**
 * May `actor` do `verbs` to `target`? Throws the 403 of the first rule broken (see the module doc).
 */
export function assertMayManage(actor: Actor, target: Target, verbs: readonly ManageVerb[]): void {
  const self = actor.user.id === target.id;
  if (self && (verbs.includes('status') || verbs.includes('delete'))) throw rankForbidden('self');
  if (actor.user.isSuperAdmin) return;
  if (target.isSuperAdmin || target.rank === 4) throw rankForbidden('super');
  if (self) return; // own name, password, e-mail; grants are checked by assertMayGrant
  if (target.rank > actor.tenant.rank) throw rankForbidden('rank');
  if (!subset(target.permissions, actor.tenant.permissions)) throw rankForbidden('rank');
  if (!inScope(actor.tenant.scope, target.scopeIds)) throw rankForbidden('scope');
  if (target.otherCompanies > 0 && verbs.some((v) => GLOBAL_VERBS.has(v))) throw rankForbidden('multi');
}

/** The membership a create or update asks for. */
export interface Grant {
  userType: UserType;
  /** As sent: an empty list means the type's defaults. */
  permissions: readonly string[];
  scopeIds: ScopeIds;
}

/** The effective permissions and rank a grant results in. */
export function grantResult(g: Grant): { permissions: string[]; rank: Rank } {
  const explicit = g.permissions.length > 0;
  return {
    permissions: effectivePermissions(g.userType, explicit ? [...g.permissions] : null),
    rank: rankOf({ isSuperAdmin: false, userType: g.userType, explicit }),
  };
}

/** May `actor` give a user this membership? Throws the rank model's 403 otherwise. */
export function assertMayGrant(actor: Actor, g: Grant): void {
  if (g.userType === 'super_admin') {
    if (!actor.user.isSuperAdmin) throw rankForbidden('super');
    return;
  }
  if (actor.user.isSuperAdmin) return;
  const result = grantResult(g);
  if (result.rank > actor.tenant.rank) throw rankForbidden('grant');
  if (!subset(result.permissions, actor.tenant.permissions)) throw rankForbidden('grant');
  if (!inScope(actor.tenant.scope, g.scopeIds)) throw rankForbidden('scope');
}

/** Defaults of a type, re-exported for tests that reason about grants. */
export { defaultPermissions };
