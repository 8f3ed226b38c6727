import type { Tenant } from '../tenancy/context';

type ScopeKey = 'sub_company_id' | 'branch_id' | 'school_id';
export type ScopeMap = Partial<Record<ScopeKey, string>>;

const full: ScopeMap = { sub_company_id: 'sub_company_id', branch_id: 'branch_id', school_id: 'school_id' };

/**
 * How each tenant table answers to the role scopes: which of its columns holds the station,
 * branch and school. A table "above" a scope (a branch admin reading stations) is matched by the
 * nearest level it has (its own station).
 */
export const tableScopes: Record<string, ScopeMap> = {
  sub_companies: { sub_company_id: 'id' },
  branches: { sub_company_id: 'sub_company_id', branch_id: 'id' },
  schools: { sub_company_id: 'sub_company_id', branch_id: 'branch_id', school_id: 'id' },
  vehicles: full,
  drivers: full,
  devices: full,
  guardians: full,
  passengers: full,
  supervisors: full,
  geofences: full,
  trips: full,
  scheduled_trips: full,
  trips_app: full,
};

const tenantValue = (t: Tenant, k: ScopeKey) =>
  k === 'sub_company_id' ? t.subCompanyId : k === 'branch_id' ? t.branchId : t.schoolId;

/**
 * SQL restricting rows of `table` (as `alias`) to the tenant: its company and, for scoped admins,
 * its station / branch / school. Parameters are appended to `params`.
 */
export function scopeSql(table: string, alias: string, tenant: Tenant, params: unknown[]): string {
  params.push(tenant.companyId);
  const sql = `${alias}.company_id = $${params.length}`;
  if (!tenant.scope) return sql;
  const map = tableScopes[table] ?? {};
  const direct = map[tenant.scope.column];
  let cond: string | null = null;
  if (direct) {
    params.push(tenant.scope.id);
    cond = `${alias}.${direct} = $${params.length}`;
  } else {
    for (const k of ['school_id', 'branch_id', 'sub_company_id'] as const) {
      const v = tenantValue(tenant, k);
      if (map[k] && v !== null) {
        params.push(v);
        cond = `${alias}.${map[k]} = $${params.length}`;
        break;
      }
    }
  }
  if (table === 'devices' && cond) {
    // A device is also visible through a vehicle of the scope that carries it.
    const vehicleCond = scopeSql('vehicles', 'sv', tenant, params);
    cond = `(${cond} OR EXISTS (SELECT 1 FROM vehicles sv WHERE (sv.device_imei = ${alias}.imei OR sv.gps_device_imei = ${alias}.imei) AND ${vehicleCond}))`;
  }
  return `${sql} AND ${cond ?? 'false'}`;
}

/** Scope columns a new row of `table` gets from a scoped tenant (only those the table has as such). */
export function forcedScope(table: string, tenant: Tenant): Partial<Record<ScopeKey, number>> {
  const out: Partial<Record<ScopeKey, number>> = {};
  if (!tenant.scope) return out;
  const map = tableScopes[table] ?? {};
  for (const k of ['sub_company_id', 'branch_id', 'school_id'] as const) {
    const v = tenantValue(tenant, k);
    if (map[k] === k && v !== null) out[k] = v;
  }
  return out;
}
