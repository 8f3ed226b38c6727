/**
 * User activity log (the spec shows no fields): every change is recorded with who, when, what, and the
 * record before and after (issue 4). `subject_type` names the entity group ('vehicle', 'driver' ...),
 * `subject_uuid` the record. Sign-in, sign-out and device commands are logged too.
 */
import { z } from 'zod';
import {
  hasNoNul,
  invalidMessage,
  baseListQueryShape,
  isoDateTimeSchema,
  jsonObjectSchema,
  nullableString,
  personSummarySchema,
  timeRangeShape,
  uuidSchema,
} from './common';

export const activityActions = [
  'created',
  'updated',
  'deleted',
  'status_changed',
  'login',
  'logout',
  'password_changed',
  'company_switched',
  'command_sent',
  'exported',
  'message_sent',
  'message_failed',
] as const;
export const activityActionSchema = z.enum(activityActions);
export type ActivityAction = z.infer<typeof activityActionSchema>;

export const activityLogEntrySchema = z.object({
  uuid: uuidSchema,
  action: activityActionSchema,
  /** Who did it; null for system actions. */
  user: personSummarySchema.nullable(),
  subject_type: nullableString,
  subject_uuid: uuidSchema.nullable(),
  /** Short human description, in the request's locale. */
  description: z.string(),
  before: jsonObjectSchema.nullable(),
  after: jsonObjectSchema.nullable(),
  ip_address: nullableString,
  user_agent: nullableString,
  created_at: isoDateTimeSchema,
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

export const activityLogQuerySchema = z.object({
  ...baseListQueryShape,
  ...timeRangeShape,
  action: activityActionSchema.optional(),
  user_uuid: uuidSchema.optional(),
  subject_type: z
    .string()
    .max(50, { error: invalidMessage('Subject type') })
    .refine(hasNoNul, { error: invalidMessage('Subject type') })
    .optional(),
  subject_uuid: uuidSchema.optional(),
});
export type ActivityLogQuery = z.input<typeof activityLogQuerySchema>;
