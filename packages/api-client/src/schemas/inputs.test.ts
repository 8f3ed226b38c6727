import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { U1, U2, T0, T1, place } from '../../test/fixtures';
import {
  changePasswordInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  otpSendInputSchema,
  otpVerifyInputSchema,
  resetPasswordInputSchema,
  setPasswordInputSchema,
  switchCompanyInputSchema,
  verifyPasswordInputSchema,
} from './auth';
import { deviceCommandInputSchema } from './command';
import { branchInputSchema, stationInputSchema } from './company';
import { deviceInputSchema } from './device';
import { driverInputSchema } from './driver';
import { fileParamsSchema, uploadParamsSchema } from './files';
import { geofenceInputSchema } from './geofence';
import { fcmTokenRegisterInputSchema, notificationRuleInputSchema } from './notification';
import { guardianInputSchema, passengerInputSchema, supervisorInputSchema } from './people';
import { reportExportInputSchema, reportQuerySchema } from './report';
import { schoolInputSchema } from './school';
import { scheduledTripInputSchema, tripInputSchema, tripsAppRecordInputSchema } from './trips';
import { userInputSchema } from './user';
import { shareLinkInputSchema, vehicleInputSchema } from './vehicle';

/** [label, schema, input, expected]: expected is true (valid) or [path, message] of the first issue. */
type Case = [string, z.ZodType, unknown, true | [string, string]];

const circle = { shape: 'circle', center: { latitude: 25, longitude: 55 }, radius: 150 };
const pw = { password: 'secret123', password_confirmation: 'secret123' };

