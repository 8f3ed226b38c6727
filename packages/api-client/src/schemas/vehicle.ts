/**
 * Vehicles (spec section 3) and the live list.
 *
 * Field names follow the spec's words in snake_case. "Registration state" and "plate category" are the
 * plate's `license_plate_state_code` (a code from GET /v1/configurations/options/vehicle/states/{country})
 * and `license_plate_category`, the names the notification's plate card uses, so one vehicle has one name
 * for each. A vehicle links to its devices by `device_imei` (main tracker, IO and commands) and
 * `gps_device_imei` (a separate GPS unit, when fitted). `speed_limit` (km/h) feeds the overspeed rule;
 * null means the company default.
 */
import { z } from 'zod';
import {
  dataEnvelope,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  optionalDateField,
  optionalIntField,
  optionalNumberField,
  optionalText,
  optionalUuidRef,
  paginationMetaShape,
  personSummarySchema,
  queryInt,
  baseListQueryShape,
  text,
  timestampsShape,
  uuidSchema,
  vehicleLiveStatusSchema,
  vehicleLiveStatuses,
  vehicleStatusSchema,
  fieldError,
  invalidMessage,
} from './common';
import { optionalImeiField } from './device';
import { locationRecordSchema } from './location';

export const vehicleTypes = ['bus', 'car', 'truck', 'motorcycle', 'motor-bike'] as const;
export const vehicleTypeSchema = z.enum(vehicleTypes, { error: fieldError('Vehicle type') });
export type VehicleType = z.infer<typeof vehicleTypeSchema>;

export const vehicleSchema = z.object({
  uuid: uuidSchema,
  license_plate_number: z.string(),
  license_plate_state_code: nullableString,
  license_plate_category: nullableString,
  type: vehicleTypeSchema,
  make: nullableString,
  model: nullableString,
  year: z.number().int().nullable(),
  chassis_number: nullableString,
  engine_number: nullableString,
  seat_capacity: z.number().int().nullable(),
  /** Litres. */
  fuel_tank_capacity: z.number().nullable(),
  registration_number: nullableString,
  /** YYYY-MM-DD */
  registration_expiry: nullableString,
  insurance_company: nullableString,
  insurance_policy_number: nullableString,
  /** YYYY-MM-DD */
  insurance_expiry: nullableString,
  /** YYYY-MM-DD: expiry of the vehicle's operating licence. */
  license_expiry: nullableString,
  device_imei: nullableString,
  gps_device_imei: nullableString,
  /** km/h; null = company default. */
  speed_limit: z.number().nullable(),
  status: vehicleStatusSchema,
  branch_uuid: uuidSchema.nullable(),
  station_uuid: uuidSchema.nullable(),
  school_uuid: uuidSchema.nullable(),
  driver_uuid: uuidSchema.nullable(),
  ...timestampsShape,
});
export type Vehicle = z.infer<typeof vehicleSchema>;

const CURRENT_YEAR_LIMIT = 2100;

/**
 * Create / update body. The portal's two steps (details, registration) post one body. Optional fields
 * accept '' or null as "no value".
 */
export const vehicleInputSchema = z.object({
  license_plate_number: text('License plate number', 20),
  license_plate_state_code: optionalText('Registration state', 20),
  license_plate_category: optionalText('Plate category', 50),
  type: vehicleTypeSchema,
  make: optionalText('Make', 100),
  model: optionalText('Model', 100),
  // A model year can be next year's (sold from the autumn before), never later: checked at parse time
  // so the limit moves with the calendar, the same rule in the portal's form and on the server.
  year: optionalIntField('Year', 1950, CURRENT_YEAR_LIMIT).refine(
    (value) => value === null || value <= new Date().getUTCFullYear() + 1,
    { error: invalidMessage('Year') },
  ),
  chassis_number: optionalText('Chassis number', 50),
  engine_number: optionalText('Engine number', 50),
  seat_capacity: optionalIntField('Seat capacity', 1, 200),
  fuel_tank_capacity: optionalNumberField('Fuel tank capacity', 1, 5000),
  registration_number: optionalText('Registration number', 50),
  registration_expiry: optionalDateField('Registration expiry'),
  insurance_company: optionalText('Insurance company', 100),
  insurance_policy_number: optionalText('Policy number', 50),
  insurance_expiry: optionalDateField('Insurance expiry'),
  license_expiry: optionalDateField('License expiry'),
  device_imei: optionalImeiField('Device IMEI'),
  gps_device_imei: optionalImeiField('GPS device IMEI'),
  speed_limit: optionalNumberField('Speed limit', 1, 300),
  status: vehicleStatusSchema.default('active'),
  branch_uuid: optionalUuidRef('Branch'),
  station_uuid: optionalUuidRef('Station'),
  school_uuid: optionalUuidRef('School'),
  driver_uuid: optionalUuidRef('Driver'),
});
export type VehicleInput = z.input<typeof vehicleInputSchema>;

