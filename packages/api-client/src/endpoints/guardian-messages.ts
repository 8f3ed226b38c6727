import { uuidParamsSchema } from '../schemas/common';
import {
  guardianSubscriptionResponseSchema,
  publicTokenParamsSchema,
  trackedTripResponseSchema,
  trackingLinksRevokedResponseSchema,
} from '../schemas/guardian-messages';
import { endpoint } from './define';

/**
 * Guardians' messages (issue 14): the public tracking page of a message's link, the unsubscribe link of
 * every guardian message, and revoking a guardian's tracking links.
 */
export const guardianMessageEndpoints = {
  'track.show': endpoint({
    method: 'GET',
    path: '/v1/track/:token',
    params: publicTokenParamsSchema,
    response: trackedTripResponseSchema,
    auth: 'none',
    summary: "Public view of a guardian's tracking link: that trip's bus and its way to the guardian's stop",
  }),
  'unsubscribe.show': endpoint({
    method: 'GET',
    path: '/v1/unsubscribe/:token',
    params: publicTokenParamsSchema,
    response: guardianSubscriptionResponseSchema,
    auth: 'none',
    summary: 'Whether the guardian of an unsubscribe link still gets messages (changes nothing)',
  }),
  'unsubscribe.confirm': endpoint({
    method: 'POST',
    path: '/v1/unsubscribe/:token',
    params: publicTokenParamsSchema,
    response: guardianSubscriptionResponseSchema,
    auth: 'none',
    summary: "Stop the guardian's messages on the link's channel",
  }),
  'guardians.revokeTracking': endpoint({
    method: 'POST',
    path: '/v1/guardians/:uuid/tracking-links/revoke',
    params: uuidParamsSchema,
    response: trackingLinksRevokedResponseSchema,
    auth: 'company',
    summary: "Make every open tracking link of a guardian's messages stop working",
  }),
} as const;
