/**
 * Fine-grained permissions: `<resource>.<action>`. Spec section 6: allowed only if the user's
 * permission list contains the name. The spec leaves per-role capabilities open; the default set
 * of each user type (used when a membership stores no explicit list) is decided here:
 * - super_admin, admin: everything in their company (super admin: in every company);
 * - sub_company_admin: everything inside its station except users and creating/deleting stations;
 * - branch_admin: like sub_company_admin, and it cannot create or delete branches;
 * - school_admin: like branch_admin, and it cannot create or delete schools.
 * Scoped admins never manage users, so nobody can grant a wider scope than they hold.
 * 'settings' guards the company-wide notification rules, which have no station / branch / school: a
 * scoped admin may only read them (its scope holds none), never create, change or delete one (a create
 * used to be inserted and then not found in the scope: a 404 for a permitted call).
 */
export const resources = [
  'vehicles',
  'drivers',
  'devices',
  'users',
  'geofences',
  'branches',
  'stations',
  'schools',
  'passengers',
  'guardians',
  'supervisors',
  'trips',
  'scheduled-trips',
  'trips-app',
  'notifications',
  'device-trips',
  'geofence-events',
  'salik-events',
  'reports',
  'activity-log',
  'device-commands',
  'files',
  'settings',
] as const;
export type Resource = (typeof resources)[number];
export const actions = ['view', 'create', 'update', 'delete'] as const;
export type Action = (typeof actions)[number];

export const allPermissions: readonly string[] = resources.flatMap((r) => actions.map((a) => `${r}.${a}`));

export const userTypes = [
  'admin',
  'branch_admin',
  'school_admin',
  'sub_company_admin',
  'super_admin',
] as const;
export type UserType = (typeof userTypes)[number];

const without = (...names: string[]) =>
  allPermissions.filter((p) => !names.some((n) => p === n || p.startsWith(`${n}.`)));

export const defaultPermissions: Record<UserType, readonly string[]> = {
  super_admin: allPermissions,
  admin: allPermissions,
  sub_company_admin: without(
    'users',
    'stations.create',
    'stations.delete',
    'settings.create',
    'settings.update',
    'settings.delete',
  ),
  branch_admin: without(
    'users',
    'stations.create',
    'stations.update',
    'stations.delete',
    'branches.create',
    'branches.delete',
    'settings.create',
    'settings.update',
    'settings.delete',
  ),
  school_admin: without(
    'users',
    'stations.create',
    'stations.update',
    'stations.delete',
    'branches.create',
    'branches.update',
    'branches.delete',
    'schools.create',
    'schools.delete',
    'settings.create',
    'settings.update',
    'settings.delete',
  ),
};

/** Effective list: an explicit list when stored (NULL = the user type's default). */
export function effectivePermissions(userType: UserType, stored: readonly string[] | null): string[] {
  return [...(stored ?? defaultPermissions[userType])];
}

/** Spec section 6 check: no user means no; otherwise the list must contain the name. */
export function hasPermission(
  user: { permissions: readonly string[] } | null | undefined,
  name: string,
): boolean {
  return !!user && user.permissions.includes(name);
}
