/**
 * Remote device commands (spec section 7) and their history.
 *
 * - Command types are the spec's list. Some need attributes: change_ip_port {host, port}, custom {text},
 *   set_odometer {value} (km), fota_web {url} (firmware server; optional, the device's default otherwise).
 * - Immobilize and unimmobilize cut or restore a vehicle's engine: they need a verification_token from
 *   POST /v1/verify-password (the password verification dialog).
 * - A command is queued when the device is offline and sent when it connects; `status` follows it:
 *   queued -> sent -> answered, or failed / timed_out; a command still queued after the server's queue
 *   expiry (default 24 h) becomes expired and is never sent. The device's reply text is `response`.
 * - Command response (real-time `command-response` data): the same record after the device answered.
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  fieldError,
  intField,
  invalidMessage,
  isoDateTimeSchema,
  jsonObjectSchema,
  nullableString,
  personSummarySchema,
  requiredMessage,
  text,
  timeRangeShape,
  uuidSchema,
} from './common';
import { deviceTypeSchema } from './device';

export const commandTypes = [
  'change_ip_port',
  'custom',
  'get_status',
  'get_version',
  'output1_on',
  'output1_off',
  'output2_on',
  'output2_off',
  'format_sd',
  'delete_records',
  'fota_web',
  'get_gps',
  'immobilize',
  'unimmobilize',
  'set_odometer',
  'reset',
] as const;
export const commandTypeSchema = z.enum(commandTypes, { error: fieldError('Command') });
export type CommandType = z.infer<typeof commandTypeSchema>;

/**
 * Commands that need a password verification token (step-up, issue 18): every command that can hand the
 * device over (re-point it to another server, flash firmware, send raw text), wipe it (format its card,
 * delete its records, reset it) or disable the vehicle (outputs, immobilize). THE list: the server, the
 * portal's password dialog and the OpenAPI document all read it from here.
 */
export const verifiedCommandTypes: readonly CommandType[] = [
  'change_ip_port',
  'custom',
  'fota_web',
  'format_sd',
  'delete_records',
  'reset',
  'output1_on',
  'output1_off',
  'output2_on',
  'output2_off',
  'immobilize',
  'unimmobilize',
];

export const commandStatuses = ['queued', 'sent', 'answered', 'failed', 'timed_out', 'expired'] as const;
export const commandStatusSchema = z.enum(commandStatuses);
export type CommandStatus = z.infer<typeof commandStatusSchema>;

const HOST_RE =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const changeIpPortAttributesSchema = z.object({
  host: z.string({ error: fieldError('Host') }).regex(HOST_RE, { error: invalidMessage('Host') }),
  port: intField('Port', 1, 65535),
});
export const customCommandAttributesSchema = z.object({ text: text('Command text', 500) });
export const setOdometerAttributesSchema = z.object({ value: intField('Odometer', 0, 10_000_000) });
export const fotaWebAttributesSchema = z.object({
  url: z.url({ error: invalidMessage('URL') }).optional(),
});

/** Attribute schema per command type; types not listed take no attributes. */
export const commandAttributeSchemas = {
  change_ip_port: changeIpPortAttributesSchema,
  custom: customCommandAttributesSchema,
  set_odometer: setOdometerAttributesSchema,
  fota_web: fotaWebAttributesSchema,
} as const satisfies Partial<Record<CommandType, z.ZodType>>;

/** POST /v1/devices/{uuid}/commands body. */
export const deviceCommandInputSchema = z
  .object({
    type: commandTypeSchema,
    attributes: jsonObjectSchema.default({}),
    verification_token: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .meta({
        description: `Token of POST /v1/verify-password (or an OTP verify for sensitive_action), used once. Required for: ${verifiedCommandTypes.join(', ')}.`,
      }),
  })
  .superRefine((value, ctx) => {
    const schema = (commandAttributeSchemas as Partial<Record<CommandType, z.ZodType>>)[value.type];
    if (schema) {
      const parsed = schema.safeParse(value.attributes);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          ctx.addIssue({ code: 'custom', path: ['attributes', ...issue.path], message: issue.message });
        }
      }
    }
    if (verifiedCommandTypes.includes(value.type) && !value.verification_token) {
      ctx.addIssue({
        code: 'custom',
        path: ['verification_token'],
        message: requiredMessage('Password verification'),
      });
    }
  });
export type DeviceCommandInput = z.input<typeof deviceCommandInputSchema>;

export const deviceCommandSchema = z.object({
  uuid: uuidSchema,
  device_uuid: uuidSchema,
  device_imei: z.string(),
  type: commandTypeSchema,
  attributes: jsonObjectSchema,
  status: commandStatusSchema,
  /** The device's reply, as text. */
  response: nullableString,
  /** Why it failed, when it did. */
  error: nullableString,
  issued_by: personSummarySchema.nullable(),
  created_at: isoDateTimeSchema,
  sent_at: isoDateTimeSchema.nullable(),
  answered_at: isoDateTimeSchema.nullable(),
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;

/** Data of the real-time `command-response` / `device-command-response` events. */
export const commandResponseSchema = deviceCommandSchema;
export type CommandResponse = DeviceCommand;

export const deviceCommandListQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  type: commandTypeSchema.optional(),
  status: commandStatusSchema.optional(),
});
export type DeviceCommandListQuery = z.input<typeof deviceCommandListQuerySchema>;

/** GET /v1/device/commands/supported: per device type, the command types it can carry. */
export const supportedCommandsSchema = z.partialRecord(deviceTypeSchema, z.array(commandTypeSchema));
export type SupportedCommands = z.infer<typeof supportedCommandsSchema>;
