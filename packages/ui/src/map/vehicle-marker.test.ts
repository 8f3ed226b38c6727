import { describe, expect, it } from 'vitest';
import { toVehicleMarker } from './vehicle-marker';

const now = Date.parse('2026-11-21T12:00:00Z');
const minutesAgo = (m: number) => new Date(now - m * 60_000).toISOString();

describe('toVehicleMarker', () => {
  it.each([
    {
      name: 'live bus in violation',
      type: 'bus',
      latest: { created_at: minutesAgo(5), ignition: 1, latitude: 25.2, longitude: 55.3, digital_output1: 1 },
      expected: { kind: 'bus', tone: 'live', violation: true, status: 'live' },
    },
    {
      name: 'offline motor-bike never in violation',
      type: 'motor-bike',
      latest: {
        created_at: minutesAgo(120),
        ignition: 0,
        latitude: '25.2',
        longitude: '55.3',
        digital_output1: 1,
      },
      expected: { kind: 'motorcycle', tone: 'offline', violation: false, status: 'offline' },
    },
    {
      name: 'idle truck drawn as a car',
      type: 'truck',
      latest: { created_at: minutesAgo(5), ignition: 0, is_idle: 1, latitude: 25.2, longitude: 55.3 },
      expected: { kind: 'car', tone: 'idle', violation: false, status: 'idle' },
    },
    {
      name: 'inactive after 30 days',
      type: 'car',
      latest: { created_at: minutesAgo(31 * 24 * 60), ignition: 1, latitude: 25.2, longitude: 55.3 },
      expected: { kind: 'car', tone: 'inactive', status: 'inactive' },
    },
  ])('$name', ({ type, latest, expected }) => {
    const marker = toVehicleMarker({ id: 'v1', type, latest, heading: 45, label: 'A 12345' }, now);
    expect(marker).toMatchObject({
      id: 'v1',
      lat: 25.2,
      lng: 55.3,
      heading: 45,
      label: 'A 12345',
      ...expected,
    });
  });

  it.each([
    ['no latest location', null],
    ['empty coordinates', { created_at: minutesAgo(1), latitude: null, longitude: null }],
    ['zero island', { created_at: minutesAgo(1), latitude: 0, longitude: 0 }],
    ['out of range', { created_at: minutesAgo(1), latitude: 123, longitude: 55 }],
  ])('returns null for %s', (_name, latest) => {
    expect(toVehicleMarker({ id: 'v', type: 'car', latest }, now)).toBeNull();
  });

  it('uses a status computed by the caller for this update instead of running the rule again', () => {
    const latest = {
      created_at: minutesAgo(5),
      ignition: 1,
      latitude: 25.2,
      longitude: 55.3,
      digital_output1: 1,
    };
    // The rule says live; the caller's status (computed once for list, tabs and marker) wins.
    expect(toVehicleMarker({ id: 'v', type: 'car', latest }, now)).toMatchObject({ status: 'live' });
    expect(toVehicleMarker({ id: 'v', type: 'car', latest }, now, 'offline')).toMatchObject({
      status: 'offline',
      tone: 'offline',
      violation: false,
    });
  });
});
