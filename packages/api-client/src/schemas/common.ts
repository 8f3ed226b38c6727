/**
 * Building blocks shared by every schema of API v1: field helpers with the spec's validation messages,
 * identifiers, dates, statuses, envelopes and list queries.
 *
 * Validation messages follow spec section 5 ('{field} is required', 'Please enter a valid {field}'). They
 * come from @fleet/core's message builders in English, the API's base language; the `{field}` part is the
 * human label passed to each helper ('License plate number'). The server wraps the same label in the
 * Arabic sentence when X-Locale is ar.
 */
import {
  NATIONAL_ID_PATTERN,
  PASSWORD_MIN_LENGTH as CORE_PASSWORD_MIN_LENGTH,
  invalidMessage as coreInvalidMessage,
  passwordMinMessage,
  requiredMessage as coreRequiredMessage,
  translate,
} from '@fleet/core';
import { z } from 'zod';

/** '{field} is required' (spec section 5), from @fleet/core. */
export function requiredMessage(field: string): string {
  return coreRequiredMessage(field);
}

/** 'Please enter a valid {field}' (spec section 5), from @fleet/core. */
export function invalidMessage(field: string): string {
  return coreInvalidMessage(field);
}

/** Error function for zod: a missing value is "required", anything else present but wrong is "invalid". */
export function fieldError(field: string): (issue: { input?: unknown }) => string {
  return (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? requiredMessage(field)
      : invalidMessage(field);
}

/**
 * No NUL character: PostgreSQL text and JSON cannot hold U+0000, so such a value could never be stored;
 * refusing it here gives the field its 'Please enter a valid {field}' instead of a storage error.
 */
export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/** Required, trimmed text of 1..max characters. */
export function text(field: string, max = 255) {
  return z
    .string({ error: fieldError(field) })
    .trim()
    .min(1, { error: requiredMessage(field) })
    .max(max, { error: invalidMessage(field) })
    .refine(hasNoNul, { error: invalidMessage(field) });
}

/** Optional text: absent, null or '' all mean "no value" and come out as null. */
export function optionalText(field: string, max = 255) {
  return z
    .string({ error: invalidMessage(field) })
    .trim()
    .max(max, { error: invalidMessage(field) })
    .refine(hasNoNul, { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

/** Text as returned by the API (read schemas are lenient on length, strict on type). */
export const nullableString = z.string().nullable();

// ---------------------------------------------------------------------------------------------------------
// Identifiers and formats
// ---------------------------------------------------------------------------------------------------------

/** Public identifier of every record. Internal numeric ids never leave the server. */
export const uuidSchema = z.uuid({ error: invalidMessage('identifier') });

/** A uuid reference field of an input with a label for its message. */
export function uuidRef(field: string) {
  return z.uuid({ error: fieldError(field) });
}

/** Optional uuid reference: absent, null or '' come out as null. */
export function optionalUuidRef(field: string) {
  return z
    .union([z.literal(''), z.uuid({ error: invalidMessage(field) })], { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

/** ISO 8601 timestamp with an offset ('Z' or '+04:00'), as every timestamp of the API. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true, error: invalidMessage('date and time') });

export function dateTimeField(field: string) {
  return z.iso.datetime({ offset: true, error: fieldError(field) });
}

/**
 * Bounds of every range a report, export or list may name (issue 18: `from=0001-01-01` answered 500
 * and `to=9999-...` froze the server). Instants outside [RANGE_MIN, RANGE_MAX) are 'Please enter a
 * valid {field}'; a report range spans at most MAX_REPORT_RANGE_DAYS, an export (a background job,
 * read in pages) at most MAX_EXPORT_RANGE_DAYS. The server checks the same schemas (422 in en/ar).
 */
export const RANGE_MIN = '2000-01-01T00:00:00Z';
export const RANGE_MAX = '2100-01-01T00:00:00Z';
export const MAX_REPORT_RANGE_DAYS = 366;
export const MAX_EXPORT_RANGE_DAYS = 3 * 366;
const RANGE_MIN_MS = Date.parse(RANGE_MIN);
const RANGE_MAX_MS = Date.parse(RANGE_MAX);

/** An ISO date-time with offset inside [RANGE_MIN, RANGE_MAX). */
export function boundedDateTimeField(field: string) {
  return dateTimeField(field).refine(
    (value) => {
      const at = Date.parse(value);
      return Number.isFinite(at) && at >= RANGE_MIN_MS && at < RANGE_MAX_MS;
    },
    { error: invalidMessage(field) },
  );
}

/** 'The range may span at most {days} days' (translated by the server and the portal). */
export function rangeTooLongMessage(days: number): string {
  return `The range may span at most ${days} days`;
}

/**
 * Refinement of an object with optional `from` / `to`: `to` after `from`, and at most `maxDays`
 * apart (both on `to`).
 */
export function rangeRefinement(maxDays: number) {
  return (value: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
    if (!value.from || !value.to) return;
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (!(to > from)) ctx.addIssue({ code: 'custom', path: ['to'], message: invalidMessage('To') });
    else if (to - from > maxDays * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: rangeTooLongMessage(maxDays) });
  };
}

/** The zero date of some back ends; spec section 5 says it is invalid. */
export const ZERO_DATE = '0001-01-01';

/** A calendar date YYYY-MM-DD; the zero date 0001-01-01 is refused. */
export function dateField(field: string) {
  return z.iso
    .date({ error: fieldError(field) })
    .refine((value) => value !== ZERO_DATE, { error: invalidMessage(field) });
}

export const dateSchema = dateField('Date');

/** Optional calendar date: absent, null or '' come out as null. */
export function optionalDateField(field: string) {
  return z
    .union([z.literal(''), dateField(field)], { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

/**
 * A time of day as the API carries it: HH:mm:ss. Spec section 9: times sent to the API get ':00'
 * appended, so the wire format always has seconds.
 */
export function timeField(field: string) {
  return z
    .string({ error: fieldError(field) })
    .regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, { error: invalidMessage(field) });
}

export const timeSchema = timeField('Time');

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Phone numbers: digits with an optional leading '+', 7 to 15 digits (E.164 length). */
const PHONE_RE = /^\+?\d{7,15}$/;

export function emailField(field = 'Email') {
  return z
    .string({ error: fieldError(field) })
    .trim()
    .min(1, { error: requiredMessage(field) })
    .max(255, { error: invalidMessage(field) })
    .regex(EMAIL_RE, { error: invalidMessage(field) })
    .transform((value) => value.toLowerCase());
}

export function optionalEmailField(field = 'Email') {
  return z
    .union([z.literal(''), emailField(field)], { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

export function phoneField(field = 'Phone') {
  return z
    .string({ error: fieldError(field) })
    .trim()
    .min(1, { error: requiredMessage(field) })
    .regex(PHONE_RE, { error: invalidMessage(field) });
}

export function optionalPhoneField(field = 'Phone') {
  return z
    .union([z.literal(''), phoneField(field)], { error: invalidMessage(field) })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

/** Whole number in [min, max]. */
export function intField(field: string, min: number, max: number) {
  return z
    .number({ error: fieldError(field) })
    .int({ error: invalidMessage(field) })
    .min(min, { error: invalidMessage(field) })
    .max(max, { error: invalidMessage(field) });
}

export function optionalIntField(field: string, min: number, max: number) {
  return intField(field, min, max)
    .nullish()
    .transform((value) => value ?? null);
}

/** Number in [min, max]. */
export function numberField(field: string, min: number, max: number) {
  return z
    .number({ error: fieldError(field) })
    .min(min, { error: invalidMessage(field) })
    .max(max, { error: invalidMessage(field) });
}

export function optionalNumberField(field: string, min: number, max: number) {
  return numberField(field, min, max)
    .nullish()
    .transform((value) => value ?? null);
}

/** Password rule of spec section 5: @fleet/core's minimum length (8) and mismatch text. */
export const PASSWORD_MIN_LENGTH = CORE_PASSWORD_MIN_LENGTH;
export const PASSWORD_MISMATCH_MESSAGE = translate('en-US', 'validation.passwordMismatch');
/** National ID pattern of spec section 5 (3-4-7-1 digits with hyphens), from @fleet/core. */
export const NATIONAL_ID_RE = NATIONAL_ID_PATTERN;

export function passwordField(field = 'Password') {
  return z
    .string({ error: fieldError(field) })
    .min(1, { error: requiredMessage(field) })
    .min(PASSWORD_MIN_LENGTH, { error: passwordMinMessage('en-US', PASSWORD_MIN_LENGTH) })
    .max(128, { error: invalidMessage(field) })
    .refine((p) => !isCommonPassword(p), { error: COMMON_PASSWORD_MESSAGE });
}

/** Refusal of a too common new password (the server translates it; issue 18 finding 9). */
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Choose a less predictable one';

/**
 * The most common passwords of 8+ characters in public breach corpora (our own short list, offline),
 * compared case-insensitively, plus shapes that are as weak: one repeated character, a run of digits or
 * letters going up or down ('12345678', 'abcdefgh'), and a keyboard row.
 */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'trustno1',
  'whatever',
  'starwars',
  'computer',
  'michelle',
  'jennifer',
  'corvette',
  'mercedes',
  'welcome1',
  'welcome123',
  'letmein1',
  'letmein123',
  'admin123',
  'admin1234',
  'administrator',
  'changeme',
  'changeme1',
  'qwerty123',
  'qwerty1234',
  'qwertyui',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm1',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'q1w2e3r4',
  'zaq12wsx',
  '1qaz2wsx',
  'abc12345',
  'abcd1234',
  'aa123456',
  'a1234567',
  '12qwaszx',
  'football1',
  'monkey123',
  'dragon123',
  'master123',
  'iloveyou1',
  'default1',
  'internet',
  'fleet123',
  'fleet1234',
]);
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890', '0987654321'];

export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  if (COMMON_PASSWORDS.has(p)) return true;
  if (/^(.)\1+$/.test(p)) return true;
  const codes = [...p].map((c) => c.charCodeAt(0));
  const step = codes[1]! - codes[0]!;
  if (Math.abs(step) === 1 && codes.every((c, i) => i === 0 || c - codes[i - 1]! === step)) return true;
  return KEYBOARD_ROWS.some((row) => row.includes(p) || row.split('').reverse().join('').includes(p));
}

/** Latitude / longitude pair, WGS84 degrees. */
export const coordinatesSchema = z.object({
  latitude: numberField('Latitude', -90, 90),
  longitude: numberField('Longitude', -180, 180),
});
export type Coordinates = z.infer<typeof coordinatesSchema>;

/** A place: coordinates and an optional human address (branch location, trip start and end, stops). */
export const placeSchema = coordinatesSchema.extend({
  address: z.string().nullable().optional(),
});
export type Place = z.infer<typeof placeSchema>;

/** A place as forms send it: the address is trimmed, and '' means none. */
export const placeInputSchema = coordinatesSchema.extend({
  address: optionalText('Address', 500),
});

/** Free-form JSON object (settings, configurations, command attributes, activity snapshots). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------------------------------------
// Statuses (spec section 4)
// ---------------------------------------------------------------------------------------------------------

export const entityStatuses = ['active', 'inactive', 'expired'] as const;
export const entityStatusSchema = z.enum(entityStatuses, { error: invalidMessage('Status') });
export type EntityStatus = z.infer<typeof entityStatusSchema>;

/** Vehicles can also be put in maintenance. */
export const vehicleStatuses = ['active', 'inactive', 'expired', 'maintenance'] as const;
export const vehicleStatusSchema = z.enum(vehicleStatuses, { error: invalidMessage('Status') });
export type VehicleStatus = z.infer<typeof vehicleStatusSchema>;

export const tripStatuses = ['pending', 'started', 'completed', 'delayed', 'missed', 'cancelled'] as const;
export const tripStatusSchema = z.enum(tripStatuses, { error: invalidMessage('Status') });
export type TripStatus = z.infer<typeof tripStatusSchema>;

/** Live status derived from the latest location (spec section 4); the tabs add 'all'. */
export const vehicleLiveStatuses = ['live', 'idle', 'offline', 'inactive', 'no-data'] as const;
export const vehicleLiveStatusSchema = z.enum(vehicleLiveStatuses);
export type VehicleLiveStatus = z.infer<typeof vehicleLiveStatusSchema>;

export const genders = ['male', 'female'] as const;
export const genderSchema = z.enum(genders, { error: invalidMessage('Gender') });

/** Body of every PATCH /v1/{resource}/{uuid}/status call. */
export function statusInputSchema<T extends z.ZodType>(status: T) {
  return z.object({ status });
}

// ---------------------------------------------------------------------------------------------------------
// Envelopes
// ---------------------------------------------------------------------------------------------------------

/** Single record answer: `{data}`. */
export function dataEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

export const paginationMetaShape = {
  total: z.number().int().min(0),
  current_page: z.number().int().min(1),
  last_page: z.number().int().min(1),
  per_page: z.number().int().min(1),
};

/** Paginated list answer: `{data, total, current_page, last_page, per_page}`. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), ...paginationMetaShape });
}

export type Paginated<T> = {
  data: T[];
  total: number;
  current_page: number;
  last_page: number;
  per_page: number;
};

/** Error answer: `{message, errors?: {field: [messages]}}` (422 carries the field errors). */
export const apiErrorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Plain acknowledgement: `{message}` (delete, logout, password flows). */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

// ---------------------------------------------------------------------------------------------------------
// Query strings
// ---------------------------------------------------------------------------------------------------------

/**
 * An integer in a query string: accepts a number (client side) or its decimal text (server side), gives a
 * number. Keeping the input type `number | string` lets the client type its queries from `z.input`.
 */
export function queryInt(field: string, min: number, max: number) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^-?\d+$/)
          .transform(Number),
      ],
      { error: invalidMessage(field) },
    )
    .pipe(intField(field, min, max));
}

/** A boolean in a query string: true/false, or 'true'|'false'|'1'|'0'. */
export function queryBool(field: string) {
  return z.union(
    [
      z.boolean(),
      z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
    ],
    { error: invalidMessage(field) },
  );
}

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 500;

export const sortOrders = ['asc', 'desc'] as const;

/**
 * Common list query: page (from 1), limit (1..500, default 15), free-text search, sort column
 * (snake_case name; unknown columns are refused by each server module) and order.
 */
export const baseListQueryShape = {
  page: queryInt('Page', 1, 1_000_000).default(1),
  limit: queryInt('Limit', 1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z
    .string()
    .trim()
    .max(100, { error: invalidMessage('Search') })
    .refine(hasNoNul, { error: invalidMessage('Search') })
    .optional(),
  sort: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, { error: invalidMessage('Sort') })
    .max(64)
    .optional(),
  order: z.enum(sortOrders, { error: invalidMessage('Order') }).default('desc'),
};

/** List query of an entity with a status filter plus its own filters. */
export function listQuerySchema<S extends z.ZodType, E extends z.ZodRawShape>(status: S, extra: E) {
  return z.object({ ...baseListQueryShape, status: status.optional(), ...extra });
}

/** A time range filter [from, to] as ISO timestamps with offset. */
export const timeRangeShape = {
  from: boundedDateTimeField('From').optional(),
  to: boundedDateTimeField('To').optional(),
};

/** Path parameter object of every `/:uuid` route. */
export const uuidParamsSchema = z.object({ uuid: uuidSchema });

/** Common audit timestamps of stored records. */
export const timestampsShape = {
  created_at: isoDateTimeSchema,
  updated_at: isoDateTimeSchema,
};

/** Small vehicle summary embedded in notifications, events and live views: the plate card's fields. */
export const vehicleSummarySchema = z.object({
  uuid: uuidSchema,
  license_plate_number: z.string(),
  license_plate_state_code: nullableString,
  license_plate_category: nullableString,
  type: z.string(),
});
export type VehicleSummary = z.infer<typeof vehicleSummarySchema>;

/** Person summary embedded elsewhere (assigned driver, issuing user). */
export const personSummarySchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;
