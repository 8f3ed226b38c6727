/**
 * Notifications (spec: type, title, message, uuid, created_at, device_created_at, vehicle, violation
 * value, read state, icon), notification rules and FCM push tokens.
 *
 * - `type` is the alert that fired (the rule types below, plus 'general' for messages from staff).
 *   `icon` is null when the app's default notification icon applies. `violation_value` is the measured
 *   value that broke the rule (speed for overspeed, minutes for offline...), null when not applicable.
 * - Notification rule (the spec shows no fields): per company, one alert type with its parameters
 *   (speed limit km/h, minutes, days ahead, battery threshold %, geofences), the vehicles it watches (empty =
 *   all), who receives it (empty = every user allowed to see the vehicle) and on which channels.
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  timeField,
  entityStatusSchema,
  fieldError,
  hasNoNul,
  invalidMessage,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  optionalIntField,
  optionalNumberField,
  queryBool,
  requiredMessage,
  text,
  timeRangeShape,
  timestampsShape,
  uuidRef,
  uuidSchema,
  vehicleSummarySchema,
} from './common';

export const notificationRuleTypes = [
  'overspeed',
  'emergency_button',
  'violation_output',
  'ignition_on',
  'ignition_off',
  'device_unplugged',
  'low_battery',
  'geofence_entry',
  'geofence_exit',
  'salik_crossing',
  'device_offline',
  'vehicle_inactive',
  'document_expiry',
  'trip_delayed',
  'trip_missed',
  'idling',
] as const;
export const notificationRuleTypeSchema = z.enum(notificationRuleTypes, { error: fieldError('Type') });
export type NotificationRuleType = z.infer<typeof notificationRuleTypeSchema>;

export const notificationTypes = [
  ...notificationRuleTypes,
  'bus_approaching',
  'command_response',
  'general',
] as const;
export const notificationTypeSchema = z.enum(notificationTypes);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const notificationSchema = z.object({
  uuid: uuidSchema,
  type: notificationTypeSchema,
  title: z.string(),
  message: z.string(),
  created_at: isoDateTimeSchema,
  /** Time the device recorded the triggering event (ISO). */
  device_created_at: isoDateTimeSchema.nullable(),
  vehicle: vehicleSummarySchema.nullable(),
  violation_value: z.union([z.number(), z.string()]).nullable(),
  read: z.boolean(),
  read_at: isoDateTimeSchema.nullable(),
  icon: nullableString,
  /** Extra references for navigation (geofence_uuid, trip_uuid ...). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  type: notificationTypeSchema.optional(),
  read: queryBool('Read').optional(),
  vehicle_uuid: uuidSchema.optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuerySchema>;

export const unreadCountSchema = z.object({ count: z.number().int().min(0) });
export const readAllResultSchema = z.object({ updated: z.number().int().min(0) });

// ---------------------------------------------------------------------------------------------------------
// Notification rules
// ---------------------------------------------------------------------------------------------------------

export const notificationChannels = ['in_app', 'push', 'email', 'sms'] as const;
export const notificationChannelSchema = z.enum(notificationChannels, { error: invalidMessage('Channel') });

export const documentKinds = [
  'vehicle_registration',
  'vehicle_insurance',
  'vehicle_license',
  'driver_license',
  'driver_national_id',
  'driver_residence_permit',
] as const;
export const documentKindSchema = z.enum(documentKinds, { error: invalidMessage('Document') });

export const notificationRuleSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  type: notificationRuleTypeSchema,
  /** km/h for overspeed; null = each vehicle's own limit. */
  speed_limit: z.number().nullable(),
  /** Minutes for device_offline, trip_delayed, idling. */
  duration_minutes: z.number().int().nullable(),
  /** Days before expiry for document_expiry. */
  days_ahead: z.number().int().nullable(),
  /** Percent for low_battery. */
  threshold: z.number().nullable(),
  /** Overspeed: over the limit at least this many seconds before the episode counts (null = at once). */
  min_duration_seconds: z.number().int().nullable().default(null),
  /**
   * Quiet hours in the company's time zone (HH:mm:ss; start > end spans midnight): an episode that starts
   * inside them raises no notification. Both null = always active.
   */
  quiet_start: z.string().nullable().default(null),
  quiet_end: z.string().nullable().default(null),
  documents: z.array(documentKindSchema),
  geofence_uuids: z.array(uuidSchema),
  vehicle_uuids: z.array(uuidSchema),
  recipient_user_uuids: z.array(uuidSchema),
  channels: z.array(notificationChannelSchema),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type NotificationRule = z.infer<typeof notificationRuleSchema>;