const cases: Case[] = [
  // vehicle
  ['vehicle minimal', vehicleInputSchema, { license_plate_number: 'A1', type: 'car' }, true],
  [
    "vehicle of next year's model",
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', year: new Date().getUTCFullYear() + 1 },
    true,
  ],
  [
    'vehicle motor-bike with dates',
    vehicleInputSchema,
    {
      license_plate_number: 'A1',
      type: 'motor-bike',
      insurance_expiry: '2027-01-01',
      year: 2020,
      fuel_tank_capacity: 60.5,
    },
    true,
  ],
  [
    'vehicle plate required',
    vehicleInputSchema,
    { license_plate_number: '  ', type: 'car' },
    ['license_plate_number', 'License plate number is required'],
  ],
  [
    'vehicle plate missing',
    vehicleInputSchema,
    { type: 'car' },
    ['license_plate_number', 'License plate number is required'],
  ],
  [
    'vehicle type required',
    vehicleInputSchema,
    { license_plate_number: 'A1' },
    ['type', 'Vehicle type is required'],
  ],
  [
    'vehicle zero date',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', registration_expiry: '0001-01-01' },
    ['registration_expiry', 'Please enter a valid Registration expiry'],
  ],
  [
    'vehicle bad date',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', license_expiry: '2027-13-01' },
    ['license_expiry', 'Please enter a valid License expiry'],
  ],
  [
    'vehicle bad imei',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', device_imei: '12-34' },
    ['device_imei', 'Please enter a valid Device IMEI'],
  ],
  [
    'vehicle year as text',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', year: '2020' },
    ['year', 'Please enter a valid Year'],
  ],
  [
    'vehicle year two years ahead (next year is the latest model year)',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', year: new Date().getUTCFullYear() + 2 },
    ['year', 'Please enter a valid Year'],
  ],
  [
    'vehicle fractional seats',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', seat_capacity: 2.5 },
    ['seat_capacity', 'Please enter a valid Seat capacity'],
  ],
  [
    'vehicle bad branch',
    vehicleInputSchema,
    { license_plate_number: 'A1', type: 'car', branch_uuid: 'x' },
    ['branch_uuid', 'Please enter a valid Branch'],
  ],
  [
    'vehicle plate too long',
    vehicleInputSchema,
    { license_plate_number: 'A'.repeat(21), type: 'car' },
    ['license_plate_number', 'Please enter a valid License plate number'],
  ],
  [
    'vehicle plate not text',
    vehicleInputSchema,
    { license_plate_number: 5, type: 'car' },
    ['license_plate_number', 'Please enter a valid License plate number'],
  ],
  [
    'vehicle make not text',
    vehicleInputSchema,
    { license_plate_number: 'A', type: 'car', make: 5 },
    ['make', 'Please enter a valid Make'],
  ],
  [
    'vehicle maintenance',
    vehicleInputSchema,
    { license_plate_number: 'A', type: 'truck', status: 'maintenance' },
    true,
  ],
  ['share link default', shareLinkInputSchema, {}, true],
  [
    'share link too short',
    shareLinkInputSchema,
    { expires_in_minutes: 1 },
    ['expires_in_minutes', 'Please enter a valid Expiry'],
  ],
  // device
  ['device minimal', deviceInputSchema, { imei: '356307042441013', type: 'ruptela' }, true],
  [
    'device full',
    deviceInputSchema,
    {
      imei: '356307042441013',
      type: 'istartek',
      sim: '+971501234567',
      sim_card_number: '8997112345678901234F',
      expiration_date: '2027-01-01',
    },
    true,
  ],
  ['device imei required', deviceInputSchema, { imei: '', type: 'gosafe' }, ['imei', 'IMEI is required']],
  ['device imei missing', deviceInputSchema, { type: 'gosafe' }, ['imei', 'IMEI is required']],
  [
    'device bad type',
    deviceInputSchema,
    { imei: '1234567', type: 'acme' },
    ['type', 'Please enter a valid Device type'],
  ],
  [
    'device bad sim',
    deviceInputSchema,
    { imei: '1234567', type: 'door_technologies', sim: 'abc' },
    ['sim', 'Please enter a valid SIM'],
  ],
  [
    'device bad iccid',
    deviceInputSchema,
    { imei: '1234567', type: 'teltonika', sim_card_number: '12' },
    ['sim_card_number', 'Please enter a valid SIM card number'],
  ],
  // driver
  ['driver minimal', driverInputSchema, { first_name: 'A', last_name: 'B' }, true],
  [
    'driver full',
    driverInputSchema,
    {
      first_name: 'A',
      last_name: 'B',
      email: 'A@B.CO',
      phone: '0501234567',
      national_id: '784-1990-1234567-1',
      nationality: 'AE',
      gender: 'female',
    },
    true,
  ],
  [
    'driver national id pattern',
    driverInputSchema,
    { first_name: 'A', last_name: 'B', national_id: '784199012345671' },
    ['national_id', 'Please enter a valid National ID'],
  ],
  [
    'driver bad email',
    driverInputSchema,
    { first_name: 'A', last_name: 'B', email: 'nope' },
    ['email', 'Please enter a valid Email'],
  ],
  [
    'driver bad phone',
    driverInputSchema,
    { first_name: 'A', last_name: 'B', phone: '12' },
    ['phone', 'Please enter a valid Phone'],
  ],
  [
    'driver bad nationality',
    driverInputSchema,
    { first_name: 'A', last_name: 'B', nationality: 'UAE' },
    ['nationality', 'Please enter a valid Nationality'],
  ],
  ['driver first name', driverInputSchema, { last_name: 'B' }, ['first_name', 'First name is required']],
  // user
  [
    'user admin',
    userInputSchema,
    { name: 'U', email: 'u@x.io', user_type: 'admin', permissions: ['vehicles.create'] },
    true,
  ],
  [
    'user school admin with school',
    userInputSchema,
    { name: 'U', email: 'u@x.io', user_type: 'school_admin', school_uuid: U1, password: 'longenough' },
    true,
  ],
  [
    'user sub company admin needs station',
    userInputSchema,
    { name: 'U', email: 'u@x.io', user_type: 'sub_company_admin' },
    ['station_uuid', 'Station is required'],
  ],
  [
    'user bad permission',
    userInputSchema,
    { name: 'U', email: 'u@x.io', user_type: 'admin', permissions: ['Bad Perm'] },
    ['permissions.0', 'Invalid string: must match pattern /^[a-z][a-z0-9_-]*(\\.[a-z0-9_-]+)*$/'],
  ],
  [
    'user short password',
    userInputSchema,
    { name: 'U', email: 'u@x.io', user_type: 'admin', password: 'short' },
    ['password', 'Password must be at least 8 characters'],
  ],
  [
    'user email required',
    userInputSchema,
    { name: 'U', email: '', user_type: 'admin' },
    ['email', 'Email is required'],
  ],
  [
    'user type required',
    userInputSchema,
    { name: 'U', email: 'u@x.io' },
    ['user_type', 'User type is required'],
  ],
  // company
  ['branch with location', branchInputSchema, { name: 'B', location: place }, true],
  [
    'branch bad latitude',
    branchInputSchema,
    { name: 'B', location: { latitude: 100, longitude: 0 } },
    ['location.latitude', 'Please enter a valid Latitude'],
  ],
  ['station', stationInputSchema, { name: 'S', name_ar: 'س' }, true],
  ['station name required', stationInputSchema, { name: '' }, ['name', 'Name is required']],
  // school
  [
    'school',
    schoolInputSchema,
    {
      name: 'S',
      type: 'public',
      education_level: 'primary',
      opening_time: '07:00:00',
      closing_time: '13:00:00',
    },
    true,
  ],
  [
    'school closes before it opens',
    schoolInputSchema,
    {
      name: 'S',
      type: 'public',
      education_level: 'primary',
      opening_time: '13:00:00',
      closing_time: '07:00:00',
    },
    ['closing_time', 'Please enter a valid Closing time'],
  ],
  [
    'school time without seconds',
    schoolInputSchema,
    { name: 'S', type: 'public', education_level: 'primary', opening_time: '07:00' },
    ['opening_time', 'Please enter a valid Opening time'],
  ],
  [
    'school level required',
    schoolInputSchema,
    { name: 'S', type: 'public' },
    ['education_level', 'Education level is required'],
  ],
  // people
  [
    'passenger',
    passengerInputSchema,
    { first_name: 'A', last_name: 'B', school_uuid: U1, guardian_uuids: [U2, U2] },
    true,
  ],
  [
    'passenger school required',
    passengerInputSchema,
    { first_name: 'A', last_name: 'B' },
    ['school_uuid', 'School is required'],
  ],
  [
    'guardian',
    guardianInputSchema,
    { first_name: 'A', last_name: 'B', phone: '+971500000000', relationship: 'father' },
    true,
  ],
  [
    'guardian phone required',
    guardianInputSchema,
    { first_name: 'A', last_name: 'B', relationship: 'father' },
    ['phone', 'Phone is required'],
  ],
  [
    'guardian relationship',
    guardianInputSchema,
    { first_name: 'A', last_name: 'B', phone: '0500000000', relationship: 'uncle' },
    ['relationship', 'Please enter a valid Relationship'],
  ],
  ['supervisor', supervisorInputSchema, { first_name: 'A', last_name: 'B', vehicle_uuid: U1 }, true],
  // trips
  ['trip', tripInputSchema, { name: 'T', start_at: T0, end_at: T1, start_location: place }, true],
  [
    'trip ends before it starts',
    tripInputSchema,
    { name: 'T', start_at: T1, end_at: T0 },
    ['end_at', 'Please enter a valid End time'],
  ],
  ['trip start required', tripInputSchema, { name: 'T' }, ['start_at', 'Start time is required']],
  [
    'scheduled one way',
    scheduledTripInputSchema,
    {
      name: 'R',
      type: 'one_way',
      departure_time: '06:30:00',
      start_date: '2026-09-01',
      stops: [{ name: 'S1', location: place, arrival_offset_minutes: 5 }],
    },
    true,
  ],
  [
    'scheduled round needs return',
    scheduledTripInputSchema,
    { name: 'R', type: 'round', departure_time: '06:30:00', start_date: '2026-09-01' },
    ['return_time', 'Return time is required'],
  ],
  [
    'scheduled return before departure',
    scheduledTripInputSchema,
    {
      name: 'R',
      type: 'round',
      departure_time: '06:30:00',
      return_time: '06:00:00',
      start_date: '2026-09-01',
    },
    ['return_time', 'Please enter a valid Return time'],
  ],
  [
    'scheduled end before start',
    scheduledTripInputSchema,
    {
      name: 'R',
      type: 'one_way',
      departure_time: '06:30:00',
      start_date: '2026-09-01',
      end_date: '2026-08-01',
    },
    ['end_date', 'Please enter a valid End date'],
  ],
  [
    'scheduled no days',
    scheduledTripInputSchema,
    { name: 'R', type: 'one_way', departure_time: '06:30:00', start_date: '2026-09-01', days_of_week: [] },
    ['days_of_week', 'Days is required'],
  ],
  [
    'trips-app record',
    tripsAppRecordInputSchema,
    { driver_uuid: U1, vehicle_uuid: U2, started_at: T0, ended_at: T1 },
    true,
  ],
  [
    'trips-app ends before start',
    tripsAppRecordInputSchema,
    { driver_uuid: U1, vehicle_uuid: U2, started_at: T1, ended_at: T0 },
    ['ended_at', 'Please enter a valid End time'],
  ],
  [
    'trips-app driver required',
    tripsAppRecordInputSchema,
    { vehicle_uuid: U2 },
    ['driver_uuid', 'Driver is required'],
  ],
  // geofences
  ['geofence circle', geofenceInputSchema, { name: 'G', geometry: circle }, true],
  [
    'geofence polygon too small',
    geofenceInputSchema,
    { name: 'G', geometry: { shape: 'polygon', points: [{ latitude: 0, longitude: 0 }] } },
    ['geometry.points', 'Please enter a valid Polygon'],
  ],
  ['geofence shape required', geofenceInputSchema, { name: 'G' }, ['geometry', 'Shape is required']],
  [
    'geofence colour',
    geofenceInputSchema,
    { name: 'G', geometry: circle, color: 'red' },
    ['color', 'Please enter a valid Colour'],
  ],
  [
    'geofence no rules',
    geofenceInputSchema,
    { name: 'G', geometry: circle, tracking_rules: [] },
    ['tracking_rules', 'Tracking rules is required'],
  ],
  // notifications
  ['rule overspeed', notificationRuleInputSchema, { name: 'R', type: 'overspeed', speed_limit: 90 }, true],
  [
    'rule offline needs minutes',
    notificationRuleInputSchema,
    { name: 'R', type: 'device_offline' },
    ['duration_minutes', 'Duration is required'],
  ],
  [
    'rule offline',
    notificationRuleInputSchema,
    { name: 'R', type: 'trip_delayed', duration_minutes: 10 },
    true,
  ],
  [
    'rule expiry needs days',
    notificationRuleInputSchema,
    { name: 'R', type: 'document_expiry', documents: ['driver_license'] },
    ['days_ahead', 'Days ahead is required'],
  ],
  [
    'rule expiry needs documents',
    notificationRuleInputSchema,
    { name: 'R', type: 'document_expiry', days_ahead: 30 },
    ['documents', 'Documents is required'],
  ],
  [
    'rule battery needs threshold',
    notificationRuleInputSchema,
    { name: 'R', type: 'low_battery' },
    ['threshold', 'Threshold is required'],
  ],
  ['rule battery', notificationRuleInputSchema, { name: 'R', type: 'low_battery', threshold: 20 }, true],
  [
    'rule geofence needs zones',
    notificationRuleInputSchema,
    { name: 'R', type: 'geofence_exit' },
    ['geofence_uuids', 'Geofences is required'],
  ],
  [
    'rule geofence',
    notificationRuleInputSchema,
    { name: 'R', type: 'geofence_entry', geofence_uuids: [U1] },
    true,
  ],
  [
    'rule no channels',
    notificationRuleInputSchema,
    { name: 'R', type: 'overspeed', channels: [] },
    ['channels', 'Channels is required'],
  ],
  [
    'fcm register',
    fcmTokenRegisterInputSchema,
    { token: 't', platform: 'ios', device_id: 'ios-1-abcdefghi' },
    true,
  ],
  [
    'fcm register platform',
    fcmTokenRegisterInputSchema,
    { token: 't', device_id: 'd' },
    ['platform', 'Platform is required'],
  ],
  // commands
  ['command get_gps', deviceCommandInputSchema, { type: 'get_gps' }, true],
  [
    'command change ip',
    deviceCommandInputSchema,
    { type: 'change_ip_port', attributes: { host: 'gw.example.com', port: 5027 }, verification_token: 'tok' },
    true,
  ],
  [
    'command change ip needs the password step-up (issue 18)',
    deviceCommandInputSchema,
    { type: 'change_ip_port', attributes: { host: 'gw.example.com', port: 5027 } },
    ['verification_token', 'Password verification is required'],
  ],
  [
    'command change ip bad port',
    deviceCommandInputSchema,
    { type: 'change_ip_port', attributes: { host: 'gw.example.com', port: 70000 } },
    ['attributes.port', 'Please enter a valid Port'],
  ],
  [
    'command custom needs text',
    deviceCommandInputSchema,
    { type: 'custom', attributes: {} },
    ['attributes.text', 'Command text is required'],
  ],
  [
    'command set odometer',
    deviceCommandInputSchema,
    { type: 'set_odometer', attributes: { value: 1000 } },
    true,
  ],
  [
    'command immobilize verified',
    deviceCommandInputSchema,
    { type: 'immobilize', verification_token: 'tok' },
    true,
  ],
  [
    'command unimmobilize unverified',
    deviceCommandInputSchema,
    { type: 'unimmobilize' },
    ['verification_token', 'Password verification is required'],
  ],
  [
    'command unknown',
    deviceCommandInputSchema,
    { type: 'explode' },
    ['type', 'Please enter a valid Command'],
  ],
  // reports
  ['report query', reportQuerySchema, { from: T0, to: T1, limit: '50' }, true],
  ['report range reversed', reportQuerySchema, { from: T1, to: T0 }, ['to', 'Please enter a valid To']],
  ['report range required', reportQuerySchema, { to: T0 }, ['from', 'From is required']],
  ['export', reportExportInputSchema, { report: 'salik', format: 'pdf', from: T0, to: T1 }, true],
  [
    'export bad format',
    reportExportInputSchema,
    { report: 'salik', format: 'doc', from: T0, to: T1 },
    ['format', 'Please enter a valid Format'],
  ],
  // files
  ['file params', fileParamsSchema, { kind: 'avatars', name: 'a1b2.png' }, true],
  [
    'file path traversal',
    fileParamsSchema,
    { kind: 'avatars', name: '../etc/passwd' },
    ['name', 'Please enter a valid File name'],
  ],
  [
    'upload exports refused',
    uploadParamsSchema,
    { kind: 'exports' },
    ['kind', 'Please enter a valid File kind'],
  ],
  // auth
  ['login email', loginInputSchema, { email: 'Demo@Fleet.test', password: 'x' }, true],
  ['login phone', loginInputSchema, { phone: '+971500000000', password: 'x' }, true],
  [
    'login both',
    loginInputSchema,
    { email: 'a@b.co', phone: '+971500000000', password: 'x' },
    ['phone', 'Use either email or phone, not both'],
  ],
  [
    'login password required',
    loginInputSchema,
    { email: 'a@b.co', password: '' },
    ['password', 'Password is required'],
  ],
  ['set password', setPasswordInputSchema, pw, true],
  [
    'set password mismatch',
    setPasswordInputSchema,
    { ...pw, password_confirmation: 'other123' },
    ['password_confirmation', 'Password and confirm password must be the same'],
  ],
  [
    'set password confirmation required',
    setPasswordInputSchema,
    { password: 'secret123' },
    ['password_confirmation', 'Confirm password is required'],
  ],
  ['forgot password', forgotPasswordInputSchema, { phone: '0501234567' }, true],
  ['forgot password identity', forgotPasswordInputSchema, {}, ['email', 'Email is required']],
  ['reset password', resetPasswordInputSchema, { token: 'x'.repeat(32), ...pw }, true],
  [
    'reset password token',
    resetPasswordInputSchema,
    { token: 'short', ...pw },
    ['token', 'Token is required'],
  ],
  ['change password', changePasswordInputSchema, { current_password: 'oldsecret', ...pw }, true],
  [
    'change password same',
    changePasswordInputSchema,
    { current_password: 'secret123', ...pw },
    ['password', 'New password must be different from the current password'],
  ],
  ['otp send', otpSendInputSchema, { purpose: 'sensitive_action' }, true],
  [
    'otp verify',
    otpVerifyInputSchema,
    { purpose: 'reset_password', code: '123456', phone: '0501234567' },
    true,
  ],
  [
    'otp verify bad code',
    otpVerifyInputSchema,
    { purpose: 'login', code: '12a' },
    ['code', 'Please enter a valid OTP'],
  ],
  ['verify password', verifyPasswordInputSchema, { password: '' }, ['password', 'Password is required']],
  ['switch company', switchCompanyInputSchema, { transport_company_uuid: U1 }, true],
  [
    'switch company required',
    switchCompanyInputSchema,
    {},
    ['transport_company_uuid', 'Transport company is required'],
  ],
];

