import type { Queryable } from '../storage/db';
import { effectivePermissions, type UserType } from '../tenancy/permissions';
import { iso } from '../http/route';

/** Contract view of a user (userSchema), in the context of one company (or the first one). */
export async function userView(db: Queryable, userId: number, companyId: number | null) {
  const rows = await db.query<{
    uuid: string;
    name: string;
    email: string | null;
    phone: string | null;
    status: string;
    is_super_admin: boolean;
    data: { avatar?: string | null };
    last_login_at: Date | null;
    created_at: Date;
    updated_at: Date;
    user_type: UserType | null;
    role: string | null;
    permissions: string[] | null;
    branch_uuid: string | null;
    school_uuid: string | null;
    station_uuid: string | null;
  }>(
    `SELECT u.uuid, u.name, u.email, u.phone, u.status, u.is_super_admin, u.data, u.last_login_at, u.created_at,
            u.updated_at, m.user_type, m.role, m.permissions, b.uuid AS branch_uuid, s.uuid AS school_uuid,
            sc.uuid AS station_uuid
     FROM users u
     LEFT JOIN LATERAL (SELECT * FROM memberships WHERE user_id = u.id
                        ORDER BY (company_id = $2) DESC NULLS LAST, id LIMIT 1) m ON true
     LEFT JOIN branches b ON b.id = m.branch_id
     LEFT JOIN schools s ON s.id = m.school_id
     LEFT JOIN sub_companies sc ON sc.id = m.sub_company_id
     WHERE u.id = $1`,
    [userId, companyId],
  );
  const r = rows[0];
  if (!r) return null;
  const userType: UserType = r.is_super_admin ? 'super_admin' : (r.user_type ?? 'admin');
  return {
    uuid: r.uuid,
    name: r.name,
    email: r.email,
    phone: r.phone,
    role: r.role,
    status: r.status as 'active',
    user_type: userType,
    permissions: effectivePermissions(userType, r.is_super_admin ? null : r.permissions),
    branch_uuid: r.branch_uuid,
    school_uuid: r.school_uuid,
    station_uuid: r.station_uuid,
    avatar: r.data?.avatar ?? null,
    last_login_at: iso(r.last_login_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export interface CompanyRow {
  uuid: string;
  name: string;
  name_ar: string | null;
  country_code: string;
  settings: Record<string, unknown>;
  configurations: Record<string, unknown>;
  features: Record<string, boolean | number | string | null>;
}

export function companyView(c: CompanyRow) {
  return {
    uuid: c.uuid,
    name: c.name,
    name_ar: c.name_ar,
    country_code: c.country_code,
    settings: c.settings ?? {},
    configurations: c.configurations ?? {},
    features: c.features ?? {},
    logo: (c.settings?.logo as string | undefined) ?? null,
  };
}

/** Companies a user may select (super admin: all of them). */
export async function companiesOf(db: Queryable, userId: number, superAdmin: boolean) {
  const rows = await db.query<CompanyRow>(
    superAdmin
      ? `SELECT uuid, name, name_ar, country_code, settings, configurations, features FROM transport_companies
         WHERE status <> 'deleted' AND $1::bigint IS NOT NULL ORDER BY name`
      : `SELECT c.uuid, c.name, c.name_ar, c.country_code, c.settings, c.configurations, c.features
         FROM memberships m JOIN transport_companies c ON c.id = m.company_id
         WHERE m.user_id = $1 AND c.status <> 'deleted' ORDER BY c.name`,
    [userId],
  );
  return rows.map(companyView);
}
