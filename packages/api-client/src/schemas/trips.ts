/**
 * Trips of school transport and of devices.
 *
 * - Trip (spec: name, description, time, start and end location): one run of a bus on one day, planned by
 *   hand or generated each day from a scheduled trip. `start_at` / `end_at` are the planned times,
 *   `started_at` / `completed_at` what really happened; `status` is one of the spec's trip statuses.
 * - Scheduled trip (spec: type one way or round, departure, return, start and end time, stops, passengers,
 *   driver, vehicle): a timetable. `departure_time` starts the outbound leg and `return_time` the way back
 *   (round trips only); `start_date` / `end_date` bound the days it runs ("start and end time" of the spec,
 *   read as the validity window; end open when null) on `days_of_week` (ISO 1 = Monday .. 7 = Sunday).
 *   Stops are ordered; each has its place, the minutes after departure the bus is expected there, and the
 *   passengers boarding or leaving there.
 * - Trips-app record: what the driver's mobile app logs for a run (the spec shows no fields): who drove
 *   which vehicle, when it started and ended, where, the distance, how many passengers boarded and got
 *   off, and notes; linked to the trip it fulfils when there is one.
 * - Device trip: a trip detected from a device's ignition and movement (issue 6): start and end time and
 *   place, distance, duration, maximum and average speed, idle time, and fuel used when the device reports
 *   it. Read only.
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  dateField,
  dateTimeField,
  entityStatusSchema,
  fieldError,
  invalidMessage,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  optionalDateField,
  optionalIntField,
  optionalNumberField,
  optionalText,
  optionalUuidRef,
  placeInputSchema,
  placeSchema,
  requiredMessage,
  text,
  timeField,
  timeRangeShape,
  timestampsShape,
  tripStatusSchema,
  uuidRef,
  uuidSchema,
  intField,
} from './common';

const uuidList = (field: string, max = 200) =>
  z
    .array(uuidRef(field))
    .max(max)
    .default([])
    .transform((list) => [...new Set(list)]);

// ---------------------------------------------------------------------------------------------------------
// Trip
// ---------------------------------------------------------------------------------------------------------

export const tripSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  description: nullableString,
  status: tripStatusSchema,
  start_at: isoDateTimeSchema,
  end_at: isoDateTimeSchema.nullable(),
  started_at: isoDateTimeSchema.nullable(),
  completed_at: isoDateTimeSchema.nullable(),
  start_location: placeSchema.nullable(),
  end_location: placeSchema.nullable(),
  scheduled_trip_uuid: uuidSchema.nullable(),
  vehicle_uuid: uuidSchema.nullable(),
  driver_uuid: uuidSchema.nullable(),
  supervisor_uuid: uuidSchema.nullable(),
  school_uuid: uuidSchema.nullable(),
  ...timestampsShape,
});
export type Trip = z.infer<typeof tripSchema>;

export const tripInputSchema = z
  .object({
    name: text('Name', 150),
    description: optionalText('Description', 1000),
    status: tripStatusSchema.default('pending'),
    start_at: dateTimeField('Start time'),
    end_at: dateTimeField('End time')
      .nullish()
      .transform((value) => value ?? null),
    start_location: placeInputSchema.nullish().transform((value) => value ?? null),
    end_location: placeInputSchema.nullish().transform((value) => value ?? null),
    scheduled_trip_uuid: optionalUuidRef('Scheduled trip'),
    vehicle_uuid: optionalUuidRef('Vehicle'),
    driver_uuid: optionalUuidRef('Driver'),
    supervisor_uuid: optionalUuidRef('Supervisor'),
    school_uuid: optionalUuidRef('School'),
  })
  .refine((value) => !value.end_at || Date.parse(value.end_at) > Date.parse(value.start_at), {
    path: ['end_at'],
    error: invalidMessage('End time'),
  });
export type TripInput = z.input<typeof tripInputSchema>;

export const tripListQuerySchema = listQuerySchema(tripStatusSchema, {
  ...timeRangeShape,
  vehicle_uuid: uuidSchema.optional(),
  driver_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
  scheduled_trip_uuid: uuidSchema.optional(),
});
export type TripListQuery = z.input<typeof tripListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Scheduled trip
// ---------------------------------------------------------------------------------------------------------

export const scheduledTripTypes = ['one_way', 'round'] as const;
export const scheduledTripTypeSchema = z.enum(scheduledTripTypes, { error: fieldError('Trip type') });

export const scheduledTripStopSchema = z.object({
  name: z.string(),
  location: placeSchema,
  /** Minutes after departure the bus is expected at this stop. */
  arrival_offset_minutes: z.number().int().min(0),
  passenger_uuids: z.array(uuidSchema),
});
export type ScheduledTripStop = z.infer<typeof scheduledTripStopSchema>;

export const scheduledTripStopInputSchema = z.object({
  name: text('Stop name', 150),
  location: placeInputSchema,
  arrival_offset_minutes: intField('Arrival time', 0, 24 * 60),
  passenger_uuids: uuidList('Passenger'),
});

export const scheduledTripSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  type: scheduledTripTypeSchema,
  departure_time: z.string(),
  return_time: nullableString,
  start_date: z.string(),
  end_date: nullableString,
  days_of_week: z.array(z.number().int().min(1).max(7)),
  stops: z.array(scheduledTripStopSchema),
  passenger_uuids: z.array(uuidSchema),
  driver_uuid: uuidSchema.nullable(),
  vehicle_uuid: uuidSchema.nullable(),
  supervisor_uuid: uuidSchema.nullable(),
  school_uuid: uuidSchema.nullable(),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type ScheduledTrip = z.infer<typeof scheduledTripSchema>;

