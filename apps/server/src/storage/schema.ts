/**
 * drizzle-orm table definitions mirroring migrations/*.sql (the SQL files are the source of truth
 * for DDL; these give typed queries). Internal ids are `bigint` in SQL, numbers in JS.
 */
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const ref = (name: string) => bigint(name, { mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
type Json = Record<string, unknown>;

const scope = () => ({
  companyId: ref('company_id').notNull(),
  subCompanyId: ref('sub_company_id'),
  branchId: ref('branch_id'),
  schoolId: ref('school_id'),
});
const stamps = () => ({
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const transportCompanies = pgTable('transport_companies', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  name: text('name').notNull(),
  nameAr: text('name_ar'),
  countryCode: text('country_code').notNull(),
  status: text('status').notNull(),
  features: jsonb('features').$type<Record<string, boolean>>().notNull(),
  settings: jsonb('settings').$type<Json>().notNull(),
  configurations: jsonb('configurations').$type<Json>().notNull(),
  ...stamps(),
});

export const subCompanies = pgTable('sub_companies', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  name: text('name').notNull(),
  nameAr: text('name_ar'),
  status: text('status').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const branches = pgTable('branches', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  subCompanyId: ref('sub_company_id'),
  name: text('name').notNull(),
  description: text('description'),
  location: jsonb('location').$type<Json>(),
  status: text('status').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const schools = pgTable('schools', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  subCompanyId: ref('sub_company_id'),
  branchId: ref('branch_id'),
  name: text('name').notNull(),
  nameAr: text('name_ar'),
  code: text('code'),
  type: text('type'),
  status: text('status').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const users = pgTable('users', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  email: text('email'),
  phone: text('phone'),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  status: text('status').notNull(),
  isSuperAdmin: boolean('is_super_admin').notNull(),
  locale: text('locale').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  lastLoginAt: ts('last_login_at'),
  ...stamps(),
});

export const memberships = pgTable('memberships', {
  id: id(),
  userId: ref('user_id').notNull(),
  companyId: ref('company_id').notNull(),
  userType: text('user_type').notNull(),
  role: text('role'),
  subCompanyId: ref('sub_company_id'),
  branchId: ref('branch_id'),
  schoolId: ref('school_id'),
  permissions: text('permissions').array(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  id: id(),
  userId: ref('user_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  companyId: ref('company_id'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastUsedAt: ts('last_used_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
});

export const authTokens = pgTable('auth_tokens', {
  id: id(),
  userId: ref('user_id').notNull(),
  kind: text('kind').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const otpCodes = pgTable('otp_codes', {
  id: id(),
  userId: ref('user_id').notNull(),
  purpose: text('purpose').notNull(),
  channel: text('channel').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const loginAttempts = pgTable('login_attempts', {
  id: id(),
  key: text('key').notNull(),
  success: boolean('success').notNull(),
  at: ts('at').notNull().defaultNow(),
});

export const devices = pgTable('devices', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  imei: text('imei').notNull(),
  type: text('type').notNull(),
  make: text('make'),
  model: text('model'),
  sim: text('sim'),
  status: text('status').notNull(),
  connectionStatus: text('connection_status').notNull(),
  lastConnectedAt: ts('last_connected_at'),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const unknownDevices = pgTable('unknown_devices', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  imei: text('imei').notNull(),
  protocol: text('protocol'),
  remoteAddress: text('remote_address'),
  attempts: integer('attempts').notNull(),
  firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
  lastAttemptAt: ts('last_attempt_at').notNull().defaultNow(),
});

export const vehicles = pgTable('vehicles', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  licensePlateNumber: text('license_plate_number').notNull(),
  type: text('type').notNull(),
  make: text('make'),
  model: text('model'),
  status: text('status').notNull(),
  deviceImei: text('device_imei'),
  gpsDeviceImei: text('gps_device_imei'),
  driverId: ref('driver_id'),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

const person = () => ({
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  status: text('status').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const drivers = pgTable('drivers', {
  ...person(),
  email: text('email'),
  phone: text('phone'),
  licenseNumber: text('license_number'),
});
export const guardians = pgTable('guardians', { ...person(), email: text('email'), phone: text('phone') });
export const supervisors = pgTable('supervisors', {
  ...person(),
  vehicleId: ref('vehicle_id'),
  email: text('email'),
  phone: text('phone'),
});
export const passengers = pgTable('passengers', person());
export const passengerGuardians = pgTable('passenger_guardians', {
  passengerId: ref('passenger_id').notNull(),
  guardianId: ref('guardian_id').notNull(),
});

export const geofenceVehicles = pgTable('geofence_vehicles', {
  geofenceId: ref('geofence_id').notNull(),
  vehicleId: ref('vehicle_id').notNull(),
});

export const geofences = pgTable('geofences', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  name: text('name').notNull(),
  type: text('type'),
  shape: text('shape').notNull(),
  geometry: jsonb('geometry').$type<Json>().notNull(),
  minLat: doublePrecision('min_lat').notNull(),
  minLng: doublePrecision('min_lng').notNull(),
  maxLat: doublePrecision('max_lat').notNull(),
  maxLng: doublePrecision('max_lng').notNull(),
  status: text('status').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const trips = pgTable('trips', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  name: text('name').notNull(),
  description: text('description'),
  status: text('status').notNull(),
  vehicleId: ref('vehicle_id'),
  driverId: ref('driver_id'),
  scheduledTripId: ref('scheduled_trip_id'),
  supervisorId: ref('supervisor_id'),
  startAt: ts('start_at').notNull(),
  endAt: ts('end_at'),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const scheduledTrips = pgTable('scheduled_trips', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull(),
  vehicleId: ref('vehicle_id'),
  driverId: ref('driver_id'),
  supervisorId: ref('supervisor_id'),
  departureTime: text('departure_time').notNull(),
  returnTime: text('return_time'),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const scheduledTripStops = pgTable('scheduled_trip_stops', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  scheduledTripId: ref('scheduled_trip_id').notNull(),
  position: integer('position').notNull(),
  name: text('name').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  address: text('address'),
  arrivalOffsetMinutes: integer('arrival_offset_minutes').notNull(),
});

export const scheduledTripPassengers = pgTable('scheduled_trip_passengers', {
  scheduledTripId: ref('scheduled_trip_id').notNull(),
  passengerId: ref('passenger_id').notNull(),
  stopId: ref('stop_id'),
});

export const tripsApp = pgTable('trips_app', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  ...scope(),
  reference: text('reference').notNull(),
  status: text('status').notNull(),
  vehicleId: ref('vehicle_id'),
  driverId: ref('driver_id'),
  tripId: ref('trip_id'),
  startedAt: ts('started_at'),
  endedAt: ts('ended_at'),
  data: jsonb('data').$type<Json>().notNull(),
  ...stamps(),
});

export const notifications = pgTable('notifications', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  userId: ref('user_id').notNull(),
  vehicleId: ref('vehicle_id'),
  type: text('type').notNull(),
  title: text('title').notNull(),
  message: text('message').notNull(),
  violationValue: text('violation_value'),
  icon: text('icon'),
  data: jsonb('data').$type<Json>().notNull(),
  deviceCreatedAt: ts('device_created_at'),
  readAt: ts('read_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const notificationRules = pgTable('notification_rules', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull(),
  params: jsonb('params').$type<Json>().notNull(),
  ...stamps(),
});

export const fcmTokens = pgTable('fcm_tokens', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  userId: ref('user_id').notNull(),
  companyId: ref('company_id'),
  token: text('token').notNull(),
  platform: text('platform').notNull(),
  deviceId: text('device_id'),
  appVersion: text('app_version'),
  active: boolean('active').notNull(),
  ...stamps(),
});

export const deviceCommands = pgTable('device_commands', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  deviceId: ref('device_id').notNull(),
  userId: ref('user_id'),
  command: text('command').notNull(),
  params: jsonb('params').$type<Json>().notNull(),
  payload: text('payload'),
  status: text('status').notNull(),
  response: text('response'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
  answeredAt: ts('answered_at'),
});

export const files = pgTable('files', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id'),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  content: bytea('content').notNull(),
  createdBy: ref('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const activityLog = pgTable('activity_log', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id'),
  userId: ref('user_id'),
  at: ts('at').notNull().defaultNow(),
  entity: text('entity').notNull(),
  entityUuid: uuid('entity_uuid'),
  action: text('action').notNull(),
  before: jsonb('before').$type<Json>(),
  after: jsonb('after').$type<Json>(),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

export const deviceTrips = pgTable('device_trips', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  vehicleId: ref('vehicle_id'),
  deviceId: ref('device_id').notNull(),
  startedAt: ts('started_at').notNull(),
  endedAt: ts('ended_at'),
  distanceM: doublePrecision('distance_m'),
  data: jsonb('data').$type<Json>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const geofenceEvents = pgTable('geofence_events', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  vehicleId: ref('vehicle_id'),
  geofenceId: ref('geofence_id'),
  kind: text('kind').notNull(),
  at: ts('at').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const salikEvents = pgTable('salik_events', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  companyId: ref('company_id').notNull(),
  vehicleId: ref('vehicle_id'),
  gate: text('gate').notNull(),
  direction: text('direction'),
  fee: numeric('fee', { mode: 'number' }),
  at: ts('at').notNull(),
  data: jsonb('data').$type<Json>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

const locationColumns = () => ({
  deviceId: ref('device_id').notNull(),
  vehicleId: ref('vehicle_id'),
  companyId: ref('company_id').notNull(),
  fixTime: ts('fix_time').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  altitude: real('altitude'),
  speed: real('speed'),
  course: real('course'),
  satellites: smallint('satellites'),
  ignition: boolean('ignition'),
  isIdle: boolean('is_idle'),
  digitalOutput1: smallint('digital_output1'),
  digitalOutput2: smallint('digital_output2'),
  // json, not jsonb (migration 0006): stored as the device sent it, read whole, never queried inside.
  ioElements: json('io_elements').$type<Record<string, { value: number | string }>>().notNull(),
  source: text('source'),
});

export const locations = pgTable('locations', { ...locationColumns(), valid: boolean('valid').notNull() });
export const latestLocations = pgTable('latest_locations', locationColumns());
