/**
 * Outbound messages (issue 14): the message outbox as admins see it. Super admins see every message and,
 * for mail kept in the local mailbox (no SMTP configured), its content; a company admin with users.view
 * sees the status of their company's messages, never the content (it carries one-time links and codes).
 */
import { z } from 'zod';
import {
  baseListQueryShape,
  emailField,
  invalidMessage,
  isoDateTimeSchema,
  nullableString,
  optionalIntField,
  uuidSchema,
} from './common';

export const messageChannels = ['email', 'sms'] as const;
export const messageStatuses = ['queued', 'sent', 'failed'] as const;
export const messageKindValues = [
  'set_password',
  'reset_password',
  'otp',
  'share_location',
  'alert',
  'report',
] as const;

export const outboundMessageSchema = z.object({
  uuid: uuidSchema,
  channel: z.enum(messageChannels),
  kind: z.string(),
  recipient: z.string(),
  locale: z.string(),
  subject: z.string(),
  status: z.enum(messageStatuses),
  /** smtp, mailbox (the local mailbox), sms-http ...; null before the first try. */
  transport: nullableString,
  attempts: z.number().int(),
  last_error: nullableString,
  created_at: isoDateTimeSchema,
  sent_at: isoDateTimeSchema.nullable(),
  /** Whether the content can be read (super admins, mail kept in the local mailbox). */
  has_content: z.boolean(),
});
export type OutboundMessage = z.infer<typeof outboundMessageSchema>;

export const outboundMessageDetailSchema = outboundMessageSchema.extend({
  body_text: nullableString,
  body_html: nullableString,
});
export type OutboundMessageDetail = z.infer<typeof outboundMessageDetailSchema>;

export const messageListQuerySchema = z.object({
  ...baseListQueryShape,
  status: z.enum(messageStatuses, { error: invalidMessage('Status') }).optional(),
  channel: z.enum(messageChannels, { error: invalidMessage('Channel') }).optional(),
});
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

/** At most this many addresses in one share-by-e-mail. */
export const MAX_SHARE_RECIPIENTS = 10;

export const shareEmailInputSchema = z.object({
  emails: z
    .array(emailField('Email'))
    .min(1, { error: invalidMessage('Email') })
    .max(MAX_SHARE_RECIPIENTS, { error: `Too many Recipients (at most ${MAX_SHARE_RECIPIENTS})` })
    .transform((list) => [...new Set(list)]),
  expires_in_minutes: optionalIntField('Expiry', 5, 7 * 24 * 60).transform((value) => value ?? 60),
});
export type ShareEmailInput = z.input<typeof shareEmailInputSchema>;

export const shareEmailResponseSchema = z.object({
  message: z.string(),
  data: z.object({ expires_at: isoDateTimeSchema, recipients: z.number().int() }),
});