describe('input schemas', () => {
  it.each(cases)('%s', (_label, schema, input, expected) => {
    const result = schema.safeParse(input);
    if (expected === true) {
      expect(result.error?.issues).toBeUndefined();
    } else {
      expect(result.success).toBe(false);
      const first = result.error?.issues[0];
      expect([first?.path.join('.'), first?.message]).toEqual(expected);
    }
  });
});

describe('normalisation', () => {
  it('trims text, lowercases e-mails and turns empty optional values into null', () => {
    const out = driverInputSchema.parse({
      first_name: ' Omar ',
      last_name: 'H',
      email: ' OMAR@X.IO ',
      phone: '',
      national_id: '',
      license_expiry: '',
      branch_uuid: '',
      gender: undefined,
    });
    expect(out).toMatchObject({
      first_name: 'Omar',
      email: 'omar@x.io',
      phone: null,
      national_id: null,
      license_expiry: null,
      branch_uuid: null,
      gender: null,
      status: 'active',
    });
  });

  it('deduplicates id lists and sorts days of the week', () => {
    expect(
      passengerInputSchema.parse({
        first_name: 'A',
        last_name: 'B',
        school_uuid: U1,
        guardian_uuids: [U2, U2],
      }).guardian_uuids,
    ).toEqual([U2]);
    const trip = scheduledTripInputSchema.parse({
      name: 'R',
      type: 'round',
      departure_time: '06:00:00',
      return_time: '14:00:00',
      start_date: '2026-09-01',
      days_of_week: [5, 1, 1],
    });
    expect(trip.days_of_week).toEqual([1, 5]);
    expect(
      geofenceInputSchema.parse({ name: 'G', geometry: circle, tracking_rules: ['exit', 'exit'] })
        .tracking_rules,
    ).toEqual(['exit']);
  });

  it('fills defaults of optional counters and link lifetime', () => {
    expect(shareLinkInputSchema.parse({}).expires_in_minutes).toBe(60);
    expect(tripsAppRecordInputSchema.parse({ driver_uuid: U1, vehicle_uuid: U2 })).toMatchObject({
      passengers_boarded: 0,
      passengers_dropped: 0,
      status: 'pending',
    });
  });
});
