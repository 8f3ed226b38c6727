/** The user activity log. */
import { activityLogEntrySchema, activityLogQuerySchema } from '../schemas/activity';
import { paginated } from '../schemas/common';
import { endpoint } from './define';

export const activityLogEndpoints = {
  'activityLog.list': endpoint({
    method: 'GET',
    path: '/v1/activity-log',
    query: activityLogQuerySchema,
    response: paginated(activityLogEntrySchema),
    auth: 'company',
    summary: 'User activity log',
  }),
} as const;
