/** Notifications: the inbox, the rules that raise them and the push tokens that deliver them. */
import { dataEnvelope, entityStatusSchema, paginated, uuidParamsSchema } from '../schemas/common';
import {
  fcmTokenDeactivateInputSchema,
  fcmTokenDeactivateResponseSchema,
  fcmTokenRegisterInputSchema,
  fcmTokenRegisterResponseSchema,
  notificationListQuerySchema,
  notificationRuleInputSchema,
  notificationRuleListQuerySchema,
  notificationRuleSchema,
  notificationSchema,
  readAllResultSchema,
  unreadCountSchema,
} from '../schemas/notification';
import { crud, endpoint } from './define';

export const pushTokenEndpoints = {
  'fcmTokens.register': endpoint({
    method: 'POST',
    path: '/v1/fcm-tokens/register',
    body: fcmTokenRegisterInputSchema,
    response: fcmTokenRegisterResponseSchema,
    auth: 'session',
    summary: 'Register a push token',
  }),
  'fcmTokens.deactivate': endpoint({
    method: 'POST',
    path: '/v1/fcm-tokens/deactivate',
    body: fcmTokenDeactivateInputSchema,
    response: fcmTokenDeactivateResponseSchema,
    auth: 'session',
    summary: 'Deactivate a push token',
  }),
} as const;

export const notificationEndpoints = {
  'notifications.list': endpoint({
    method: 'GET',
    path: '/v1/notifications',
    query: notificationListQuerySchema,
    response: paginated(notificationSchema),
    auth: 'company',
    summary: "The user's notifications",
  }),
  'notifications.unreadCount': endpoint({
    method: 'GET',
    path: '/v1/notifications/unread-count',
    response: dataEnvelope(unreadCountSchema),
    auth: 'company',
    summary: 'Number of unread notifications',
  }),
  'notifications.show': endpoint({
    method: 'GET',
    path: '/v1/notifications/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(notificationSchema),
    auth: 'company',
    summary: 'Details of a notification',
  }),
  'notifications.read': endpoint({
    method: 'POST',
    path: '/v1/notifications/:uuid/read',
    params: uuidParamsSchema,
    response: dataEnvelope(notificationSchema),
    auth: 'company',
    summary: 'Mark a notification read',
  }),
  'notifications.readAll': endpoint({
    method: 'POST',
    path: '/v1/notifications/read-all',
    response: dataEnvelope(readAllResultSchema),
    auth: 'company',
    summary: 'Mark every notification read',
  }),
} as const;

export const notificationRuleCrud = crud('notificationRules', 'notification-rules', 'notification rule', {
  item: notificationRuleSchema,
  input: notificationRuleInputSchema,
  query: notificationRuleListQuerySchema,
  status: entityStatusSchema,
});
