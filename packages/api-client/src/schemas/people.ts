/**
 * Passengers, guardians and supervisors of school transport. The spec shows no fields for them, so they
 * are designed from what the product does with them:
 *
 * - Passenger: a student riding a school bus. Belongs to a school, has guardians, a pickup and a drop-off
 *   place (where the bus stops for them), a student number, grade, special needs flag and an RFID tag the
 *   bus reader scans on boarding.
 * - Guardian: a parent or other adult responsible for passengers; reachable by phone and e-mail and
 *   notified when the bus nears their passenger's stop (issue 6); `relationship` says how they relate.
 * - Supervisor: the bus attendant riding with the passengers; assigned to a school and a vehicle, with an
 *   RFID tag for their own check-in, and identity papers like a driver's.
 *
 * People's names come in English and Arabic, as drivers' do.
 */
import { z } from 'zod';
import {
  entityStatusSchema,
  genderSchema,
  listQuerySchema,
  nullableString,
  optionalDateField,
  optionalEmailField,
  optionalPhoneField,
  optionalText,
  optionalUuidRef,
  phoneField,
  placeInputSchema,
  placeSchema,
  text,
  timestampsShape,
  uuidRef,
  uuidSchema,
  fieldError,
  requiredMessage,
} from './common';
import { optionalNationalIdField } from './driver';

const personNameShape = {
  first_name: z.string(),
  last_name: z.string(),
  first_name_ar: nullableString,
  last_name_ar: nullableString,
};

const personNameInputShape = {
  first_name: text('First name', 100),
  last_name: text('Last name', 100),
  first_name_ar: optionalText('Arabic first name', 100),
  last_name_ar: optionalText('Arabic last name', 100),
};

const uuidList = (field: string) =>
  z
    .array(uuidRef(field))
    .max(50)
    .default([])
    .transform((list) => [...new Set(list)]);

// ---------------------------------------------------------------------------------------------------------
// Passenger
// ---------------------------------------------------------------------------------------------------------

