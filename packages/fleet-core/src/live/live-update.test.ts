import { describe, expect, it } from 'vitest';
import type { LocationLike } from '../status/location';
import {
  hasCoordinates,
  mergeLocation,
  mergeVehicleLiveUpdate,
  shouldShowEmergencyAlert,
  toCoordinate,
} from './live-update';

const OLD: LocationLike = {
  created_at: '2025-06-15 10:00:00',
  latitude: 25.2,
  longitude: 55.3,
  speed: 40,
  ignition: 1,
};

describe('mergeLocation', () => {
  it.each<[string, Partial<LocationLike>, [unknown, unknown]]>([
    ['new coordinates win', { latitude: 25.3, longitude: 55.4 }, [25.3, 55.4]],
    ['numeric strings win', { latitude: '25.3', longitude: '55.4' }, ['25.3', '55.4']],
    ['zero is a coordinate', { latitude: 0, longitude: 0 }, [0, 0]],
    ['missing keeps old', {}, [25.2, 55.3]],
    ['null keeps old', { latitude: null, longitude: null }, [25.2, 55.3]],
    ['empty strings keep old', { latitude: '', longitude: '' }, [25.2, 55.3]],
    ['blank strings keep old', { latitude: ' ', longitude: ' ' }, [25.2, 55.3]],
    ['NaN keeps old', { latitude: NaN, longitude: NaN }, [25.2, 55.3]],
    ['garbage keeps old', { latitude: 'n/a', longitude: 'n/a' }, [25.2, 55.3]],
    ['half empty keeps the old pair', { latitude: 26, longitude: null }, [25.2, 55.3]],
  ])('%s', (_name, update, [lat, lng]) => {
    const merged = mergeLocation(OLD, { created_at: '2025-06-15 10:01:00', speed: 0, ...update });
    expect(merged.latitude).toBe(lat);
    expect(merged.longitude).toBe(lng);
    expect(merged.created_at).toBe('2025-06-15 10:01:00');
    expect(merged.speed).toBe(0);
    expect(merged.ignition).toBe(1);
  });

  it('without a previous location the update is taken as is', () => {
    const update = { created_at: 'x', latitude: null };
    expect(mergeLocation(null, update)).toEqual(update);
    expect(mergeLocation(undefined, update)).not.toBe(update);
  });

  it('merges into a vehicle without mutating it', () => {
    const vehicle = { uuid: 'v1', license_plate_number: 'A 123', latest_location: OLD };
    const next = mergeVehicleLiveUpdate(vehicle, {
      created_at: '2025-06-15 10:05:00',
      latitude: '',
      speed: 12,
    });
    expect(next).toEqual({
      ...vehicle,
      latest_location: { ...OLD, created_at: '2025-06-15 10:05:00', speed: 12 },
    });
    expect(vehicle.latest_location).toBe(OLD);
    expect(mergeVehicleLiveUpdate({ uuid: 'v2', latest_location: null }, OLD).latest_location).toEqual(OLD);
  });
});

describe('coordinates', () => {
  it.each<[unknown, number | null]>([
    [25.2, 25.2],
    ['25.2', 25.2],
    [0, 0],
    ['', null],
    [null, null],
    [undefined, null],
    [NaN, null],
    [Infinity, null],
    ['abc', null],
    [{}, null],
  ])('toCoordinate(%j)', (value, expected) => {
    expect(toCoordinate(value)).toBe(expected);
  });

  it.each<[Partial<LocationLike> | null, boolean]>([
    [{ latitude: 25, longitude: 55 }, true],
    [{ latitude: -90, longitude: 180 }, true],
    [{ latitude: 91, longitude: 55 }, false],
    [{ latitude: 25, longitude: -181 }, false],
    [{ latitude: 25 }, false],
    [null, false],
  ])('hasCoordinates(%j)', (location, expected) => {
    expect(hasCoordinates(location)).toBe(expected);
  });
});

describe('shouldShowEmergencyAlert', () => {
  const on = { uuid: 'c', features: { emergency_driver_alert_enabled: true } };
  const off = { uuid: 'c', features: { emergency_driver_alert_enabled: false } };
  it.each<[string, Partial<LocationLike> | null, typeof on | null, boolean]>([
    ['pressed, feature on', { io_elements: { '251': { value: 1 } } }, on, true],
    ['pressed as "1"', { io_elements: { '251': { value: '1' } } }, on, true],
    ['pressed as true', { io_elements: { '251': { value: true } } }, on, true],
    ['pressed, feature off', { io_elements: { '251': { value: 1 } } }, off, false],
    [
      'pressed, feature missing',
      { io_elements: { '251': { value: 1 } } },
      { uuid: 'c', features: {} } as typeof on,
      false,
    ],
    ['pressed, no company', { io_elements: { '251': { value: 1 } } }, null, false],
    ['released', { io_elements: { '251': { value: 0 } } }, on, false],
    ['other value', { io_elements: { '251': { value: 2 } } }, on, false],
    ['no 251', { io_elements: { '239': { value: 1 } } }, on, false],
    ['no io elements', { io_elements: null }, on, false],
    ['no update', null, on, false],
  ])('%s', (_name, update, company, expected) => {
    expect(shouldShowEmergencyAlert(update, company)).toBe(expected);
  });
});
