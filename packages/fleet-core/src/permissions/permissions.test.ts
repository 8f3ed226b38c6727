import { describe, expect, it } from 'vitest';
import {
  firstFailingGuard,
  hasFeature,
  hasPermission,
  isUserType,
  passesGuard,
  routeGuards,
  userTypeLabels,
  userTypes,
  type GuardContext,
  type RouteGuard,
  type TransportCompanyLike,
  type UserLike,
} from './permissions';

describe('hasPermission', () => {
  it.each<[UserLike | null | undefined, string, boolean]>([
    [{ permissions: ['vehicles.view', 'vehicles.edit'] }, 'vehicles.edit', true],
    [{ permissions: ['vehicles.view'] }, 'vehicles.edit', false],
    [{ permissions: [] }, 'vehicles.view', false],
    [{ permissions: null }, 'vehicles.view', false],
    [{}, 'vehicles.view', false],
    [null, 'vehicles.view', false],
    [undefined, 'vehicles.view', false],
  ])('%j %s -> %s', (user, permission, expected) => {
    expect(hasPermission(user, permission)).toBe(expected);
  });
});

describe('hasFeature', () => {
  const company = (features: Record<string, unknown> | null | undefined): TransportCompanyLike => ({
    uuid: 'c',
    features,
  });
  it.each<[Record<string, unknown> | null | undefined, boolean]>([
    [{ f: true }, true],
    [{ f: 1 }, true],
    [{ f: '1' }, true],
    [{ f: 'true' }, true],
    [{ f: { level: 2 } }, true],
    [{ f: false }, false],
    [{ f: 0 }, false],
    [{ f: '0' }, false],
    [{ f: 'FALSE' }, false],
    [{ f: '' }, false],
    [{ f: null }, false],
    [{}, false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (features, expected) => {
    expect(hasFeature(company(features), 'f')).toBe(expected);
  });

  it('no company means off', () => {
    expect(hasFeature(null, 'f')).toBe(false);
  });
});

describe('user types', () => {
  it('lists the five types with labels', () => {
    expect(userTypes).toHaveLength(5);
    for (const type of userTypes) {
      expect(isUserType(type)).toBe(true);
      expect(userTypeLabels[type].ar).toMatch(/[\u0600-\u06FF]/);
    }
    expect(isUserType('driver')).toBe(false);
    expect(isUserType(3)).toBe(false);
  });
});

describe('guards', () => {
  const allOn = {
    uuid: 'c',
    features: {
      geofence_events_enabled: true,
      advanced_fuel_report_enabled: true,
      engine_device_enabled: true,
      wheel_dashboard_enabled: true,
    },
  };
  const cases: [string, GuardContext, Record<RouteGuard, boolean>][] = [
    [
      'signed out',
      { accessToken: null, company: allOn },
      {
        signedIn: false,
        transportSelected: false,
        geofenceEvents: false,
        advancedFuelReport: false,
        engineDevice: false,
        wheelDashboard: false,
      },
    ],
    [
      'empty token',
      { accessToken: '', company: allOn },
      {
        signedIn: false,
        transportSelected: false,
        geofenceEvents: false,
        advancedFuelReport: false,
        engineDevice: false,
        wheelDashboard: false,
      },
    ],
    [
      'signed in, no company',
      { accessToken: 't', company: null },
      {
        signedIn: true,
        transportSelected: false,
        geofenceEvents: false,
        advancedFuelReport: false,
        engineDevice: false,
        wheelDashboard: false,
      },
    ],
    [
      'company without features',
      { accessToken: 't', company: { uuid: 'c' } },
      {
        signedIn: true,
        transportSelected: true,
        geofenceEvents: false,
        advancedFuelReport: false,
        engineDevice: false,
        wheelDashboard: false,
      },
    ],
    [
      'all features',
      { accessToken: 't', company: allOn },
      {
        signedIn: true,
        transportSelected: true,
        geofenceEvents: true,
        advancedFuelReport: true,
        engineDevice: true,
        wheelDashboard: true,
      },
    ],
  ];
  it.each(cases)('%s', (_name, context, expected) => {
    for (const guard of routeGuards) expect(passesGuard(guard, context), guard).toBe(expected[guard]);
  });

  it('firstFailingGuard', () => {
    const context = { accessToken: 't', company: { uuid: 'c', features: { engine_device_enabled: 1 } } };
    expect(firstFailingGuard(['signedIn', 'transportSelected', 'engineDevice'], context)).toBeNull();
    expect(firstFailingGuard(['signedIn', 'transportSelected', 'wheelDashboard'], context)).toBe(
      'wheelDashboard',
    );
  });
});