export const passengerSchema = z.object({
  uuid: uuidSchema,
  ...personNameShape,
  student_number: nullableString,
  gender: genderSchema.nullable(),
  date_of_birth: nullableString,
  grade: nullableString,
  school_uuid: uuidSchema.nullable(),
  guardian_uuids: z.array(uuidSchema),
  pickup_location: placeSchema.nullable(),
  dropoff_location: placeSchema.nullable(),
  special_needs: z.boolean(),
  notes: nullableString,
  rfid_tag: nullableString,
  profile_picture: nullableString,
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Passenger = z.infer<typeof passengerSchema>;

export const passengerInputSchema = z.object({
  ...personNameInputShape,
  student_number: optionalText('Student number', 50),
  gender: genderSchema.nullish().transform((value) => value ?? null),
  date_of_birth: optionalDateField('Date of birth'),
  grade: optionalText('Grade', 50),
  school_uuid: uuidRef('School'),
  guardian_uuids: uuidList('Guardian'),
  pickup_location: placeInputSchema.nullish().transform((value) => value ?? null),
  dropoff_location: placeInputSchema.nullish().transform((value) => value ?? null),
  special_needs: z.boolean().default(false),
  notes: optionalText('Notes', 2000),
  rfid_tag: optionalText('RFID tag', 64),
  profile_picture: optionalText('Profile picture', 255),
  status: entityStatusSchema.default('active'),
});
export type PassengerInput = z.input<typeof passengerInputSchema>;

export const passengerListQuerySchema = listQuerySchema(entityStatusSchema, {
  school_uuid: uuidSchema.optional(),
  guardian_uuid: uuidSchema.optional(),
  scheduled_trip_uuid: uuidSchema.optional(),
});
export type PassengerListQuery = z.input<typeof passengerListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Guardian
// ---------------------------------------------------------------------------------------------------------

export const guardianRelationships = ['father', 'mother', 'sibling', 'relative', 'other'] as const;
export const guardianRelationshipSchema = z.enum(guardianRelationships, {
  error: fieldError('Relationship'),
});

/**
 * How a guardian is told about their passengers' trips (bus approaching, delayed, cancelled, missed):
 * by e-mail, by SMS to their phone, both, or not at all. A guardian saved before this field existed has
 * none stored and is read as 'email' when they have an address, else 'sms' (the server's view and the
 * database trigger of migration 0026 apply the same rule). Every message carries an unsubscribe link
 * that sets it to 'none'.
 */
export const guardianMessageChannels = ['email', 'sms', 'both', 'none'] as const;
export const guardianMessageChannelSchema = z.enum(guardianMessageChannels, {
  error: fieldError('Message channel'),
});
export type GuardianMessageChannel = z.infer<typeof guardianMessageChannelSchema>;

/** The language of a guardian's messages and of their tracking page's first view. */
export const guardianLanguages = ['en', 'ar'] as const;
export const guardianLanguageSchema = z.enum(guardianLanguages, { error: fieldError('Language') });

export const guardianSchema = z.object({
  uuid: uuidSchema,
  ...personNameShape,
  email: nullableString,
  phone: z.string(),
  relationship: guardianRelationshipSchema,
  national_id: nullableString,
  address: nullableString,
  passenger_uuids: z.array(uuidSchema),
  /** Whether the guardian is notified when the bus nears the stop. */
  notify_on_approach: z.boolean(),
  message_channel: guardianMessageChannelSchema,
  language: guardianLanguageSchema,
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Guardian = z.infer<typeof guardianSchema>;

export const guardianInputSchema = z
  .object({
    ...personNameInputShape,
    email: optionalEmailField(),
    /** Required: the guardian must be reachable. */
    phone: phoneField(),
    relationship: guardianRelationshipSchema,
    national_id: optionalNationalIdField(),
    address: optionalText('Address', 500),
    passenger_uuids: uuidList('Passenger'),
    notify_on_approach: z.boolean().default(true),
    /** Left out: e-mail when the guardian has an address, else SMS (decided when read). */
    message_channel: guardianMessageChannelSchema.nullish().transform((value) => value ?? null),
    language: guardianLanguageSchema.default('en'),
    status: entityStatusSchema.default('active'),
  })
  .superRefine((value, ctx) => {
    // Messages by e-mail need an address; the phone is required anyway.
    if ((value.message_channel === 'email' || value.message_channel === 'both') && value.email === null)
      ctx.addIssue({ code: 'custom', path: ['email'], message: requiredMessage('Email') });
  });
export type GuardianInput = z.input<typeof guardianInputSchema>;

export const guardianListQuerySchema = listQuerySchema(entityStatusSchema, {
  passenger_uuid: uuidSchema.optional(),
  relationship: guardianRelationshipSchema.optional(),
});
export type GuardianListQuery = z.input<typeof guardianListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Supervisor
// ---------------------------------------------------------------------------------------------------------

export const supervisorSchema = z.object({
  uuid: uuidSchema,
  ...personNameShape,
  email: nullableString,
  phone: nullableString,
  gender: genderSchema.nullable(),
  national_id: nullableString,
  national_id_expiry: nullableString,
  rfid_tag: nullableString,
  profile_picture: nullableString,
  school_uuid: uuidSchema.nullable(),
  vehicle_uuid: uuidSchema.nullable(),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Supervisor = z.infer<typeof supervisorSchema>;

export const supervisorInputSchema = z.object({
  ...personNameInputShape,
  email: optionalEmailField(),
  phone: optionalPhoneField(),
  gender: genderSchema.nullish().transform((value) => value ?? null),
  national_id: optionalNationalIdField(),
  national_id_expiry: optionalDateField('National ID expiry'),
  rfid_tag: optionalText('RFID tag', 64),
  profile_picture: optionalText('Profile picture', 255),
  school_uuid: optionalUuidRef('School'),
  vehicle_uuid: optionalUuidRef('Vehicle'),
  status: entityStatusSchema.default('active'),
});
export type SupervisorInput = z.input<typeof supervisorInputSchema>;

export const supervisorListQuerySchema = listQuerySchema(entityStatusSchema, {
  school_uuid: uuidSchema.optional(),
  vehicle_uuid: uuidSchema.optional(),
});
export type SupervisorListQuery = z.input<typeof supervisorListQuerySchema>;
