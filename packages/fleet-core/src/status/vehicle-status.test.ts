import { describe, expect, it } from 'vitest';
import { INACTIVE_AFTER_MS, LIVE_WITHIN_MS } from '../constants';
import { isOn, type LocationLike } from './location';
import {
  isViolation,
  markerImage,
  markerImages,
  markerVehicleKind,
  statusTabs,
  statusTone,
  statusTones,
  statusLabel,
  inactiveMessage,
  vehicleStatusCounts,
  vehicleStatus,
  vehicleStatuses,
  type VehicleStatus,
} from './vehicle-status';

const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);
const at = (ageMs: number) => new Date(NOW - ageMs).toISOString();
const loc = (ageMs: number, extra: Partial<LocationLike> = {}): LocationLike => ({
  created_at: at(ageMs),
  ...extra,
});

describe('vehicleStatus', () => {
  const cases: [string, LocationLike | null | undefined, VehicleStatus][] = [
    ['null record', null, 'no-data'],
    ['undefined record', undefined, 'no-data'],
    ['unparseable created_at', { created_at: 'garbage', ignition: 1 }, 'no-data'],
    ['exactly 30 days is not inactive', loc(INACTIVE_AFTER_MS, { ignition: 0 }), 'offline'],
    ['30 days + 1 ms is inactive', loc(INACTIVE_AFTER_MS + 1, { ignition: 1 }), 'inactive'],
    ['inactive wins over idle', loc(INACTIVE_AFTER_MS + 1, { is_idle: 1, ignition: 0 }), 'inactive'],
    ['idle with ignition off', loc(1000, { is_idle: 1, ignition: 0 }), 'idle'],
    ['idle true with ignition missing', loc(1000, { is_idle: true }), 'idle'],
    ['idle "1" with ignition false', loc(LIVE_WITHIN_MS * 5, { is_idle: '1', ignition: false }), 'idle'],
    ['idle flag with ignition on is live', loc(1000, { is_idle: 1, ignition: 1 }), 'live'],
    ['fresh with ignition 1', loc(0, { ignition: 1 }), 'live'],
    ['fresh with ignition true', loc(1000, { ignition: true }), 'live'],
    ['fresh with ignition "1"', loc(1000, { ignition: '1' }), 'live'],
    ['59:59.999 old is live', loc(LIVE_WITHIN_MS - 1, { ignition: 1 }), 'live'],
    ['exactly 60 minutes is offline', loc(LIVE_WITHIN_MS, { ignition: 1 }), 'offline'],
    ['fresh with ignition 0', loc(1000, { ignition: 0 }), 'offline'],
    ['fresh without ignition', loc(1000), 'offline'],
    ['not idle, ignition null', loc(1000, { is_idle: 0, ignition: null }), 'offline'],
    ['future record counts as fresh', loc(-60_000, { ignition: 1 }), 'live'],
    ['server-style time without zone', { created_at: '2025-06-15 11:30:00', ignition: 1 }, 'live'],
  ];
  it.each(cases)('%s', (_name, latest, expected) => {
    expect(vehicleStatus(latest, NOW)).toBe(expected);
    expect(vehicleStatus(latest, new Date(NOW))).toBe(expected);
  });
});

describe('isOn', () => {
  it.each<[unknown, boolean]>([
    [1, true],
    [true, true],
    ['1', true],
    [' TRUE ', true],
    [0, false],
    [2, false],
    ['0', false],
    ['yes', false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (value, expected) => {
    expect(isOn(value)).toBe(expected);
  });
});

describe('statusTone', () => {
  it.each([
    ['all', 'neutral'],
    ['live', 'live'],
    ['idle', 'idle'],
    ['offline', 'offline'],
    ['inactive', 'inactive'],
    ['no-data', 'noData'],
  ] as const)('%s -> %s', (status, tone) => {
    expect(statusTone(status)).toBe(tone);
  });

  it('covers every tab with a known tone', () => {
    expect(statusTabs).toEqual(['all', ...vehicleStatuses]);
    for (const tab of statusTabs) expect(statusTones).toContain(statusTone(tab));
  });
});

describe('isViolation', () => {
  it.each<[Partial<LocationLike> | null, VehicleStatus, boolean]>([
    [{ digital_output1: 1 }, 'live', true],
    [{ digital_output1: 1 }, 'idle', true],
    [{ digital_output1: '1' }, 'inactive', true],
    [{ digital_output1: 1 }, 'offline', false],
    [{ digital_output1: 0 }, 'live', false],
    [{ digital_output1: null }, 'live', false],
    [{}, 'live', false],
    [null, 'no-data', false],
  ])('%j %s -> %s', (latest, status, expected) => {
    expect(isViolation(latest, status)).toBe(expected);
  });
});

describe('markerImage', () => {
  it.each<[string | null | undefined, VehicleStatus, boolean, string]>([
    ['bus', 'live', false, 'bus-live'],
    ['Bus', 'idle', true, 'bus-violation'],
    ['motorcycle', 'offline', false, 'motorcycle-offline'],
    ['motor-bike', 'inactive', false, 'motorcycle-inactive'],
    ['Motor Bike', 'live', false, 'motorcycle-live'],
    ['motor_bike', 'live', false, 'motorcycle-live'],
    ['car', 'no-data', false, 'car-no-data'],
    ['truck', 'live', true, 'car-violation'],
    ['', 'live', false, 'car-live'],
    [null, 'offline', false, 'car-offline'],
    [undefined, 'idle', false, 'car-idle'],
  ])('%j %s %s -> %s', (type, status, violation, expected) => {
    expect(markerImage(type, status, violation)).toBe(expected);
    expect(markerImages).toContain(expected);
  });

  it('lists 3 kinds x 6 variants', () => {
    expect(markerImages).toHaveLength(18);
    expect(markerVehicleKind('BUS')).toBe('bus');
  });
});

describe('vehicleStatusCounts', () => {
  it('counts every tab', () => {
    const vehicles = [
      { latest_location: loc(0, { ignition: 1 }) },
      { latest_location: loc(0, { ignition: 1 }) },
      { latest_location: loc(1000, { is_idle: 1, ignition: 0 }) },
      { latest_location: loc(LIVE_WITHIN_MS) },
      { latest_location: loc(INACTIVE_AFTER_MS + 1) },
      { latest_location: null },
      {},
    ];
    expect(vehicleStatusCounts(vehicles, NOW)).toEqual({
      all: 7,
      live: 2,
      idle: 1,
      offline: 1,
      inactive: 1,
      'no-data': 2,
    });
  });

  it('takes a custom accessor', () => {
    const rows = [{ last: loc(0, { ignition: '1' }) }];
    expect(vehicleStatusCounts(rows, NOW, (r) => r.last).live).toBe(1);
    expect(vehicleStatusCounts([], NOW).all).toBe(0);
  });
});

describe('labels', () => {
  it.each([
    ['all', 'All', 'الكل'],
    ['live', 'Live', 'مباشر'],
    ['idle', 'Idle', 'خامل'],
    ['offline', 'Offline', 'غير متصل'],
    ['inactive', 'Inactive', 'غير نشط'],
    ['no-data', 'No data', 'لا توجد بيانات'],
  ] as const)('%s', (tab, en, ar) => {
    expect(statusLabel(tab)).toBe(en);
    expect(statusLabel(tab, 'ar')).toBe(ar);
  });

  it('inactive message', () => {
    expect(inactiveMessage()).toBe('Your vehicle has been inactive for over a month.');
    expect(inactiveMessage('ar')).toBe('مركبتك غير نشطة منذ أكثر من شهر.');
  });
});
