/**
 * Reports (the spec shows no fields): the home dashboard for a period and the report rows of each
 * report page, plus export jobs.
 *
 * - Dashboard (GET /v1/reports/dashboard?period=week|month|year): figures of the current period and of
 *   the previous one for comparison, computed in the request's Timezone.
 * - Report rows are per vehicle (and per event for fuel, geofence visits, salik, violations), filtered by
 *   from/to and optional vehicle_uuid. Distances in km, durations in seconds, fuel in litres, speeds in km/h,
 *   money in the company's currency.
 * - Exports (CSV, XLSX, PDF) run as background jobs: POST returns the job, GET polls its progress (0-100);
 *   when completed `file` names the download under /v1/file/exports/{name}.
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  boundedDateTimeField,
  MAX_EXPORT_RANGE_DAYS,
  MAX_REPORT_RANGE_DAYS,
  rangeRefinement,
  invalidMessage,
  isoDateTimeSchema,
  nullableString,
  paginated,
  uuidSchema,
  vehicleSummarySchema,
} from './common';

export const dashboardPeriods = ['week', 'month', 'year'] as const;
export const dashboardPeriodSchema = z.enum(dashboardPeriods, { error: invalidMessage('Period') });
export type DashboardPeriod = z.infer<typeof dashboardPeriodSchema>;

export const dashboardQuerySchema = z.object({ period: dashboardPeriodSchema.default('week') });
export type DashboardQuery = z.input<typeof dashboardQuerySchema>;

export const dashboardFiguresSchema = z.object({
  distance_km: z.number().min(0),
  driving_hours: z.number().min(0),
  idle_hours: z.number().min(0),
  trips: z.number().int().min(0),
  violations: z.number().int().min(0),
  fuel_used_litres: z.number().min(0),
  active_vehicles: z.number().int().min(0),
});
export type DashboardFigures = z.infer<typeof dashboardFiguresSchema>;

export const dashboardSchema = z.object({
  period: dashboardPeriodSchema,
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  current: dashboardFiguresSchema,
  previous: dashboardFiguresSchema,
  /** Daily (week, month) or monthly (year) distance for the chart. */
  series: z.array(
    z.object({ at: isoDateTimeSchema, distance_km: z.number().min(0), trips: z.number().int().min(0) }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/**
 * A group of vehicles a report may be asked for instead of (or besides) one vehicle: the vehicles of a
 * station (sub company), a branch or a school. Each narrows the user's own scope, never widens it.
 */
export const reportGroupShape = {
  station_uuid: uuidSchema.optional(),
  branch_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
};

/** Query of every report list: required range, optional vehicle or group of vehicles. */
export const reportQuerySchema = z
  .object({
    ...baseListQueryShape,
    from: boundedDateTimeField('From'),
    to: boundedDateTimeField('To'),
    vehicle_uuid: uuidSchema.optional(),
    ...reportGroupShape,
  })
  .superRefine(rangeRefinement(MAX_REPORT_RANGE_DAYS));
export type ReportQuery = z.input<typeof reportQuerySchema>;

const sample = (value: z.ZodType) => z.object({ at: isoDateTimeSchema, value });

/** Fuel report of one vehicle over the range. */
export const fuelReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  fuel_used_litres: z.number().min(0),
  distance_km: z.number().min(0),
  consumption_per_100km: z.number().min(0).nullable(),
  consumption_per_hour: z.number().min(0).nullable(),
  refuels: z.array(
    z.object({
      at: isoDateTimeSchema,
      litres: z.number(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
    }),
  ),
  drops: z.array(
    z.object({
      at: isoDateTimeSchema,
      litres: z.number(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
    }),
  ),
  /**
   * Fuel level over time, in `level_unit`: litres whenever the vehicle reports litres (IO 84, or the
   * device's configured fuel sensor through its calibration table), else percent (IO 89).
   */
  level: z.array(sample(z.number())),
  level_unit: z.enum(['litres', 'percent']),
});
export type FuelReportRow = z.infer<typeof fuelReportRowSchema>;

export const engineReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  engine_hours: z.number().min(0),
  max_rpm: z.number().min(0).nullable(),
  over_rev_events: z.number().int().min(0),
  max_temperature: z.number().nullable(),
  rpm: z.array(sample(z.number())),
  temperature: z.array(sample(z.number())),
});
export type EngineReportRow = z.infer<typeof engineReportRowSchema>;