/** Columns GET /v1/vehicles sorts by (server-side; `last_seen` is the latest fix of its trackers). */
export const vehicleSortColumns = [
  'license_plate_number',
  'type',
  'make',
  'model',
  'device_imei',
  'status',
  'last_seen',
  'created_at',
  'updated_at',
] as const;
export const vehicleSortColumnSchema = z.enum(vehicleSortColumns, { error: invalidMessage('Sort') });

/**
 * Last-seen buckets of the vehicle list's filter, by the latest fix of the vehicle's trackers: within
 * the hour, within 24 hours, within 7 days, longer ago, never.
 */
export const lastSeenRanges = ['hour', 'day', 'week', 'older', 'never'] as const;
export const lastSeenRangeSchema = z.enum(lastSeenRanges, { error: invalidMessage('Last seen') });
export type LastSeenRange = z.infer<typeof lastSeenRangeSchema>;

export const vehicleListQuerySchema = listQuerySchema(vehicleStatusSchema, {
  sort: vehicleSortColumnSchema.optional(),
  type: vehicleTypeSchema.optional(),
  branch_uuid: uuidSchema.optional(),
  station_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
  driver_uuid: uuidSchema.optional(),
  live_status: vehicleLiveStatusSchema.optional(),
  last_seen: lastSeenRangeSchema.optional(),
});
export type VehicleListQuery = z.input<typeof vehicleListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Live view
// ---------------------------------------------------------------------------------------------------------

/** Status tabs of the live view (spec section 1). */
export const liveStatusTabs = ['all', ...vehicleLiveStatuses] as const;
export const liveStatusTabSchema = z.enum(liveStatusTabs);
export type LiveStatusTab = z.infer<typeof liveStatusTabSchema>;

/** A vehicle on the live map and list: plate card fields, its driver, latest location and live status. */
export const liveVehicleSchema = z.object({
  uuid: uuidSchema,
  license_plate_number: z.string(),
  license_plate_state_code: nullableString,
  license_plate_category: nullableString,
  type: vehicleTypeSchema,
  make: nullableString,
  model: nullableString,
  status: vehicleStatusSchema,
  device_imei: nullableString,
  gps_device_imei: nullableString,
  driver: personSummarySchema.nullable(),
  location: locationRecordSchema.nullable(),
  live_status: vehicleLiveStatusSchema,
  /** Minutes idle so far when live_status is 'idle' (the idle label shows minutes). */
  idle_minutes: z.number().int().min(0).nullable(),
});
export type LiveVehicle = z.infer<typeof liveVehicleSchema>;

/** Number of vehicles under each tab, over the whole filtered set (not only this page). */
export const liveStatusCountsSchema = z.object({
  all: z.number().int().min(0),
  live: z.number().int().min(0),
  idle: z.number().int().min(0),
  offline: z.number().int().min(0),
  inactive: z.number().int().min(0),
  'no-data': z.number().int().min(0),
});
export type LiveStatusCounts = z.infer<typeof liveStatusCountsSchema>;

/** The live map shows the whole fleet, so this list allows large pages (default 1000, at most 5000). */
export const liveVehiclesQuerySchema = z.object({
  ...baseListQueryShape,
  limit: queryInt('Limit', 1, 5000).default(1000),
  live_status: liveStatusTabSchema.default('all'),
  type: vehicleTypeSchema.optional(),
  branch_uuid: uuidSchema.optional(),
  station_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
});
export type LiveVehiclesQuery = z.input<typeof liveVehiclesQuerySchema>;

/** GET /v1/vehicles/live answer: the paginated envelope plus counts per status tab. */
export const liveVehiclesResponseSchema = z.object({
  data: z.array(liveVehicleSchema),
  ...paginationMetaShape,
  counts: liveStatusCountsSchema,
});
export type LiveVehiclesResponse = z.infer<typeof liveVehiclesResponseSchema>;

// ---------------------------------------------------------------------------------------------------------
// Share links
// ---------------------------------------------------------------------------------------------------------

/** POST /v1/vehicles/{uuid}/share body: link lifetime in minutes (5 minutes to 7 days, default 60). */
export const shareLinkInputSchema = z.object({
  expires_in_minutes: optionalIntField('Expiry', 5, 7 * 24 * 60).transform((value) => value ?? 60),
});
export type ShareLinkInput = z.input<typeof shareLinkInputSchema>;

/** A share link: the public url (copy, e-mail, open in a maps service) and when it stops working. */
export const shareLinkSchema = z.object({
  token: z.string().min(16),
  url: z.url(),
  expires_at: isoDateTimeSchema,
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** GET /v1/share/{token} (public): the shared vehicle's plate, latest location and live status. */
export const sharedLocationSchema = z.object({
  vehicle: z.object({
    license_plate_number: z.string(),
    license_plate_state_code: nullableString,
    license_plate_category: nullableString,
    type: vehicleTypeSchema,
  }),
  location: locationRecordSchema.nullable(),
  live_status: vehicleLiveStatusSchema,
  expires_at: isoDateTimeSchema,
});
export type SharedLocation = z.infer<typeof sharedLocationSchema>;

export const shareLinkResponseSchema = dataEnvelope(shareLinkSchema);
export const sharedLocationResponseSchema = dataEnvelope(sharedLocationSchema);
