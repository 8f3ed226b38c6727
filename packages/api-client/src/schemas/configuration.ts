/**
 * Configuration option lists (spec section 7), each answered as {data: {data: [...]}}.
 *
 * An option is {value, label} with an optional Arabic label. Device options carry the device's uuid,
 * imei (the value a vehicle's device_imei takes), type and whether a vehicle already uses it; vehicle
 * types carry the type value; vehicle states are the plate state codes of one country.
 */
import { z } from 'zod';
import { nullableString, uuidSchema } from './common';
import { deviceTypeSchema } from './device';

export const optionSchema = z.object({
  value: z.string(),
  label: z.string(),
  label_ar: nullableString.optional(),
});
export type Option = z.infer<typeof optionSchema>;

export const deviceOptionSchema = optionSchema.extend({
  uuid: uuidSchema,
  imei: z.string(),
  type: deviceTypeSchema,
  assigned: z.boolean(),
});
export type DeviceOption = z.infer<typeof deviceOptionSchema>;

/** Wraps a list the way the configuration endpoints answer: {data: {data: [...]}}. */
export function nestedListEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.object({ data: z.array(item) }) });
}

export const countryCodeParamsSchema = z.object({
  country_code: z.string().regex(/^[A-Za-z]{2}$/),
});