export const tyrePositionSchema = z.string().max(20);
export const wheelReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  tyres: z.array(
    z.object({
      /** Position code such as 'FL', 'FR', 'RL1'. */
      position: tyrePositionSchema,
      pressure_kpa: z.number().nullable(),
      temperature_c: z.number().nullable(),
      at: isoDateTimeSchema.nullable(),
    }),
  ),
});
export type WheelReportRow = z.infer<typeof wheelReportRowSchema>;

export const tripsReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  trips: z.number().int().min(0),
  distance_km: z.number().min(0),
  driving_seconds: z.number().int().min(0),
  idle_seconds: z.number().int().min(0),
  max_speed: z.number().min(0),
  average_speed: z.number().min(0),
});
export type TripsReportRow = z.infer<typeof tripsReportRowSchema>;

/** A stop (ignition off) or an idling period (ignition on, not moving). */
export const stopReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  started_at: isoDateTimeSchema,
  ended_at: isoDateTimeSchema.nullable(),
  duration_minutes: z.number().min(0),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  address: nullableString,
});
export type StopReportRow = z.infer<typeof stopReportRowSchema>;

export const geofenceVisitReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  geofence_uuid: uuidSchema,
  geofence_name: z.string(),
  entered_at: isoDateTimeSchema,
  exited_at: isoDateTimeSchema.nullable(),
  dwell_seconds: z.number().int().min(0).nullable(),
});
export type GeofenceVisitReportRow = z.infer<typeof geofenceVisitReportRowSchema>;

export const salikReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  crossings: z.number().int().min(0),
  charged_crossings: z.number().int().min(0),
  total_fee: z.number().min(0),
  currency: z.string().length(3),
});
export type SalikReportRow = z.infer<typeof salikReportRowSchema>;

export const violationKinds = ['overspeed', 'violation_output', 'emergency_button', 'harsh_driving'] as const;
export const violationReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  kind: z.enum(violationKinds),
  occurred_at: isoDateTimeSchema,
  value: z.union([z.number(), z.string()]).nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type ViolationReportRow = z.infer<typeof violationReportRowSchema>;

const placeSchema = z.object({ latitude: z.number(), longitude: z.number() });
const driverRefSchema = z.object({ uuid: uuidSchema, name: z.string() });

/**
 * One trip of one vehicle (device_trips): start and end time and place, distance (km), duration (s),
 * max and average speed (km/h), idling inside the trip (s). `driver` is the vehicle's assigned driver.
 */
export const tripListReportRowSchema = z.object({
  uuid: uuidSchema,
  vehicle: vehicleSummarySchema,
  driver: driverRefSchema.nullable(),
  started_at: isoDateTimeSchema,
  ended_at: isoDateTimeSchema.nullable(),
  start: placeSchema.nullable(),
  end: placeSchema.nullable(),
  /** Addresses of start and end in the reader's language; null when unknown or no geocoder is set. */
  start_address: nullableString,
  end_address: nullableString,
  distance_km: z.number().min(0),
  duration_seconds: z.number().int().min(0),
  max_speed: z.number().min(0),
  average_speed: z.number().min(0),
  idle_seconds: z.number().int().min(0),
});
export type TripListReportRow = z.infer<typeof tripListReportRowSchema>;

