import type { Queryable } from '../storage/db';
import type { UserType } from './permissions';
import { rankOf, type Rank } from './ranks';

/** The signed-in user as the request handlers see it. */
export interface AuthUser {
  id: number;
  uuid: string;
  email: string | null;
  phone: string | null;
  name: string;
  status: string;
  isSuperAdmin: boolean;
  locale: string;
}

/** The users columns an AuthUser is read from (table alias `u`). */
export const AUTH_USER_COLUMNS =
  'u.id, u.uuid, u.email, u.phone, u.name, u.status, u.is_super_admin, u.locale';

/** A row of {@link AUTH_USER_COLUMNS}. */
export interface AuthUserRow {
  id: number;
  uuid: string;
  email: string | null;
  phone: string | null;
  name: string;
  status: string;
  is_super_admin: boolean;
  locale: string;
}

export function authUserOf(r: AuthUserRow): AuthUser {
  return {
    id: Number(r.id),
    uuid: r.uuid,
    email: r.email,
    phone: r.phone,
    name: r.name,
    status: r.status,
    isSuperAdmin: r.is_super_admin,
    locale: r.locale,
  };
}

export interface AuthSession {
  id: number;
  companyId: number | null;
}

/**
 * Role scope inside a company: a column of the scoped tables and the id it must equal.
 * `null` = whole company (admin, super admin).
 */
export interface Scope {
  column: 'sub_company_id' | 'branch_id' | 'school_id';
  id: number;
}

/** The company a request acts in (X-Transport-Uuid), the user's place in it, and its permissions. */
export interface Tenant {
  companyId: number;
  companyUuid: string;
  countryCode: string;
  features: Record<string, unknown>;
  userType: UserType;
  scope: Scope | null;
  /** Ids of the scope, for reading records back as uuids. */
  subCompanyId: number | null;
  branchId: number | null;
  schoolId: number | null;
  permissions: string[];
  /** Rank in the rank model (tenancy/ranks.ts): 4 super admin ... 1 user with explicit permissions. */
  rank: Rank;
}

export function scopeOf(m: {
  user_type: UserType;
  sub_company_id: number | null;
  branch_id: number | null;
  school_id: number | null;
}): Scope | null {
  switch (m.user_type) {
    case 'sub_company_admin':
      return { column: 'sub_company_id', id: m.sub_company_id ?? -1 };
    case 'branch_admin':
      return { column: 'branch_id', id: m.branch_id ?? -1 };
    case 'school_admin':
      return { column: 'school_id', id: m.school_id ?? -1 };
    default:
      return null;
  }
}

/**
 * SQL condition restricting `alias` rows of a scoped table to the tenant (company and role scope),
 * with parameters appended to `params`. `selfScope` names the column that identifies the row itself
 * for the scope's own table (a branch admin sees its branch: `id = branch_id`).
 */
export function tenantCondition(
  tenant: Tenant,
  alias: string,
  params: unknown[],
  opts: { selfScope?: Scope['column'] } = {},
): string {
  params.push(tenant.companyId);
  let cond = `${alias}.company_id = $${params.length}`;
  if (tenant.scope) {
    params.push(tenant.scope.id);
    const col = opts.selfScope === tenant.scope.column ? 'id' : tenant.scope.column;
    cond += ` AND ${alias}.${col} = $${params.length}`;
  }
  return cond;
}

/** Load the tenant for a user and a company uuid; null when the user may not act there. */
export async function loadTenant(
  db: Queryable,
  user: AuthUser,
  companyUuid: string,
  effective: (t: UserType, stored: string[] | null) => string[],
): Promise<Tenant | null> {
  const rows = await db.query<{
    id: number;
    uuid: string;
    country_code: string;
    features: Record<string, unknown>;
    user_type: UserType | null;
    sub_company_id: number | null;
    branch_id: number | null;
    school_id: number | null;
    permissions: string[] | null;
  }>(
    `SELECT c.id, c.uuid, c.country_code, c.features, m.user_type, m.sub_company_id, m.branch_id, m.school_id,
            m.permissions
     FROM transport_companies c
     LEFT JOIN memberships m ON m.company_id = c.id AND m.user_id = $1
     WHERE c.uuid = $2 AND c.status <> 'deleted'`,
    [user.id, companyUuid],
  );
  const r = rows[0];
  if (!r) return null;
  let userType = r.user_type;
  if (!userType) {
    if (!user.isSuperAdmin) return null;
    userType = 'super_admin';
  }
  if (user.isSuperAdmin) userType = 'super_admin';
  const m = {
    user_type: userType,
    sub_company_id: r.sub_company_id,
    branch_id: r.branch_id,
    school_id: r.school_id,
  };
  return {
    companyId: r.id,
    companyUuid: r.uuid,
    countryCode: r.country_code,
    features: r.features ?? {},
    userType,
    scope: scopeOf(m),
    subCompanyId: r.sub_company_id,
    branchId: r.branch_id,
    schoolId: r.school_id,
    permissions: effective(userType, user.isSuperAdmin ? null : r.permissions),
    rank: rankOf({
      isSuperAdmin: user.isSuperAdmin,
      userType,
      explicit: !user.isSuperAdmin && r.permissions !== null,
    }),
  };
}
