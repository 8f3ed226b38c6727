/**
 * Drivers (spec section 3): names in English and Arabic, contacts, date of birth, licence, ID card,
 * national ID and residence permit (Iqama) with expiries, nationality, gender, RFID tag, profile picture.
 * `nationality` is an ISO 3166-1 alpha-2 code. `profile_picture` is the file name returned by
 * POST /v1/files/avatars (served from /v1/file/avatars/{name}). The national ID follows the spec's pattern of
 * 3, 4, 7 and 1 digits separated by hyphens.
 */
import { z } from 'zod';
import {
  entityStatusSchema,
  genderSchema,
  invalidMessage,
  listQuerySchema,
  NATIONAL_ID_RE,
  nullableString,
  optionalDateField,
  optionalEmailField,
  optionalPhoneField,
  optionalText,
  optionalUuidRef,
  text,
  timestampsShape,
  uuidSchema,
} from './common';

export function optionalNationalIdField(field = 'National ID') {
  return z
    .union(
      [
        z.literal(''),
        z
          .string()
          .trim()
          .regex(NATIONAL_ID_RE, { error: invalidMessage(field) }),
      ],
      {
        error: invalidMessage(field),
      },
    )
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

export function optionalCountryCodeField(field: string) {
  return z
    .union([z.literal(''), z.string().regex(/^[A-Z]{2}$/, { error: invalidMessage(field) })], {
      error: invalidMessage(field),
    })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

export const driverSchema = z.object({
  uuid: uuidSchema,
  first_name: z.string(),
  last_name: z.string(),
  first_name_ar: nullableString,
  last_name_ar: nullableString,
  email: nullableString,
  phone: nullableString,
  date_of_birth: nullableString,
  license_number: nullableString,
  license_expiry: nullableString,
  id_card_number: nullableString,
  national_id: nullableString,
  national_id_expiry: nullableString,
  residence_permit_number: nullableString,
  residence_permit_expiry: nullableString,
  nationality: nullableString,
  gender: genderSchema.nullable(),
  rfid_tag: nullableString,
  profile_picture: nullableString,
  status: entityStatusSchema,
  branch_uuid: uuidSchema.nullable(),
  station_uuid: uuidSchema.nullable(),
  /** Vehicle currently assigned to this driver. */
  vehicle_uuid: uuidSchema.nullable(),
  ...timestampsShape,
});
export type Driver = z.infer<typeof driverSchema>;

export const driverInputSchema = z.object({
  first_name: text('First name', 100),
  last_name: text('Last name', 100),
  first_name_ar: optionalText('Arabic first name', 100),
  last_name_ar: optionalText('Arabic last name', 100),
  email: optionalEmailField(),
  phone: optionalPhoneField(),
  date_of_birth: optionalDateField('Date of birth'),
  license_number: optionalText('License number', 50),
  license_expiry: optionalDateField('License expiration date'),
  id_card_number: optionalText('ID card number', 50),
  national_id: optionalNationalIdField(),
  national_id_expiry: optionalDateField('National ID expiry'),
  residence_permit_number: optionalText('Residence permit', 50),
  residence_permit_expiry: optionalDateField('Residence permit expiry'),
  nationality: optionalCountryCodeField('Nationality'),
  gender: genderSchema.nullish().transform((value) => value ?? null),
  rfid_tag: optionalText('RFID tag', 64),
  profile_picture: optionalText('Profile picture', 255),
  status: entityStatusSchema.default('active'),
  branch_uuid: optionalUuidRef('Branch'),
  station_uuid: optionalUuidRef('Station'),
  vehicle_uuid: optionalUuidRef('Vehicle'),
});
export type DriverInput = z.input<typeof driverInputSchema>;

export const driverListQuerySchema = listQuerySchema(entityStatusSchema, {
  branch_uuid: uuidSchema.optional(),
  station_uuid: uuidSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
  gender: genderSchema.optional(),
});
export type DriverListQuery = z.input<typeof driverListQuerySchema>;