/** Summary of one vehicle on one day (the company's zone): km, hours, litres, km/h, counts. */
export const summaryReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  /** YYYY-MM-DD in the company's zone. */
  day: z.string(),
  distance_km: z.number().min(0),
  driving_hours: z.number().min(0),
  idle_hours: z.number().min(0),
  engine_hours: z.number().min(0),
  fuel_used_litres: z.number().min(0),
  max_speed: z.number().min(0),
  trips: z.number().int().min(0),
  violations: z.number().int().min(0),
});
export type SummaryReportRow = z.infer<typeof summaryReportRowSchema>;

/** Every alert (de-duplicated per episode) and every geofence entry or exit, newest first. */
export const eventReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  /** A notification type (overspeed, geofence, ...) or geofence_enter / geofence_exit. */
  kind: z.string(),
  occurred_at: isoDateTimeSchema,
  geofence_name: nullableString,
  message: nullableString,
  value: z.union([z.number(), z.string()]).nullable(),
});
export type EventReportRow = z.infer<typeof eventReportRowSchema>;

/** One stored position of the vehicle (the route report needs vehicle_uuid). */
export const routeReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  at: isoDateTimeSchema,
  latitude: z.number(),
  longitude: z.number(),
  /** km/h */
  speed: z.number().nullable(),
  course: z.number().nullable(),
  /** m */
  altitude: z.number().nullable(),
  ignition: z.boolean().nullable(),
});
export type RouteReportRow = z.infer<typeof routeReportRowSchema>;

/** Fleet utilisation per day: vehicles in the selection, vehicles that moved, their share (%). */
export const utilisationReportRowSchema = z.object({
  day: z.string(),
  vehicles: z.number().int().min(0),
  used_vehicles: z.number().int().min(0),
  share_percent: z.number().min(0).max(100),
  distance_km: z.number().min(0),
  driving_hours: z.number().min(0),
});
export type UtilisationReportRow = z.infer<typeof utilisationReportRowSchema>;

/** Activity of each driver over the range, through the vehicles assigned to them. */
export const driverActivityReportRowSchema = z.object({
  driver: driverRefSchema,
  vehicle: vehicleSummarySchema,
  active_days: z.number().int().min(0),
  trips: z.number().int().min(0),
  distance_km: z.number().min(0),
  driving_hours: z.number().min(0),
  idle_hours: z.number().min(0),
  max_speed: z.number().min(0),
  violations: z.number().int().min(0),
});
export type DriverActivityReportRow = z.infer<typeof driverActivityReportRowSchema>;

/** Salik per vehicle and calendar month (the company's zone). */
export const salikMonthlyReportRowSchema = z.object({
  vehicle: vehicleSummarySchema,
  /** YYYY-MM */
  month: z.string(),
  crossings: z.number().int().min(0),
  charged_crossings: z.number().int().min(0),
  total_fee: z.number().min(0),
  currency: z.string().length(3),
});
export type SalikMonthlyReportRow = z.infer<typeof salikMonthlyReportRowSchema>;

/** Report kinds, each a GET /v1/reports/{kind} list of its row schema. */
export const reportRowSchemas = {
  fuel: fuelReportRowSchema,
  engine: engineReportRowSchema,
  wheel: wheelReportRowSchema,
  trips: tripsReportRowSchema,
  stops: stopReportRowSchema,
  idling: stopReportRowSchema,
  'geofence-visits': geofenceVisitReportRowSchema,
  salik: salikReportRowSchema,
  violations: violationReportRowSchema,
  'trip-list': tripListReportRowSchema,
  summary: summaryReportRowSchema,
  events: eventReportRowSchema,
  route: routeReportRowSchema,
  utilisation: utilisationReportRowSchema,
  'driver-activity': driverActivityReportRowSchema,
  'salik-monthly': salikMonthlyReportRowSchema,
} as const;
export const reportKinds = [
  'fuel',
  'engine',
  'wheel',
  'trips',
  'stops',
  'idling',
  'geofence-visits',
  'salik',
  'violations',
  'trip-list',
  'summary',
  'events',
  'route',
  'utilisation',
  'driver-activity',
  'salik-monthly',
] as const;
export const reportKindSchema = z.enum(reportKinds, { error: invalidMessage('Report') });
export type ReportKind = z.infer<typeof reportKindSchema>;

