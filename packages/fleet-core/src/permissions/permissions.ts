/**
 * Users, permissions and features (spec section 6). The wire values of the user types are not shown
 * in the spec; core uses snake_case names.
 */

export const userTypes = [
  'admin',
  'branch_admin',
  'school_admin',
  'sub_company_admin',
  'super_admin',
] as const;
export type UserType = (typeof userTypes)[number];

export const userTypeLabels: Record<UserType, { en: string; ar: string }> = {
  admin: { en: 'Admin', ar: 'مسؤول' },
  branch_admin: { en: 'Branch admin', ar: 'مسؤول فرع' },
  school_admin: { en: 'School admin', ar: 'مسؤول مدرسة' },
  sub_company_admin: { en: 'Sub company admin', ar: 'مسؤول شركة فرعية' },
  super_admin: { en: 'Super admin', ar: 'مسؤول أعلى' },
};

/** Structural user: only what the checks read. */
export interface UserLike {
  uuid?: string;
  user_type?: string | null;
  permissions?: readonly string[] | null;
}

/** Structural transport company: only what the checks read. */
export interface TransportCompanyLike {
  uuid: string;
  name?: string | null;
  country_code?: string | null;
  features?: Record<string, unknown> | null;
}

/** True when `value` is one of the user types. */
export function isUserType(value: unknown): value is UserType {
  return typeof value === 'string' && (userTypes as readonly string[]).includes(value);
}

/** Allowed only if the user's permissions list contains the permission; no user means no. */
export function hasPermission(user: UserLike | null | undefined, permission: string): boolean {
  return Array.isArray(user?.permissions) && user.permissions.includes(permission);
}

/**
 * A feature is on only if the selected company's features map has it truthy. Strings '0', 'false'
 * and '' count as off (flags may arrive as text from configuration stores).
 */
export function hasFeature(company: TransportCompanyLike | null | undefined, feature: string): boolean {
  const value = company?.features?.[feature];
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    return text !== '' && text !== '0' && text !== 'false';
  }
  return Boolean(value);
}

/** Feature flags the product reads. Only emergency_driver_alert_enabled is named in the spec. */
export const featureFlags = {
  emergencyDriverAlert: 'emergency_driver_alert_enabled',
  geofenceEvents: 'geofence_events_enabled',
  advancedFuelReport: 'advanced_fuel_report_enabled',
  engineDevice: 'engine_device_enabled',
  wheelDashboard: 'wheel_dashboard_enabled',
} as const;

export const routeGuards = [
  'signedIn',
  'transportSelected',
  'geofenceEvents',
  'advancedFuelReport',
  'engineDevice',
  'wheelDashboard',
] as const;
export type RouteGuard = (typeof routeGuards)[number];

export interface GuardContext {
  accessToken: string | null | undefined;
  company: TransportCompanyLike | null | undefined;
}

/**
 * The guards of spec section 6. Their logic is not shown in the spec; the product's decision:
 * signedIn needs an access token; transportSelected additionally a selected company; the four
 * feature guards additionally the matching company feature (see featureFlags).
 */
export function passesGuard(guard: RouteGuard, context: GuardContext): boolean {
  const signedIn = typeof context.accessToken === 'string' && context.accessToken !== '';
  if (guard === 'signedIn') return signedIn;
  const selected = signedIn && !!context.company;
  if (guard === 'transportSelected') return selected;
  return selected && hasFeature(context.company, featureFlags[guard]);
}

/** Every guard a route needs must pass; returns the first failing one, or null. */
export function firstFailingGuard(guards: readonly RouteGuard[], context: GuardContext): RouteGuard | null {
  return guards.find((guard) => !passesGuard(guard, context)) ?? null;
}