export const scheduledTripInputSchema = z
  .object({
    name: text('Name', 150),
    type: scheduledTripTypeSchema,
    departure_time: timeField('Departure time'),
    return_time: timeField('Return time')
      .nullish()
      .transform((value) => value ?? null),
    start_date: dateField('Start date'),
    end_date: optionalDateField('End date'),
    days_of_week: z
      .array(intField('Day', 1, 7))
      .min(1, { error: requiredMessage('Days') })
      .default([1, 2, 3, 4, 5])
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    stops: z.array(scheduledTripStopInputSchema).max(100).default([]),
    passenger_uuids: uuidList('Passenger', 500),
    driver_uuid: optionalUuidRef('Driver'),
    vehicle_uuid: optionalUuidRef('Vehicle'),
    supervisor_uuid: optionalUuidRef('Supervisor'),
    school_uuid: optionalUuidRef('School'),
    status: entityStatusSchema.default('active'),
  })
  .superRefine((value, ctx) => {
    if (value.type === 'round' && !value.return_time) {
      ctx.addIssue({ code: 'custom', path: ['return_time'], message: requiredMessage('Return time') });
    }
    if (value.type === 'round' && value.return_time && value.return_time <= value.departure_time) {
      ctx.addIssue({ code: 'custom', path: ['return_time'], message: invalidMessage('Return time') });
    }
    if (value.end_date && value.end_date < value.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: invalidMessage('End date') });
    }
  });
export type ScheduledTripInput = z.input<typeof scheduledTripInputSchema>;

export const scheduledTripListQuerySchema = listQuerySchema(entityStatusSchema, {
  type: scheduledTripTypeSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
  driver_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
});
export type ScheduledTripListQuery = z.input<typeof scheduledTripListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Trips-app record
// ---------------------------------------------------------------------------------------------------------

export const tripsAppRecordSchema = z.object({
  uuid: uuidSchema,
  /** Human reference shown in the list (e.g. 'TA-2026-000123'). */
  reference: z.string(),
  status: tripStatusSchema,
  trip_uuid: uuidSchema.nullable(),
  driver_uuid: uuidSchema.nullable(),
  vehicle_uuid: uuidSchema.nullable(),
  started_at: isoDateTimeSchema.nullable(),
  ended_at: isoDateTimeSchema.nullable(),
  start_location: placeSchema.nullable(),
  end_location: placeSchema.nullable(),
  distance_km: z.number().min(0).nullable(),
  passengers_boarded: z.number().int().min(0),
  passengers_dropped: z.number().int().min(0),
  notes: nullableString,
  ...timestampsShape,
});
export type TripsAppRecord = z.infer<typeof tripsAppRecordSchema>;

export const tripsAppRecordInputSchema = z
  .object({
    status: tripStatusSchema.default('pending'),
    trip_uuid: optionalUuidRef('Trip'),
    driver_uuid: uuidRef('Driver'),
    vehicle_uuid: uuidRef('Vehicle'),
    started_at: dateTimeField('Start time')
      .nullish()
      .transform((value) => value ?? null),
    ended_at: dateTimeField('End time')
      .nullish()
      .transform((value) => value ?? null),
    start_location: placeInputSchema.nullish().transform((value) => value ?? null),
    end_location: placeInputSchema.nullish().transform((value) => value ?? null),
    distance_km: optionalNumberField('Distance', 0, 10_000),
    passengers_boarded: optionalIntField('Passengers boarded', 0, 500).transform((value) => value ?? 0),
    passengers_dropped: optionalIntField('Passengers dropped', 0, 500).transform((value) => value ?? 0),
    notes: optionalText('Notes', 2000),
  })
  .refine(
    (value) =>
      !value.started_at || !value.ended_at || Date.parse(value.ended_at) >= Date.parse(value.started_at),
    { path: ['ended_at'], error: invalidMessage('End time') },
  );
export type TripsAppRecordInput = z.input<typeof tripsAppRecordInputSchema>;

export const tripsAppRecordListQuerySchema = listQuerySchema(tripStatusSchema, {
  ...timeRangeShape,
  driver_uuid: uuidSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
  trip_uuid: uuidSchema.optional(),
});
export type TripsAppRecordListQuery = z.input<typeof tripsAppRecordListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Device trip
// ---------------------------------------------------------------------------------------------------------

export const deviceTripSchema = z.object({
  uuid: uuidSchema,
  vehicle_uuid: uuidSchema,
  device_imei: z.string(),
  started_at: isoDateTimeSchema,
  /** Null while the trip is still going on. */
  ended_at: isoDateTimeSchema.nullable(),
  start_location: placeSchema.nullable(),
  end_location: placeSchema.nullable(),
  distance_km: z.number().min(0),
  duration_seconds: z.number().int().min(0),
  /** km/h */
  max_speed: z.number().min(0),
  /** km/h */
  average_speed: z.number().min(0),
  idle_seconds: z.number().int().min(0),
  fuel_used_litres: z.number().min(0).nullable(),
});
export type DeviceTrip = z.infer<typeof deviceTripSchema>;

export const deviceTripListQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  vehicle_uuid: uuidSchema.optional(),
});
export type DeviceTripListQuery = z.input<typeof deviceTripListQuerySchema>;