export function reportResponseSchema<K extends ReportKind>(kind: K) {
  return paginated(reportRowSchemas[kind]);
}

// ---------------------------------------------------------------------------------------------------------
// Export jobs
// ---------------------------------------------------------------------------------------------------------

export const exportFormats = ['csv', 'xlsx', 'pdf'] as const;
export const exportFormatSchema = z.enum(exportFormats, { error: invalidMessage('Format') });
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** An export may span up to MAX_EXPORT_RANGE_DAYS: it runs as a background job, read in pages. */
export const reportExportInputSchema = z
  .object({
    report: reportKindSchema,
    format: exportFormatSchema,
    from: boundedDateTimeField('From'),
    to: boundedDateTimeField('To'),
    vehicle_uuid: uuidSchema.optional(),
    ...reportGroupShape,
  })
  .superRefine(rangeRefinement(MAX_EXPORT_RANGE_DAYS));
export type ReportExportInput = z.input<typeof reportExportInputSchema>;

export const exportJobStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export const reportExportJobSchema = z.object({
  uuid: uuidSchema,
  report: reportKindSchema,
  format: exportFormatSchema,
  status: z.enum(exportJobStatuses),
  /** 0..100 */
  progress: z.number().min(0).max(100),
  /** File name under /v1/file/exports/ once completed. */
  file: nullableString,
  error: nullableString,
  created_at: isoDateTimeSchema,
  completed_at: isoDateTimeSchema.nullable(),
});
export type ReportExportJob = z.infer<typeof reportExportJobSchema>;

/** Track files of the route report: GPX 1.1 or KML 2.2 of one vehicle over the range. */
export const routeFileFormats = ['gpx', 'kml'] as const;
export const routeFileQuerySchema = z
  .object({
    from: boundedDateTimeField('From'),
    to: boundedDateTimeField('To'),
    vehicle_uuid: uuidSchema,
    format: z.enum(routeFileFormats, { error: invalidMessage('Format') }),
  })
  .superRefine(rangeRefinement(MAX_REPORT_RANGE_DAYS));
export type RouteFileQuery = z.input<typeof routeFileQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Scheduled reports
// ---------------------------------------------------------------------------------------------------------

export const scheduleFrequencies = ['daily', 'weekly', 'monthly'] as const;

/**
 * A report sent by e-mail on a schedule, in the user's language and time zone (taken from the request
 * that created it). Daily covers yesterday, weekly the 7 days before the run, monthly the previous
 * calendar month. `hour` is the local hour of sending; weekly sends on `weekday` (0 = Sunday), monthly
 * on `day_of_month` (1-28).
 */
export const reportScheduleInputSchema = z.object({
  report: reportKindSchema,
  format: exportFormatSchema,
  frequency: z.enum(scheduleFrequencies, { error: invalidMessage('Frequency') }),
  hour: z
    .number({ error: invalidMessage('Hour') })
    .int()
    .min(0)
    .max(23)
    .default(7),
  weekday: z
    .number({ error: invalidMessage('Weekday') })
    .int()
    .min(0)
    .max(6)
    .optional(),
  day_of_month: z
    .number({ error: invalidMessage('Day of month') })
    .int()
    .min(1)
    .max(28)
    .optional(),
  vehicle_uuid: uuidSchema.optional(),
  ...reportGroupShape,
});
export type ReportScheduleInput = z.input<typeof reportScheduleInputSchema>;

export const reportScheduleSchema = z.object({
  uuid: uuidSchema,
  report: reportKindSchema,
  format: exportFormatSchema,
  frequency: z.enum(scheduleFrequencies),
  hour: z.number().int(),
  weekday: z.number().int().nullable(),
  day_of_month: z.number().int().nullable(),
  locale: z.string(),
  time_zone: z.string(),
  next_run_at: isoDateTimeSchema,
  last_run_at: isoDateTimeSchema.nullable(),
  last_error: nullableString,
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
