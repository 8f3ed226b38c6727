/**
 * Devices in the field (issue 19): the raw-frame archive (frames the gateway could not decode, kept and
 * never acknowledged) with its replay, the frame counters per device and protocol, and the sensor
 * settings per device (ignition input, odometer IO, fuel input with its calibration table).
 */
import { z } from 'zod';
import { fieldError, isoDateTimeSchema, nullableString } from './common';

export const rawFrameSchema = z.object({
  id: z.number().int(),
  protocol: z.string(),
  imei: nullableString,
  remote_address: nullableString,
  /** The frame's bytes as lower-case hex (text protocols: decode as Latin-1 to read them). */
  bytes_hex: z.string(),
  size: z.number().int(),
  reason: z.string(),
  received_at: isoDateTimeSchema,
  last_seen_at: isoDateTimeSchema,
  seen_count: z.number().int(),
  replayed_at: isoDateTimeSchema.nullable(),
  replay_result: nullableString,
  stored_records: z.number().int(),
});
export type RawFrame = z.infer<typeof rawFrameSchema>;

export const rawFrameListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: fieldError('Limit') })
    .int()
    .min(1)
    .max(500)
    .default(100),
});

export const rawFrameReplayInputSchema = z.object({
  /** Frames to replay; all of the device's archived frames when absent. */
  ids: z
    .array(
      z
        .number({ error: fieldError('Frames') })
        .int()
        .positive(),
    )
    .max(500)
    .optional(),
});

export const rawFrameReplayOutcomeSchema = z.object({
  id: z.number().int(),
  result: z.enum(['stored', 'undecodable', 'no-records']),
  reason: nullableString,
  records: z.number().int(),
  stored: z.number().int(),
});
export type RawFrameReplayOutcome = z.infer<typeof rawFrameReplayOutcomeSchema>;

export const frameCounterSchema = z.object({
  protocol: z.string(),
  decoded: z.number().int(),
  refused: z.number().int(),
  archived: z.number().int(),
  updated_at: isoDateTimeSchema,
});
export type FrameCounter = z.infer<typeof frameCounterSchema>;

const ioId = (field: string) =>
  z
    .number({ error: fieldError(field) })
    .int()
    .min(0)
    .max(65_535);
const calibrationPoint = z.tuple([
  z.number({ error: fieldError('Fuel calibration') }),
  z.number({ error: fieldError('Fuel calibration') }),
]);

export const sensorSettingSchema = z.object({
  effective_from: isoDateTimeSchema,
  ignition_io: z.number().int().nullable(),
  odometer_io: z.number().int().nullable(),
  fuel_io: z.number().int().nullable(),
  fuel_calibration: z.array(calibrationPoint).nullable(),
  created_at: isoDateTimeSchema.nullable(),
});
export type SensorSetting = z.infer<typeof sensorSettingSchema>;

export const deviceSensorsSchema = z.object({
  /** The setting in force now (null: the device type's defaults). */
  current: sensorSettingSchema.nullable(),
  /** Every recorded setting, newest first (a setting applies from its effective_from on). */
  history: z.array(sensorSettingSchema),
  /** Default ignition sources of the device type, in order (io ids). */
  default_ignition_io: z.array(z.number().int()),
});
export type DeviceSensors = z.infer<typeof deviceSensorsSchema>;

export const deviceSensorsInputSchema = z.object({
  /** When the setting starts to apply (default: now). A time in the past marks stored data for repair. */
  effective_from: isoDateTimeSchema.optional(),
  ignition_io: ioId('Ignition input').nullable().optional(),
  odometer_io: ioId('Odometer IO').nullable().optional(),
  fuel_io: ioId('Fuel input').nullable().optional(),
  fuel_calibration: z.array(calibrationPoint).max(200).nullable().optional(),
  /** The calibration as CSV (`raw,litres` per line); replaces fuel_calibration when given. */
  fuel_calibration_csv: z.string().max(20_000).optional(),
});
export type DeviceSensorsInput = z.infer<typeof deviceSensorsInputSchema>;