const uuidList = (field: string) =>
  z
    .array(uuidRef(field))
    .max(10_000)
    .default([])
    .transform((list) => [...new Set(list)]);

export const notificationRuleInputSchema = z
  .object({
    name: text('Name', 150),
    type: notificationRuleTypeSchema,
    speed_limit: optionalNumberField('Speed limit', 1, 300),
    duration_minutes: optionalIntField('Duration', 1, 60 * 24 * 60),
    days_ahead: optionalIntField('Days ahead', 1, 365),
    threshold: optionalNumberField('Threshold', 1, 100),
    min_duration_seconds: optionalIntField('Minimum duration', 0, 3600),
    quiet_start: timeField('Quiet hours start')
      .nullish()
      .transform((value) => value ?? null),
    quiet_end: timeField('Quiet hours end')
      .nullish()
      .transform((value) => value ?? null),
    documents: z.array(documentKindSchema).default([]),
    geofence_uuids: uuidList('Geofence'),
    vehicle_uuids: uuidList('Vehicle'),
    recipient_user_uuids: uuidList('Recipient'),
    channels: z
      .array(notificationChannelSchema)
      .min(1, { error: requiredMessage('Channels') })
      .default(['in_app', 'push']),
    status: entityStatusSchema.default('active'),
  })
  .superRefine((value, ctx) => {
    const need = (ok: boolean, path: string, label: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message: requiredMessage(label) });
    };
    if (value.type === 'device_offline' || value.type === 'trip_delayed' || value.type === 'idling') {
      need(value.duration_minutes !== null, 'duration_minutes', 'Duration');
    }
    if (value.type === 'document_expiry') {
      need(value.days_ahead !== null, 'days_ahead', 'Days ahead');
      need(value.documents.length > 0, 'documents', 'Documents');
    }
    if ((value.quiet_start === null) !== (value.quiet_end === null)) {
      need(value.quiet_start !== null, 'quiet_start', 'Quiet hours start');
      need(value.quiet_end !== null, 'quiet_end', 'Quiet hours end');
    }
    if (value.quiet_start !== null && value.quiet_start === value.quiet_end) {
      ctx.addIssue({ code: 'custom', path: ['quiet_end'], message: invalidMessage('Quiet hours end') });
    }
    if (value.type === 'low_battery') need(value.threshold !== null, 'threshold', 'Threshold');
    if (value.type === 'geofence_entry' || value.type === 'geofence_exit') {
      need(value.geofence_uuids.length > 0, 'geofence_uuids', 'Geofences');
    }
  });
export type NotificationRuleInput = z.input<typeof notificationRuleInputSchema>;

export const notificationRuleListQuerySchema = listQuerySchema(entityStatusSchema, {
  type: notificationRuleTypeSchema.optional(),
});
export type NotificationRuleListQuery = z.input<typeof notificationRuleListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// FCM push tokens (spec section 3: token, platform, device_id, app_version on a native platform)
// ---------------------------------------------------------------------------------------------------------

export const pushPlatforms = ['android', 'ios', 'web'] as const;
export const pushPlatformSchema = z.enum(pushPlatforms, { error: fieldError('Platform') });

export const fcmTokenRegisterInputSchema = z.object({
  token: text('Token', 4096),
  platform: pushPlatformSchema,
  device_id: text('Device ID', 200),
  app_version: z
    .string()
    .max(50, { error: invalidMessage('App version') })
    .refine(hasNoNul, { error: invalidMessage('App version') })
    .optional(),
});
export type FcmTokenRegisterInput = z.input<typeof fcmTokenRegisterInputSchema>;

export const fcmTokenSchema = z.object({
  uuid: uuidSchema,
  token: z.string(),
  platform: pushPlatformSchema,
  device_id: z.string(),
  app_version: nullableString,
  is_active: z.boolean(),
  ...timestampsShape,
});
export type FcmToken = z.infer<typeof fcmTokenSchema>;

/** POST /v1/fcm-tokens/register answer: success flag and the stored record. */
export const fcmTokenRegisterResponseSchema = z.object({ success: z.boolean(), data: fcmTokenSchema });

export const fcmTokenDeactivateInputSchema = z.object({ token: text('Token', 4096) });

/** POST /v1/fcm-tokens/deactivate answer (the app ignores failures). */
export const fcmTokenDeactivateResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
});
