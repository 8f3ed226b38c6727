import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as f from '../../test/fixtures';
import { activityLogEntrySchema } from './activity';
import { authSessionSchema, loginResultSchema } from './auth';
import { deviceCommandSchema, supportedCommandsSchema } from './command';
import { apiErrorBodySchema, dataEnvelope, paginated } from './common';
import { branchSchema, stationSchema, transportCompanySchema } from './company';
import { deviceSchema, unknownDeviceSchema } from './device';
import { driverSchema } from './driver';
import { geofenceEventSchema, geofenceSchema, salikEventSchema, salikGateSchema } from './geofence';
import { locationRecordSchema, vehicleLocationsResponseSchema } from './location';
import { fcmTokenSchema, notificationRuleSchema, notificationSchema } from './notification';
import { guardianSchema, passengerSchema, supervisorSchema } from './people';
import { dashboardSchema, reportExportJobSchema } from './report';
import { schoolSchema } from './school';
import { deviceTripSchema, scheduledTripSchema, tripSchema, tripsAppRecordSchema } from './trips';
import { userSchema } from './user';
import { liveVehicleSchema, sharedLocationSchema, vehicleSchema } from './vehicle';

type Mutation = [label: string, patch: Record<string, unknown>];

// Each read schema: a valid record, and mutations that must be refused.
const readCases: [string, z.ZodType, Record<string, unknown>, Mutation[]][] = [
  [
    'vehicle',
    vehicleSchema,
    f.vehicle,
    [
      ['bad type', { type: 'van' }],
      ['bad status', { status: 'broken' }],
      ['internal id instead of uuid', { uuid: 12 }],
      ['timestamp without offset', { created_at: '2026-11-21T08:00:00' }],
    ],
  ],
  [
    'device',
    deviceSchema,
    f.device,
    [
      ['bad device type', { type: 'traccar' }],
      ['bad connection status', { current_status: 'sleeping' }],
    ],
  ],
  ['unknown device', unknownDeviceSchema, f.unknownDevice, [['zero attempts', { attempts: 0 }]]],
  ['driver', driverSchema, f.driver, [['bad gender', { gender: 'x' }]]],
  [
    'user',
    userSchema,
    f.user,
    [
      ['bad user type', { user_type: 'root' }],
      ['permissions not a list', { permissions: 'all' }],
    ],
  ],
  [
    'transport company',
    transportCompanySchema,
    f.company,
    [
      ['features not a map', { features: ['a'] }],
      ['no country', { country_code: undefined }],
    ],
  ],
  ['branch', branchSchema, f.branch, [['location without longitude', { location: { latitude: 1 } }]]],
  ['station', stationSchema, f.station, [['no name', { name: undefined }]]],
  [
    'school',
    schoolSchema,
    f.school,
    [
      ['bad level', { education_level: 'kindergarten' }],
      ['bad type', { type: 'charter' }],
    ],
  ],
  ['passenger', passengerSchema, f.passenger, [['guardian ids not uuids', { guardian_uuids: ['1'] }]]],
  [
    'guardian',
    guardianSchema,
    f.guardian,
    [
      ['bad relationship', { relationship: 'boss' }],
      ['bad message channel', { message_channel: 'fax' }],
      ['no language', { language: undefined }],
    ],
  ],
  ['supervisor', supervisorSchema, f.supervisor, [['bad status', { status: 'gone' }]]],
  ['trip', tripSchema, f.trip, [['vehicle status as trip status', { status: 'maintenance' }]]],
  [
    'scheduled trip',
    scheduledTripSchema,
    f.scheduledTrip,
    [
      ['day 8', { days_of_week: [8] }],
      ['bad type', { type: 'loop' }],
    ],
  ],
  [
    'trips-app record',
    tripsAppRecordSchema,
    f.tripsAppRecord,
    [['negative passengers', { passengers_boarded: -1 }]],
  ],
  ['device trip', deviceTripSchema, f.deviceTrip, [['negative distance', { distance_km: -1 }]]],
  [
    'geofence',
    geofenceSchema,
    f.geofence,
    [
      ['unknown shape', { geometry: { shape: 'square' } }],
      ['bad tracking rule', { tracking_rules: ['dwell'] }],
    ],
  ],
  ['geofence event', geofenceEventSchema, f.geofenceEvent, [['bad event', { event: 'inside' }]]],
  ['salik gate', salikGateSchema, f.salikGate, [['bearing over 360', { charged_bearing: 400 }]]],
  [
    'salik event',
    salikEventSchema,
    f.salikEvent,
    [
      ['negative fee', { fee: -6 }],
      ['currency', { currency: 'DIRHAM' }],
    ],
  ],
  [
    'notification',
    notificationSchema,
    f.notification,
    [
      ['unknown type', { type: 'spam' }],
      ['read as string', { read: 'no' }],
    ],
  ],
  ['notification rule', notificationRuleSchema, f.notificationRule, [['bad channel', { channels: ['fax'] }]]],
  ['fcm token', fcmTokenSchema, f.fcmToken, [['bad platform', { platform: 'windows' }]]],
  [
    'device command',
    deviceCommandSchema,
    f.deviceCommand,
    [
      ['bad command', { type: 'self_destruct' }],
      ['bad status', { status: 'done' }],
    ],
  ],
  ['activity entry', activityLogEntrySchema, f.activityEntry, [['bad action', { action: 'hacked' }]]],
  [
    'export job',
    reportExportJobSchema,
    f.exportJob,
    [
      ['progress over 100', { progress: 101 }],
      ['bad format', { format: 'doc' }],
    ],
  ],
  [
    'location record',
    locationRecordSchema,
    f.location,
    [
      ['ignition as boolean', { ignition: true }],
      ['io element without value wrapper', { io_elements: { '239': 1 } }],
      ['io element keyed by name', { io_elements: { ignition: { value: 1 } } }],
      ['digital output 2', { digital_output1: 2 }],
      ['latitude out of range', { latitude: 91 }],
      ['negative speed', { speed: -1 }],
    ],
  ],
  [
    'live vehicle',
    liveVehicleSchema,
    {
      ...f.plate,
      make: null,
      model: null,
      status: 'active',
      device_imei: null,
      gps_device_imei: null,
      driver: { uuid: f.U3, name: 'Omar' },
      location: f.location,
      live_status: 'no-data',
      idle_minutes: null,
    },
    [['bad live status', { live_status: 'parked' }]],
  ],
  [
    'shared location',
    sharedLocationSchema,
    {
      vehicle: {
        license_plate_number: '1',
        license_plate_state_code: null,
        license_plate_category: null,
        type: 'car',
      },
      location: null,
      live_status: 'offline',
      expires_at: f.T1,
    },
    [['no expiry', { expires_at: undefined }]],
  ],
  [
    'dashboard',
    dashboardSchema,
    {
      period: 'week',
      from: f.T0,
      to: f.T1,
      current: f.figures,
      previous: f.figures,
      series: [{ at: f.T0, distance_km: 3, trips: 1 }],
    },
    [['bad period', { period: 'day' }]],
  ],
];

