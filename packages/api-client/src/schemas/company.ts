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
