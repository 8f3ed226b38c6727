import { describe, expect, it } from 'vitest';
import { U1, company, location, page, user } from '../test/fixtures';
import {
  buildPath,
  buildQuery,
  endpointNames,
  endpoints,
  pathParamNames,
  type EndpointDef,
} from './endpoints';

const table = endpoints as Record<string, EndpointDef>;

describe('endpoint table', () => {
  // Spec section 7, read literally: method, path and answer shape.
  it.each([
    ['auth.me', 'GET', '/v1/auth'],
    ['auth.logout', 'DELETE', '/v1/logout'],
    ['configurations.devices', 'GET', '/v1/configurations/options/devices'],
    ['configurations.vehicleTypes', 'GET', '/v1/configurations/options/vehicle-types'],
    ['configurations.vehicleStates', 'GET', '/v1/configurations/options/vehicle/states/:country_code'],
    ['device.supportedCommands', 'GET', '/v1/device/commands/supported'],
    ['deviceLocations.vehicle', 'GET', '/v1/device-locations/vehicle/locations'],
    ['fcmTokens.register', 'POST', '/v1/fcm-tokens/register'],
    ['fcmTokens.deactivate', 'POST', '/v1/fcm-tokens/deactivate'],
    ['files.show', 'GET', '/v1/file/:kind/:name'],
    ['auth.login', 'POST', '/v1/login'],
  ])('%s is %s %s', (name, method, path) => {
    expect(table[name]).toMatchObject({ method, path });
  });

  it('answers the spec section 7 shapes', () => {
    expect(
      endpoints['auth.me'].response.safeParse({ data: { user, transport_companies: [company] } }).success,
    ).toBe(true);
    const option = { value: 'bus', label: 'Bus' };
    expect(
      endpoints['configurations.vehicleTypes'].response.safeParse({ data: { data: [option] } }).success,
    ).toBe(true);
    expect(endpoints['configurations.vehicleTypes'].response.safeParse({ data: [option] }).success).toBe(
      false,
    );
    expect(
      endpoints['device.supportedCommands'].response.safeParse({ data: { data: { ruptela: ['reset'] } } })
        .success,
    ).toBe(true);
    expect(endpoints['deviceLocations.vehicle'].response.safeParse(page([location])).success).toBe(true);
    expect(endpoints['deviceLocations.vehicle'].query.parse({ vehicle_uuid: U1 })).toMatchObject({
      page: 1,
      limit: 500,
    });
    expect(
      endpoints['deviceLocations.vehicle'].query.safeParse({ vehicle_uuid: U1, limit: 501 }).success,
    ).toBe(false);
  });

  const crudResources = [
    ['vehicles', 'vehicles'],
    ['drivers', 'drivers'],
    ['devices', 'devices'],
    ['users', 'users'],
    ['geofences', 'geofences'],
    ['branches', 'branches'],
    ['stations', 'stations'],
    ['schools', 'schools'],
    ['passengers', 'passengers'],
    ['guardians', 'guardians'],
    ['supervisors', 'supervisors'],
    ['trips', 'trips'],
    ['scheduledTrips', 'scheduled-trips'],
    ['tripsApp', 'trips-app'],
    ['notificationRules', 'notification-rules'],
  ];
  it.each(crudResources)(
    '%s has list, create, show, update, delete and status under /v1/%s',
    (name, resource) => {
      const base = `/v1/${resource}`;
      expect(table[`${name}.list`]).toMatchObject({ method: 'GET', path: base, auth: 'company' });
      expect(table[`${name}.create`]).toMatchObject({ method: 'POST', path: base });
      expect(table[`${name}.show`]).toMatchObject({ method: 'GET', path: `${base}/:uuid` });
      expect(table[`${name}.update`]).toMatchObject({ method: 'PUT', path: `${base}/:uuid` });
      expect(table[`${name}.delete`]).toMatchObject({ method: 'DELETE', path: `${base}/:uuid` });
      expect(table[`${name}.status`]).toMatchObject({ method: 'PATCH', path: `${base}/:uuid/status` });
    },
  );

  it('lets vehicles go to maintenance and trips use trip statuses', () => {
    expect(endpoints['vehicles.status'].body.safeParse({ status: 'maintenance' }).success).toBe(true);
    expect(endpoints['drivers.status'].body.safeParse({ status: 'maintenance' }).success).toBe(false);
    expect(endpoints['trips.status'].body.safeParse({ status: 'missed' }).success).toBe(true);
  });

  it('has unique method + path pairs, params for every path parameter and known auth levels', () => {
    const seen = new Set<string>();
    for (const name of endpointNames) {
      const def = table[name] as EndpointDef;
      const key = `${def.method} ${def.path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(def.path.startsWith('/v1/')).toBe(true);
      expect(['none', 'session', 'company']).toContain(def.auth);
      const names = pathParamNames(def.path);
      if (names.length > 0) {
        expect(def.params, name).toBeDefined();
      }
      if (def.method === 'GET' || def.method === 'DELETE') expect(def.body, name).toBeUndefined();
    }
    expect(endpointNames.length).toBeGreaterThan(100);
  });

  it("makes only sign-in, password recovery, OTP, shared links and guardians' tracking and unsubscribe links public", () => {
    const open = endpointNames.filter((name) => table[name]?.auth === 'none').sort();
    expect(open).toEqual([
      'auth.forgotPassword',
      'auth.login',
      'auth.otpSend',
      'auth.otpVerify',
      'auth.resetPassword',
      'auth.setPassword',
      'share.show',
      'track.show',
      'unsubscribe.confirm',
      'unsubscribe.show',
    ]);
  });
});

describe('buildPath', () => {
  it.each([
    ['/v1/vehicles/:uuid', { uuid: U1 }, `/v1/vehicles/${U1}`],
    ['/v1/file/:kind/:name', { kind: 'avatars', name: 'a b.png' }, '/v1/file/avatars/a%20b.png'],
    [
      '/v1/configurations/options/vehicle/states/:country_code',
      { country_code: 'AE' },
      '/v1/configurations/options/vehicle/states/AE',
    ],
    ['/v1/logout', undefined, '/v1/logout'],
    ['/v1/x/:n', { n: 0 }, '/v1/x/0'],
  ])('%s', (template, params, expected) => {
    expect(buildPath(template, params)).toBe(expected);
  });

  it('throws on a missing or empty parameter', () => {
    expect(() => buildPath('/v1/vehicles/:uuid', {})).toThrow('missing parameter "uuid"');
    expect(() => buildPath('/v1/vehicles/:uuid', { uuid: '' })).toThrow('missing parameter "uuid"');
  });

  it('lists parameter names', () => {
    expect(pathParamNames('/v1/file/:kind/:name')).toEqual(['kind', 'name']);
  });
});

describe('buildQuery', () => {
  it.each([
    [undefined, ''],
    [{}, ''],
    [{ a: undefined, b: null }, ''],
    [{ page: 2, search: 'a b', read: false }, '?page=2&search=a+b&read=false'],
    [{ ids: ['x', 'y'] }, '?ids=x&ids=y'],
  ])('%j -> %s', (query, expected) => {
    expect(buildQuery(query)).toBe(expected);
  });
});
