/**
 * Devices (spec section 3): imei, make, model, type, sim, SIM card number, expiration date, current status
 * (online, offline, unplugged) and last connected at. Vehicles link to devices by `device_imei` and
 * `gps_device_imei`; a device shows the vehicle it is linked to as `vehicle_uuid`.
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  entityStatusSchema,
  fieldError,
  invalidMessage,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  optionalDateField,
  optionalText,
  requiredMessage,
  timestampsShape,
  uuidSchema,
} from './common';

/**
 * Device types of the spec (Teltonika, Ruptela, GoSafe, Door technologies, iStartek) plus the two generic
 * transports the gateway serves (issue 19): `osmand` (phone apps and trackers speaking the OsmAnd HTTP
 * protocol, e.g. Traccar Client) and `mqtt` (the product's MQTT JSON form).
 */
export const deviceTypes = [
  'teltonika',
  'ruptela',
  'gosafe',
  'door_technologies',
  'istartek',
  'osmand',
  'mqtt',
] as const;
export const deviceTypeSchema = z.enum(deviceTypes, { error: fieldError('Device type') });
export type DeviceType = z.infer<typeof deviceTypeSchema>;

/** Connection state shown on the device; 'unplugged' comes from the power-cut IO. */
export const deviceConnectionStatuses = ['online', 'offline', 'unplugged'] as const;
export const deviceConnectionStatusSchema = z.enum(deviceConnectionStatuses);
export type DeviceConnectionStatus = z.infer<typeof deviceConnectionStatusSchema>;

/**
 * Device identifier. Real IMEIs are 15 digits; trackers on the generic path (OsmAnd phone apps) use other
 * identifiers, so 4 to 32 letters or digits are accepted.
 */
export const IMEI_RE = /^[0-9A-Za-z]{4,32}$/;
export function imeiField(field = 'IMEI') {
  return z
    .string({ error: fieldError(field) })
    .trim()
    .min(1, { error: requiredMessage(field) })
    .regex(IMEI_RE, { error: invalidMessage(field) });
}

export function optionalImeiField(field = 'IMEI') {
  return z
    .union([z.literal(''), imeiField(field)], { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

export const deviceSchema = z.object({
  uuid: uuidSchema,
  imei: z.string(),
  type: deviceTypeSchema,
  make: nullableString,
  model: nullableString,
  /** Phone number of the SIM (MSISDN). */
  sim: nullableString,
  /** SIM card serial number (ICCID). */
  sim_card_number: nullableString,
  /** Expiry of the device's subscription or SIM plan (YYYY-MM-DD). */
  expiration_date: nullableString,
  /**
   * Day the tracker was installed in the vehicle (YYYY-MM-DD, start of that day UTC). Records with a fix
   * time before it are stored flagged (invalid): kept raw, never on the map, in trips or reports
   * (issue 18, gateway hygiene). Null = not recorded (no check).
   */
  installation_date: nullableString.optional(),
  status: entityStatusSchema,
  current_status: deviceConnectionStatusSchema,
  last_connected_at: isoDateTimeSchema.nullable(),
  /** Vehicle whose device_imei or gps_device_imei is this device. */
  vehicle_uuid: uuidSchema.nullable(),
  ...timestampsShape,
});
export type Device = z.infer<typeof deviceSchema>;

export const deviceInputSchema = z.object({
  imei: imeiField(),
  type: deviceTypeSchema,
  make: optionalText('Make', 100),
  model: optionalText('Model', 100),
  sim: z
    .union([z.literal(''), z.string().regex(/^\+?\d{7,15}$/, { error: invalidMessage('SIM') })], {
      error: invalidMessage('SIM'),
    })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value)),
  sim_card_number: z
    .union([z.literal(''), z.string().regex(/^\d{10,22}F?$/, { error: invalidMessage('SIM card number') })], {
      error: invalidMessage('SIM card number'),
    })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value)),
  expiration_date: optionalDateField('Expiration date'),
  installation_date: optionalDateField('Installation date'),
  status: entityStatusSchema.default('active'),
});
export type DeviceInput = z.input<typeof deviceInputSchema>;

export const deviceListQuerySchema = listQuerySchema(entityStatusSchema, {
  type: deviceTypeSchema.optional(),
  current_status: deviceConnectionStatusSchema.optional(),
});
export type DeviceListQuery = z.input<typeof deviceListQuerySchema>;

/**
 * A device that tried to connect with an IMEI no device record has. The gateway refuses it (Teltonika gets
 * 00) and keeps one row per IMEI and protocol so an admin can add it with one action (POST /v1/devices with
 * this imei and type).
 */
export const unknownDeviceSchema = z.object({
  uuid: uuidSchema,
  imei: z.string(),
  /** Protocol the connection spoke, when the listener is protocol specific. */
  type: deviceTypeSchema.nullable(),
  /** Remote address of the last attempt (ip:port). */
  remote_address: nullableString,
  attempts: z.number().int().min(1),
  first_attempt_at: isoDateTimeSchema,
  last_attempt_at: isoDateTimeSchema,
});
export type UnknownDevice = z.infer<typeof unknownDeviceSchema>;

export const unknownDeviceListQuerySchema = z.object({
  ...baseListQueryShape,
  type: deviceTypeSchema.optional(),
});
export type UnknownDeviceListQuery = z.input<typeof unknownDeviceListQuerySchema>;
