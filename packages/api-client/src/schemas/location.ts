/**
 * Location record (spec section 3) and the IO element map.
 *
 * Read literally from the spec: created_at, ignition, is_idle, latitude, longitude, speed, io_elements
 * (keyed by numeric id, each `{value}`), digital_output1, digital_output2. `ignition` and the digital
 * outputs are 0 or 1 because the spec's rules compare them with 1. Coordinates may be null: a record without
 * a GPS fix still carries IO data, and live updates keep the old coordinates when the new ones are empty.
 * Optional extras a serious tracker carries: vehicle_uuid, device_imei, heading (course, degrees),
 * altitude (metres), satellites.
 */
import { z } from 'zod';
import {
  boundedDateTimeField,
  MAX_REPORT_RANGE_DAYS,
  rangeRefinement,
  isoDateTimeSchema,
  paginationMetaShape,
  queryInt,
  uuidRef,
  uuidSchema,
} from './common';

/** 0 or 1, as the spec's rules compare these flags with 1. */
export const binaryFlagSchema = z.union([z.literal(0), z.literal(1)]);

/**
 * One IO element reading. Values are numbers; 8-byte device values that do not fit a double exactly, and
 * text payloads of some protocols, travel as strings.
 */
export const ioElementSchema = z.object({ value: z.union([z.number(), z.string()]) });
export type IoElement = z.infer<typeof ioElementSchema>;

/** io_elements keyed by the numeric IO id ('16', '239', ...). */
export const ioElementsSchema = z.record(z.string().regex(/^\d+$/), ioElementSchema);
export type IoElements = z.infer<typeof ioElementsSchema>;

export const locationRecordSchema = z.object({
  created_at: isoDateTimeSchema,
  ignition: binaryFlagSchema,
  is_idle: z.boolean(),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  /** km/h */
  speed: z.number().min(0),
  io_elements: ioElementsSchema,
  digital_output1: binaryFlagSchema,
  digital_output2: binaryFlagSchema,
  vehicle_uuid: uuidSchema.nullable().optional(),
  device_imei: z.string().nullable().optional(),
  /** Course over ground in degrees, 0 = north. */
  heading: z.number().min(0).max(360).nullable().optional(),
  /** Metres above sea level. */
  altitude: z.number().nullable().optional(),
  satellites: z.number().int().min(0).nullable().optional(),
});
export type LocationRecord = z.infer<typeof locationRecordSchema>;

/** Spec section 9: location page size 500. */
export const LOCATION_PAGE_SIZE = 500;

/** GET /v1/device-locations/vehicle/locations query. */
export const vehicleLocationsQuerySchema = z
  .object({
    vehicle_uuid: uuidRef('Vehicle'),
    from: boundedDateTimeField('From').optional(),
    to: boundedDateTimeField('To').optional(),
    page: queryInt('Page', 1, 1_000_000).default(1),
    limit: queryInt('Limit', 1, LOCATION_PAGE_SIZE).default(LOCATION_PAGE_SIZE),
  })
  .superRefine(rangeRefinement(MAX_REPORT_RANGE_DAYS));
export type VehicleLocationsQuery = z.input<typeof vehicleLocationsQuerySchema>;

/** Its answer: `{data: [...], total, current_page, last_page, per_page}`. */
export const vehicleLocationsResponseSchema = z.object({
  data: z.array(locationRecordSchema),
  ...paginationMetaShape,
});
export type VehicleLocationsResponse = z.infer<typeof vehicleLocationsResponseSchema>;
