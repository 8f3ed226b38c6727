/**
 * Geofences (spec: name, type, description, colour, shape polygon or circle, purpose, subcategory,
 * tracking rules entry or exit), their events, salik toll gates and salik events.
 *
 * - `geometry` holds the shape: a circle (centre and radius in metres) or a polygon (3 to 500 points,
 *   not closed: the last point joins the first). `type` is the zone's kind in the company's vocabulary
 *   (free text, e.g. 'school', 'depot'); `purpose` and `subcategory` refine it. `tracking_rules` lists the
 *   events to record (entry, exit). `vehicle_uuids` limits the vehicles watched; empty = all.
 * - Geofence event: one entry or exit of one vehicle, with the position, and on exit the dwell time.
 * - Salik gate: a toll gate drawn as a line; a crossing counts when the vehicle moves across it in the
 *   charged direction (`charged_bearing`, degrees, within +-90). Linked gates (Al Mamzar North/South,
 *   Al Safa/Al Safa South) are charged once within an hour in the same direction.
 * - Salik event: one crossing with gate, time, direction, the fee under the tariff in force (AED), and
 *   whether it was charged (free hours and linked-gate repeats are recorded with fee 0).
 */
import { z } from 'zod';
import {
  hasNoNul,
  baseListQueryShape,
  coordinatesSchema,
  entityStatusSchema,
  fieldError,
  invalidMessage,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  numberField,
  optionalText,
  requiredMessage,
  text,
  timeRangeShape,
  timestampsShape,
  uuidRef,
  uuidSchema,
  vehicleSummarySchema,
} from './common';

export const geofenceShapes = ['circle', 'polygon'] as const;
export const geofenceShapeSchema = z.enum(geofenceShapes, { error: fieldError('Shape') });

export const trackingRules = ['entry', 'exit'] as const;
export const trackingRuleSchema = z.enum(trackingRules, { error: invalidMessage('Tracking rule') });
export type TrackingRule = z.infer<typeof trackingRuleSchema>;

export const circleGeometrySchema = z.object({
  shape: z.literal('circle'),
  center: coordinatesSchema,
  /** Metres. */
  radius: numberField('Radius', 10, 100_000),
});

export const polygonGeometrySchema = z.object({
  shape: z.literal('polygon'),
  points: z
    .array(coordinatesSchema)
    .min(3, { error: invalidMessage('Polygon') })
    .max(500, { error: invalidMessage('Polygon') }),
});

export const geofenceGeometrySchema = z.discriminatedUnion(
  'shape',
  [circleGeometrySchema, polygonGeometrySchema],
  {
    error: fieldError('Shape'),
  },
);
export type GeofenceGeometry = z.infer<typeof geofenceGeometrySchema>;

const HEX_COLOR_RE = /^#[0-9a-fA-F]{6}$/;

export const geofenceSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  type: nullableString,
  description: nullableString,
  color: z.string(),
  geometry: geofenceGeometrySchema,
  purpose: nullableString,
  subcategory: nullableString,
  tracking_rules: z.array(trackingRuleSchema),
  vehicle_uuids: z.array(uuidSchema),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Geofence = z.infer<typeof geofenceSchema>;

export const geofenceInputSchema = z.object({
  name: text('Name', 150),
  type: optionalText('Type', 50),
  description: optionalText('Description', 1000),
  color: z
    .string({ error: fieldError('Colour') })
    .regex(HEX_COLOR_RE, { error: invalidMessage('Colour') })
    .default('#3388ff'),
  geometry: geofenceGeometrySchema,
  purpose: optionalText('Purpose', 100),
  subcategory: optionalText('Subcategory', 100),
  tracking_rules: z
    .array(trackingRuleSchema)
    .min(1, { error: requiredMessage('Tracking rules') })
    .default(['entry', 'exit'])
    .transform((rules) => [...new Set(rules)]),
  vehicle_uuids: z
    .array(uuidRef('Vehicle'))
    .max(10_000)
    .default([])
    .transform((list) => [...new Set(list)]),
  status: entityStatusSchema.default('active'),
});
export type GeofenceInput = z.input<typeof geofenceInputSchema>;

export const geofenceListQuerySchema = listQuerySchema(entityStatusSchema, {
  shape: geofenceShapeSchema.optional(),
  type: z
    .string()
    .max(50, { error: invalidMessage('Type') })
    .refine(hasNoNul, { error: invalidMessage('Type') })
    .optional(),
  purpose: z
    .string()
    .max(100, { error: invalidMessage('Purpose') })
    .refine(hasNoNul, { error: invalidMessage('Purpose') })
    .optional(),
});
export type GeofenceListQuery = z.input<typeof geofenceListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Geofence events
// ---------------------------------------------------------------------------------------------------------

export const geofenceEventSchema = z.object({
  uuid: uuidSchema,
  event: trackingRuleSchema,
  geofence_uuid: uuidSchema,
  geofence_name: z.string(),
  vehicle: vehicleSummarySchema,
  occurred_at: isoDateTimeSchema,
  latitude: z.number(),
  longitude: z.number(),
  /** km/h at the crossing. */
  speed: z.number().min(0),
  /** Seconds inside the zone; set on exit events. */
  dwell_seconds: z.number().int().min(0).nullable(),
  created_at: isoDateTimeSchema,
});
export type GeofenceEvent = z.infer<typeof geofenceEventSchema>;

export const geofenceEventListQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  event: trackingRuleSchema.optional(),
  geofence_uuid: uuidSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
});
export type GeofenceEventListQuery = z.input<typeof geofenceEventListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Salik gates and events
// ---------------------------------------------------------------------------------------------------------

/**
 * A Salik toll gate as the road authority runs it (read-only: GET /v1/salik-gates). Gates and tariffs
 * are bundled data the pipeline charges with; there is no edit endpoint (see the server's
 * modules/salik-gates.ts for why).
 */
export const salikGateSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  name_ar: nullableString,
  /** The gate line across the road. */
  line_start: coordinatesSchema,
  line_end: coordinatesSchema,
  /** Direction of travel that is charged, degrees from north. */
  charged_bearing: z.number().min(0).max(360),
  /** Gate charged once with this one within an hour in the same direction. */
  linked_gate_uuid: uuidSchema.nullable(),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type SalikGate = z.infer<typeof salikGateSchema>;

export const salikGateListQuerySchema = listQuerySchema(entityStatusSchema, {});
export type SalikGateListQuery = z.input<typeof salikGateListQuerySchema>;

export const salikEventSchema = z.object({
  uuid: uuidSchema,
  gate_uuid: uuidSchema,
  gate_name: z.string(),
  vehicle: vehicleSummarySchema,
  crossed_at: isoDateTimeSchema,
  /** Bearing of travel at the crossing, degrees from north. */
  bearing: z.number().min(0).max(360),
  latitude: z.number(),
  longitude: z.number(),
  /** Fee in `currency` under the tariff in force at crossed_at. */
  fee: z.number().min(0),
  currency: z.string().length(3),
  charged: z.boolean(),
  created_at: isoDateTimeSchema,
});
export type SalikEvent = z.infer<typeof salikEventSchema>;

export const salikEventListQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  gate_uuid: uuidSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
});
export type SalikEventListQuery = z.input<typeof salikEventListQuerySchema>;
