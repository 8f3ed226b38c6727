import { paths } from './paths';

/**
 * Side navigation (and the mobile /menu page): sections of items with their route and i18n key.
 * `guard` hides an item whose route guard would refuse it.
 */
import type { FeatureGuard } from '../state/access';

export type NavGuard = FeatureGuard;

export interface NavItem {
  key: string;
  to: string;
  guard?: NavGuard;
  /** Exact match for the active state (home would otherwise match every dashboard page). */
  end?: boolean;
  /** Shown to super admins, and to users holding this permission (sent messages: users.view). */
  superAdminOr?: string;
  /** Shown to super admins only (platform operation: transport companies). */
  superAdminOnly?: boolean;
}

export interface NavSection {
  key: 'tracking' | 'management' | 'school' | 'insights';
  items: NavItem[];
}

export const navSections: NavSection[] = [
  {
    key: 'tracking',
    items: [
      { key: 'home', to: paths.home, end: true },
      { key: 'live', to: paths.live, end: true },
      { key: 'liveList', to: paths.liveList },
      { key: 'routeHistory', to: paths.routeHistory },
      { key: 'deviceTrips', to: paths.deviceTrips },
      { key: 'geofenceEvents', to: paths.geofenceEvents, guard: 'geofenceEvents', end: true },
      { key: 'salik', to: paths.salik, guard: 'geofenceEvents' },
      { key: 'notifications', to: paths.notifications },
      { key: 'alertRules', to: paths.alertRules },
    ],
  },
  {
    key: 'management',
    items: [
      { key: 'vehicles', to: paths.list('vehicles') },
      { key: 'drivers', to: paths.list('drivers') },
      { key: 'devices', to: paths.list('devices') },
      { key: 'geofences', to: paths.list('geofences'), end: false },
      { key: 'branches', to: paths.list('branches') },
      { key: 'stations', to: paths.list('stations') },
      { key: 'users', to: paths.list('users') },
    ],
  },
  {
    key: 'school',
    items: [
      { key: 'schools', to: paths.list('schools') },
      { key: 'passengers', to: paths.list('passengers') },
      { key: 'guardians', to: paths.list('guardians') },
      { key: 'supervisors', to: paths.list('supervisors') },
      { key: 'scheduledTrips', to: paths.list('scheduled-trips') },
      { key: 'trips', to: paths.trips },
      { key: 'tripsApp', to: paths.tripsApp },
    ],
  },
  {
    key: 'insights',
    items: [
      { key: 'reports', to: paths.reports },
      { key: 'messages', to: paths.messages, superAdminOr: 'users.view' },
      { key: 'companies', to: paths.companies, superAdminOnly: true },
      { key: 'settings', to: paths.settings },
    ],
  },
];
