/**
 * Schools (spec section 3): name, Arabic name, code, type (public or private), education level (primary,
 * secondary, higher, all), students capacity, opening and closing time, special needs support, notes,
 * transport coordinator (name, email, phone), address, city, area, state, country. The portal's two steps
 * (details, address) post one body; `location` pins the school on the map for trips and geofences.
 */
import { z } from 'zod';
import {
  coordinatesSchema,
  entityStatusSchema,
  fieldError,
  invalidMessage,
  listQuerySchema,
  nullableString,
  optionalEmailField,
  optionalIntField,
  optionalPhoneField,
  optionalText,
  optionalUuidRef,
  text,
  timeField,
  timestampsShape,
  uuidSchema,
} from './common';

export const schoolTypes = ['public', 'private'] as const;
export const schoolTypeSchema = z.enum(schoolTypes, { error: fieldError('School type') });

export const educationLevels = ['primary', 'secondary', 'higher', 'all'] as const;
export const educationLevelSchema = z.enum(educationLevels, { error: fieldError('Education level') });

export const schoolSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  name_ar: nullableString,
  code: nullableString,
  type: schoolTypeSchema,
  education_level: educationLevelSchema,
  students_capacity: z.number().int().nullable(),
  /** HH:mm:ss */
  opening_time: nullableString,
  /** HH:mm:ss */
  closing_time: nullableString,
  special_needs_support: z.boolean(),
  notes: nullableString,
  transport_coordinator_name: nullableString,
  transport_coordinator_email: nullableString,
  transport_coordinator_phone: nullableString,
  address: nullableString,
  city: nullableString,
  area: nullableString,
  state: nullableString,
  country: nullableString,
  location: coordinatesSchema.nullable(),
  branch_uuid: uuidSchema.nullable(),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type School = z.infer<typeof schoolSchema>;

export const schoolInputSchema = z
  .object({
    name: text('Name', 200),
    name_ar: optionalText('Arabic name', 200),
    code: optionalText('Code', 50),
    type: schoolTypeSchema,
    education_level: educationLevelSchema,
    students_capacity: optionalIntField('Students capacity', 1, 100_000),
    opening_time: timeField('Opening time')
      .nullish()
      .transform((value) => value ?? null),
    closing_time: timeField('Closing time')
      .nullish()
      .transform((value) => value ?? null),
    special_needs_support: z.boolean().default(false),
    notes: optionalText('Notes', 2000),
    transport_coordinator_name: optionalText('Transport coordinator name', 150),
    transport_coordinator_email: optionalEmailField('Transport coordinator email'),
    transport_coordinator_phone: optionalPhoneField('Transport coordinator phone'),
    address: optionalText('Address', 500),
    city: optionalText('City', 100),
    area: optionalText('Area', 100),
    state: optionalText('State', 100),
    country: optionalText('Country', 100),
    location: coordinatesSchema.nullish().transform((value) => value ?? null),
    branch_uuid: optionalUuidRef('Branch'),
    status: entityStatusSchema.default('active'),
  })
  .refine((value) => !value.opening_time || !value.closing_time || value.closing_time > value.opening_time, {
    path: ['closing_time'],
    error: invalidMessage('Closing time'),
  });
export type SchoolInput = z.input<typeof schoolInputSchema>;

export const schoolListQuerySchema = listQuerySchema(entityStatusSchema, {
  type: schoolTypeSchema.optional(),
  education_level: educationLevelSchema.optional(),
  branch_uuid: uuidSchema.optional(),
});
export type SchoolListQuery = z.input<typeof schoolListQuerySchema>;
