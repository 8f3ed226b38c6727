/**
 * What guardians see without an account (issue 14): the public tracking page of a message's link and the
 * unsubscribe page. Both are reached by a token only; a forged, expired or revoked token, and a tracking
 * link whose trip has ended, answer one plain 404 that names nothing.
 */
import { z } from 'zod';
import { dataEnvelope, isoDateTimeSchema, nullableString, vehicleLiveStatusSchema } from './common';
import { locationRecordSchema } from './location';
import { guardianLanguageSchema, guardianMessageChannelSchema } from './people';
import { vehicleTypeSchema } from './vehicle';

/**
 * The token of a public guardian link: any text. A malformed one is a 404 like any other unknown token
 * (not a 422), so the answer says nothing about what a valid token looks like.
 */
export const publicTokenParamsSchema = z.object({ token: z.string() });

/** Status of the trip instance a tracking link belongs to (only open ones are ever shown). */
export const trackedTripStatuses = ['pending', 'delayed', 'started'] as const;

/**
 * GET /v1/track/{token}: only the bus of the guardian's passenger's trip, its latest position, and the
 * way to the guardian's stop. `eta_minutes` is an estimate from the straight-line distance to the stop
 * and the bus's speed (at least 20 km/h: town traffic); null without a position, 0 once the stop is
 * reached. Nothing else about the company, the other passengers or the other stops is answered.
 */
export const trackedTripSchema = z.object({
  trip: z.object({
    name: z.string(),
    status: z.enum(trackedTripStatuses),
    planned_start: isoDateTimeSchema,
    planned_end: isoDateTimeSchema,
  }),
  passenger: z.object({ first_name: z.string(), first_name_ar: nullableString }),
  stop: z.object({
    name: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    reached: z.boolean(),
  }),
  vehicle: z.object({
    license_plate_number: z.string(),
    license_plate_state_code: nullableString,
    license_plate_category: nullableString,
    type: vehicleTypeSchema,
  }),
  location: locationRecordSchema.nullable(),
  live_status: vehicleLiveStatusSchema,
  distance_m: z.number().int().nonnegative().nullable(),
  eta_minutes: z.number().int().nonnegative().nullable(),
  language: guardianLanguageSchema,
  expires_at: isoDateTimeSchema,
});
export type TrackedTrip = z.infer<typeof trackedTripSchema>;
export const trackedTripResponseSchema = dataEnvelope(trackedTripSchema);

/** GET /v1/unsubscribe/{token}: whether the link's guardian still gets messages on its channel. */
export const guardianSubscriptionSchema = z.object({
  /** The channel the message with this link came through. */
  channel: z.enum(['email', 'sms']),
  subscribed: z.boolean(),
  message_channel: guardianMessageChannelSchema,
  language: guardianLanguageSchema,
});
export type GuardianSubscription = z.infer<typeof guardianSubscriptionSchema>;
export const guardianSubscriptionResponseSchema = dataEnvelope(guardianSubscriptionSchema);

/** POST /v1/guardians/{uuid}/tracking-links/revoke: how many open links stopped working. */
export const trackingLinksRevokedResponseSchema = dataEnvelope(z.object({ revoked: z.number().int() }));
