/**
 * Transport company (spec section 3: uuid, country_code, settings, configurations, name, features), its
 * branches (name, description, location) and stations, i.e. sub companies (name, Arabic name).
 *
 * `features` is a map of flags; spec section 6 turns a feature on when its value is truthy, so values may be
 * booleans, numbers, strings or null rather than booleans only.
 */
import { featureFlags } from '@fleet/core';
import { z } from 'zod';
import {
  entityStatusSchema,
  jsonObjectSchema,
  listQuerySchema,
  nullableString,
  optionalText,
  optionalUuidRef,
  placeInputSchema,
  placeSchema,
  text,
  timestampsShape,
  uuidSchema,
} from './common';

export const featureFlagsSchema = z.record(
  z.string(),
  z.union([z.boolean(), z.number(), z.string(), z.null()]),
);
export type FeatureFlags = z.infer<typeof featureFlagsSchema>;

/** Feature keys the product knows (the guards' flags of @fleet/core); others may be present. */
export const knownFeatures = Object.values(featureFlags);

export const transportCompanySchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  name_ar: nullableString.optional(),
  /** ISO 3166-1 alpha-2, e.g. 'AE'. */
  country_code: z.string(),
  settings: jsonObjectSchema,
  configurations: jsonObjectSchema,
  features: featureFlagsSchema,
  logo: nullableString.optional(),
});
export type TransportCompany = z.infer<typeof transportCompanySchema>;

export const branchSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  description: nullableString,
  location: placeSchema.nullable(),
  station_uuid: uuidSchema.nullable(),
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Branch = z.infer<typeof branchSchema>;

export const branchInputSchema = z.object({
  name: text('Name', 150),
  description: optionalText('Description', 1000),
  location: placeInputSchema.nullish().transform((value) => value ?? null),
  station_uuid: optionalUuidRef('Station'),
  status: entityStatusSchema.default('active'),
});
export type BranchInput = z.input<typeof branchInputSchema>;

export const branchListQuerySchema = listQuerySchema(entityStatusSchema, {
  station_uuid: uuidSchema.optional(),
});
export type BranchListQuery = z.input<typeof branchListQuerySchema>;

/** Station = sub company of the transport company. */
export const stationSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  name_ar: nullableString,
  status: entityStatusSchema,
  ...timestampsShape,
});
export type Station = z.infer<typeof stationSchema>;

export const stationInputSchema = z.object({
  name: text('Name', 150),
  name_ar: optionalText('Arabic name', 150),
  status: entityStatusSchema.default('active'),
});
export type StationInput = z.input<typeof stationInputSchema>;

export const stationListQuerySchema = listQuerySchema(entityStatusSchema, {});
export type StationListQuery = z.input<typeof stationListQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Platform onboarding (issue 18 finding 10): a super admin creates a transport company together with its
// first company admin, who receives a set-password invitation.
// ---------------------------------------------------------------------------------------------------------

/** A company as the platform operator lists it. */
export const platformCompanySchema = transportCompanySchema.extend({
  status: z.string(),
  /** Members of the company (every user type). */
  user_count: z.number().int(),
  created_at: z.string(),
});
export type PlatformCompany = z.infer<typeof platformCompanySchema>;

export const companyAdminInputSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, { error: 'Email is required' })
    .max(254, { error: 'Please enter a valid Email' })
    .pipe(z.email({ error: 'Please enter a valid Email' })),
  name: text('Name', 150),
  /** Language of the invitation and of the admin's portal. */
  locale: z.enum(['en', 'ar'], { error: 'Please enter a valid Language' }).default('en'),
});

export const companyCreateInputSchema = z.object({
  name: text('Name', 150),
  name_ar: optionalText('Arabic name', 150),
  /** ISO 3166-1 alpha-2, upper case. */
  country_code: z
    .string({ error: 'Country is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'Please enter a valid Country' }),
  settings: jsonObjectSchema.default({}),
  features: featureFlagsSchema.default({}),
  admin: companyAdminInputSchema,
});
export type CompanyCreateInput = z.input<typeof companyCreateInputSchema>;

export const companyCreatedSchema = z.object({
  company: platformCompanySchema,
  admin: z.object({ uuid: uuidSchema, email: z.string(), name: z.string() }),
});
export type CompanyCreated = z.infer<typeof companyCreatedSchema>;
