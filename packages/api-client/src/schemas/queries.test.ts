import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { U1 } from '../../test/fixtures';
import { activityLogQuerySchema } from './activity';
import { branchInputSchema } from './company';
import { deviceListQuerySchema, unknownDeviceListQuerySchema } from './device';
import { notificationListQuerySchema } from './notification';
import { dashboardQuerySchema } from './report';
import { tripListQuerySchema } from './trips';
import { liveVehiclesQuerySchema, vehicleInputSchema, vehicleListQuerySchema } from './vehicle';

/** [label, schema, query as the server receives it (strings), parsed subset or false when refused]. */
const cases: [string, z.ZodType, Record<string, unknown>, Record<string, unknown> | false][] = [
  ['defaults', vehicleListQuerySchema, {}, { page: 1, limit: 15, order: 'desc' }],
  [
    'strings coerced',
    vehicleListQuerySchema,
    { page: '3', limit: '100', order: 'asc', sort: 'license_plate_number' },
    { page: 3, limit: 100, order: 'asc' },
  ],
  ['numbers kept', vehicleListQuerySchema, { page: 2, limit: 10 }, { page: 2, limit: 10 }],
  [
    'status maintenance',
    vehicleListQuerySchema,
    { status: 'maintenance', type: 'motorcycle', branch_uuid: U1 },
    { status: 'maintenance' },
  ],
  ['search trimmed', vehicleListQuerySchema, { search: '  abc ' }, { search: 'abc' }],
  ['page 0', vehicleListQuerySchema, { page: '0' }, false],
  ['page not a number', vehicleListQuerySchema, { page: 'two' }, false],
  ['limit over 500', vehicleListQuerySchema, { limit: '501' }, false],
  ['sort injection', vehicleListQuerySchema, { sort: 'name;drop table' }, false],
  ['bad order', vehicleListQuerySchema, { order: 'up' }, false],
  ['search too long', vehicleListQuerySchema, { search: 'x'.repeat(101) }, false],
  [
    'device filters',
    deviceListQuerySchema,
    { type: 'gosafe', current_status: 'offline' },
    { type: 'gosafe' },
  ],
  ['unknown devices', unknownDeviceListQuerySchema, { type: 'ruptela', page: '2' }, { page: 2 }],
  ['read true', notificationListQuerySchema, { read: 'true' }, { read: true }],
  ['read 0', notificationListQuerySchema, { read: '0' }, { read: false }],
  ['read boolean', notificationListQuerySchema, { read: true }, { read: true }],
  ['read yes', notificationListQuerySchema, { read: 'yes' }, false],
  [
    'trip range',
    tripListQuerySchema,
    { from: '2026-11-20T00:00:00+04:00', status: 'missed' },
    { status: 'missed' },
  ],
  ['trip range without offset', tripListQuerySchema, { from: '2026-11-20T00:00:00' }, false],
  ['live defaults', liveVehiclesQuerySchema, {}, { limit: 1000, live_status: 'all' }],
  [
    'live no-data tab',
    liveVehiclesQuerySchema,
    { live_status: 'no-data', limit: '5000' },
    { live_status: 'no-data', limit: 5000 },
  ],
  ['live limit', liveVehiclesQuerySchema, { limit: '5001' }, false],
  ['dashboard default', dashboardQuerySchema, {}, { period: 'week' }],
  ['dashboard year', dashboardQuerySchema, { period: 'year' }, { period: 'year' }],
  ['dashboard day', dashboardQuerySchema, { period: 'day' }, false],
  [
    'activity',
    activityLogQuerySchema,
    { action: 'deleted', subject_type: 'vehicle', user_uuid: U1 },
    { action: 'deleted' },
  ],
];

describe('list queries', () => {
  it.each(cases)('%s', (_label, schema, query, expected) => {
    const result = schema.safeParse(query);
    if (expected === false) expect(result.success).toBe(false);
    else expect(result.data).toMatchObject(expected);
  });
});

describe('optional values', () => {
  it('accept null as "no value"', () => {
    expect(branchInputSchema.parse({ name: 'B', location: null, station_uuid: null }).location).toBeNull();
    expect(
      vehicleInputSchema.parse({ license_plate_number: 'A', type: 'car', gps_device_imei: null, make: null }),
    ).toMatchObject({ gps_device_imei: null, make: null });
  });
});
