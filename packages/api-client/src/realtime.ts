/**
 * Real-time WebSocket contract (spec sections 4 and 7).
 *
 * One connection per signed-in user and company at /ws/{company_uuid}/{user_uuid}; the session token goes
 * in the `token` query parameter (browsers cannot set headers on a WebSocket). Messages are
 * {event, path, data}: the client sends {event: 'ping'} every 30 s and the server answers {event: 'pong'}.
 * `path` says what the message is about: the vehicle uuid for locations, the device uuid for command
 * responses, the user uuid for notifications.
 */
import { z } from 'zod';
import { deviceCommandSchema } from './schemas/command';
import { locationRecordSchema } from './schemas/location';
import { notificationSchema } from './schemas/notification';

export const realtimeEvents = [
  'device-location',
  'generic-device-location',
  'notification',
  'command-response',
  'device-command-response',
  'pong',
  'ping',
] as const;
export const realtimeEventSchema = z.enum(realtimeEvents);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;

export const realtimeMessageSchema = z.object({
  event: realtimeEventSchema,
  path: z.string().optional(),
  data: z.unknown().optional(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/** Location data of a live update: a location record naming its vehicle. */
export const liveLocationSchema = locationRecordSchema.extend({
  vehicle_uuid: z.uuid(),
});
export type LiveLocation = z.infer<typeof liveLocationSchema>;

/** Schema of `data` for each event kind (ping and pong carry none). */
export const realtimeDataSchemas = {
  'device-location': liveLocationSchema,
  'generic-device-location': liveLocationSchema,
  notification: notificationSchema,
  'command-response': deviceCommandSchema,
  'device-command-response': deviceCommandSchema,
  pong: z.undefined(),
  ping: z.undefined(),
} as const satisfies Record<RealtimeEvent, z.ZodType>;

export const PING_MESSAGE = { event: 'ping' } as const satisfies RealtimeMessage;
export const PONG_MESSAGE = { event: 'pong' } as const satisfies RealtimeMessage;

export const WEBSOCKET_PATH_TEMPLATE = '/ws/:company_uuid/:user_uuid';

/**
 * The WebSocket path for a company and a user. The company is required (spec: without it no connection is
 * made), so an empty one throws; so does an empty user.
 */
export function websocketPath(companyUuid: string, userUuid: string): string {
  if (!companyUuid) throw new Error('websocketPath: company uuid is required');
  if (!userUuid) throw new Error('websocketPath: user uuid is required');
  return `/ws/${encodeURIComponent(companyUuid)}/${encodeURIComponent(userUuid)}`;
}

/**
 * Full WebSocket URL on the API host: http(s) becomes ws(s), the path is {@link websocketPath} and the
 * session token, when given, travels as the `token` query parameter.
 */
export function websocketUrl(
  apiBaseUrl: string,
  companyUuid: string,
  userUuid: string,
  token?: string,
): string {
  const base = apiBaseUrl.replace(/\/+$/, '').replace(/^http(s?):/i, 'ws$1:');
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${base}${websocketPath(companyUuid, userUuid)}${query}`;
}

/** Parses an incoming frame's text; null when it is not JSON or not a message of the contract. */
export function parseRealtimeMessage(text: string): RealtimeMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = realtimeMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
