import { describe, expect, it } from 'vitest';
import { isSmallScreen, listFallback, paths } from './paths';

describe('listFallback (spec §2 small-screen rule)', () => {
  it.each([
    ['/dashboard/vehicles/create', '/dashboard/vehicles'],
    ['/dashboard/vehicles/create/', '/dashboard/vehicles'],
    ['/dashboard/vehicles/create/6f1c0a52-1111-4a4a-8888-123456789abc', '/dashboard/vehicles'],
    ['/dashboard/scheduled-trips/details/abc', '/dashboard/scheduled-trips'],
    ['/dashboard/geofences/events/details/abc', '/dashboard/geofences/events'],
    ['/dashboard/geofences/events/salik/details/abc', '/dashboard/geofences/events/salik'],
    ['/dashboard/notifications/details/abc', '/dashboard/notifications'],
    ['/dashboard/vehicles', null],
    ['/dashboard/vehicles/details', null],
    ['/dashboard/live', null],
    ['/login', null],
  ])('%s -> %s', (path, expected) => {
    expect(listFallback(path)).toBe(expected);
  });
});

describe('paths', () => {
  it('builds the spec routes', () => {
    expect(paths.create('vehicles')).toBe('/dashboard/vehicles/create');
    expect(paths.create('vehicles', 'a b')).toBe('/dashboard/vehicles/create/a%20b');
    expect(paths.details('geofences/events/salik', 'x')).toBe('/dashboard/geofences/events/salik/details/x');
    expect(paths.list('device-trips')).toBe('/dashboard/device-trips');
    expect(paths.setPassword('t/k')).toBe('/set-password/t%2Fk');
  });

  it.each([
    [360, true],
    [767, true],
    [768, false],
    [1280, false],
  ])('width %i small=%s', (width, small) => {
    expect(isSmallScreen(width)).toBe(small);
  });
});