describe('read schemas', () => {
  it.each(readCases)('%s accepts a valid record', (_name, schema, valid) => {
    expect(schema.safeParse(valid).success).toBe(true);
  });

  const mutations = readCases.flatMap(([name, schema, valid, list]) =>
    list.map(([label, patch]) => [name, label, schema, { ...valid, ...patch }] as const),
  );
  it.each(mutations)('%s refuses %s', (_name, _label, schema, invalid) => {
    expect(schema.safeParse(invalid).success).toBe(false);
  });

  it('accepts nullable coordinates and the optional extras of a location record', () => {
    const record = {
      ...f.location,
      latitude: null,
      longitude: null,
      heading: 270,
      altitude: 5,
      satellites: 9,
      vehicle_uuid: f.U1,
      device_imei: '1234',
    };
    expect(locationRecordSchema.parse(record)).toMatchObject({ latitude: null, heading: 270 });
  });

  it('accepts a polygon geometry and a partial supported-commands map', () => {
    const polygon = {
      shape: 'polygon',
      points: [
        { latitude: 0, longitude: 0 },
        { latitude: 0, longitude: 1 },
        { latitude: 1, longitude: 1 },
      ],
    };
    expect(geofenceSchema.safeParse({ ...f.geofence, geometry: polygon }).success).toBe(true);
    expect(supportedCommandsSchema.safeParse({ teltonika: ['immobilize'], gosafe: [] }).success).toBe(true);
    expect(supportedCommandsSchema.safeParse({ teltonika: ['fly'] }).success).toBe(false);
  });

  it("defaults a user's permissions to an empty list", () => {
    const { permissions: _omit, ...rest } = f.user;
    expect(userSchema.parse(rest).permissions).toEqual([]);
  });
});

describe('envelopes', () => {
  it('wraps single records as {data}', () => {
    expect(dataEnvelope(stationSchema).safeParse({ data: f.station }).success).toBe(true);
    expect(dataEnvelope(stationSchema).safeParse(f.station).success).toBe(false);
  });

  it.each([
    ['valid page', f.page([f.station]), true],
    ['missing last_page', { data: [], total: 0, current_page: 1, per_page: 15 }, false],
    ['page 0', { ...f.page([]), current_page: 0 }, false],
    ['negative total', { ...f.page([]), total: -1 }, false],
  ])('paginated: %s', (_label, body, ok) => {
    expect(paginated(stationSchema).safeParse(body).success).toBe(ok);
  });

  it.each([
    [{ message: 'Invalid input', errors: { email: ['Email is required'] } }, true],
    [{ message: 'Not found' }, true],
    [{ errors: {} }, false],
    [{ message: 'x', errors: { email: 'Email is required' } }, false],
  ])('error body %#', (body, ok) => {
    expect(apiErrorBodySchema.safeParse(body).success).toBe(ok);
  });

  it('validates the sign-in, session and location page answers', () => {
    expect(loginResultSchema.safeParse({ token: 't', media_app_token: 'm', user: f.user }).success).toBe(
      true,
    );
    expect(loginResultSchema.safeParse({ token: 't', user: f.user }).success).toBe(false);
    expect(authSessionSchema.safeParse({ user: f.user, transport_companies: [f.company] }).success).toBe(
      true,
    );
    expect(vehicleLocationsResponseSchema.safeParse({ ...f.page([f.location]), per_page: 500 }).success).toBe(
      true,
    );
  });
});
