/**
 * The route map of spec §2 as data, plus the pure rules that depend on paths (small-screen fallback,
 * where to go after sign-in). The router (router.tsx) and the navigation read from here.
 */

/** Managed entities with list, create/{uuid?} and details/{uuid} (spec §2), by URL segment. */
export const crudEntities = [
  'branches',
  'devices',
  'drivers',
  'geofences',
  'guardians',
  'passengers',
  'schools',
  'stations',
  'supervisors',
  'users',
  'vehicles',
  'scheduled-trips',
] as const;
export type CrudEntity = (typeof crudEntities)[number];

/** Read-only record groups: list + details/{uuid}, except device-trips (list only). */
export const recordGroups = [
  'trips',
  'trips-app',
  'device-trips',
  'geofences/events',
  'geofences/events/salik',
] as const;
export type RecordGroup = (typeof recordGroups)[number];

export const paths = {
  root: '/',
  login: '/login',
  setPassword: (token: string) => `/set-password/${encodeURIComponent(token)}`,
  serverUnreachable: '/server-unreachable',
  resetPassword: '/reset-password',
  menu: '/menu',
  selectTransport: '/select-transport',
  home: '/dashboard',
  live: '/dashboard/live',
  liveList: '/dashboard/live/list',
  routeHistory: '/dashboard/live/route-history',
  deviceTrips: '/dashboard/device-trips',
  geofenceEvents: '/dashboard/geofences/events',
  salik: '/dashboard/geofences/events/salik',
  notifications: '/dashboard/notifications',
  trips: '/dashboard/trips',
  tripsApp: '/dashboard/trips-app',
  reports: '/dashboard/reports',
  fuelReport: '/dashboard/reports/fuel',
  engineReport: '/dashboard/reports/engine',
  wheelReport: '/dashboard/reports/wheel',
  settings: '/dashboard/settings',
  messages: '/dashboard/messages',
  companies: '/dashboard/platform/companies',
  changePassword: '/dashboard/settings/change-password',
  alertRules: '/dashboard/settings/alert-rules',
  list: (group: CrudEntity | RecordGroup | 'notifications') => `/dashboard/${group}`,
  create: (entity: CrudEntity, uuid?: string) =>
    uuid ? `/dashboard/${entity}/create/${encodeURIComponent(uuid)}` : `/dashboard/${entity}/create`,
  details: (group: CrudEntity | RecordGroup | 'notifications', uuid: string) =>
    `/dashboard/${group}/details/${encodeURIComponent(uuid)}`,
} as const;

/** Width under which the app is in its small-screen (mobile) layout; Tailwind's `md` breakpoint. */
export const SMALL_SCREEN_MAX_WIDTH = 767;

export function isSmallScreen(width: number): boolean {
  return width <= SMALL_SCREEN_MAX_WIDTH;
}

/**
 * Spec §2: "On small screens, create and details routes fall back to the list page". Returns the list
 * path a create/details path falls back to, or null when the path is not a create/details route.
 */
export function listFallback(pathname: string): string | null {
  const clean = pathname.replace(/\/+$/, '');
  const match = /^(\/dashboard\/.+?)\/(create|details)(\/[^/]+)?$/.exec(clean);
  if (!match) return null;
  if (match[2] === 'details' && !match[3]) return null;
  return match[1] ?? null;
}
