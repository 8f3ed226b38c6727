import { dataEnvelope, messageResponseSchema, paginated, uuidParamsSchema } from '../schemas/common';
import {
  messageListQuerySchema,
  outboundMessageDetailSchema,
  outboundMessageSchema,
  shareEmailInputSchema,
  shareEmailResponseSchema,
} from '../schemas/message';
import { endpoint } from './define';

/** Outbound messages (issue 14): the outbox status, the local mailbox, invitations, share by e-mail. */
export const messageEndpoints = {
  'messages.list': endpoint({
    method: 'GET',
    path: '/v1/messages',
    query: messageListQuerySchema,
    response: paginated(outboundMessageSchema),
    auth: 'session',
    summary:
      "Sent messages (e-mail and SMS) with their status; super admins see all, a company admin (users.view) the selected company's",
  }),
  'messages.show': endpoint({
    method: 'GET',
    path: '/v1/messages/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(outboundMessageDetailSchema),
    auth: 'session',
    summary: 'One sent message; its content (local mailbox) for super admins only',
  }),
  'users.invite': endpoint({
    method: 'POST',
    path: '/v1/users/:uuid/invite',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Send the set-password invitation again (a new link; earlier links stop working)',
  }),
  'vehicles.shareEmail': endpoint({
    method: 'POST',
    path: '/v1/vehicles/:uuid/share/email',
    params: uuidParamsSchema,
    body: shareEmailInputSchema,
    response: shareEmailResponseSchema,
    auth: 'company',
    summary: 'Share the live location by e-mail: an expiring link mailed to each address',
  }),
} as const;
