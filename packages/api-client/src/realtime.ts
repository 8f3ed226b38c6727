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
 * The one place the WebSocket address is built (issue 22: it used to be built here, again in the
 * socket client, and by hand in the server's benchmark and cluster harness); the server registers its
 * route with {@link WEBSOCKET_PATH_TEMPLATE}.
 *
 * The path is `/ws/{company}/{user}`. The company is required (spec: without the first identifier no
 * connection is made), so an empty one throws. The user is left out when empty: the spec does not
 * show the second identifier's meaning and the client has always connected without one when it had
 * none (the server's route needs both, so such a socket is refused there, not here).
 */
export function websocketPath(companyUuid: string, userUuid?: string | null): string {
  if (!companyUuid) throw new Error('websocketPath: company uuid is required');
  const path = `/ws/${encodeURIComponent(companyUuid)}`;
  return userUuid ? `${path}/${encodeURIComponent(userUuid)}` : path;
}

/**
 * Full WebSocket URL on the API host `{base}/ws/{company}[/{user}][?token=][&locale=]`: the base is
 * trimmed, http(s) becomes ws(s) and trailing slashes go; the session token, when given, travels as
 * the `token` query parameter and the connection's language (en, ar: the server words alerts in it) as
 * `locale`.
 */
export function websocketUrl(
  apiBaseUrl: string,
  companyUuid: string,
  userUuid?: string | null,
  token?: string | null,
  locale?: string | null,
): string {
  const base = apiBaseUrl
    .trim()
    .replace(/^http(s?):\/\//i, (_match, s: string) => `ws${s}://`)
    .replace(/\/+$/, '');
  const query: string[] = [];
  if (token) query.push(`token=${encodeURIComponent(token)}`);
  if (locale) query.push(`locale=${encodeURIComponent(locale)}`);
  return `${base}${websocketPath(companyUuid, userUuid)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** The events the server sends (ping is the client's, pong is answered on the socket itself). */
export const serverRealtimeEvents = [
  'device-location',
  'generic-device-location',
  'notification',
  'command-response',
  'device-command-response',
] as const satisfies readonly RealtimeEvent[];
export type ServerRealtimeEvent = (typeof serverRealtimeEvents)[number];

/** The `data` of an event kind, as its schema describes it. */
export type RealtimeDataOf<E extends RealtimeEvent> = z.infer<(typeof realtimeDataSchemas)[E]>;

/**
 * One message the server sends, `data` typed by its event: what the server's publishers are checked
 * against at compile time (`satisfies`) and what the clients get after {@link parseRealtimeFrame}.
 */
export type RealtimeServerMessage = {
  [E in ServerRealtimeEvent]: { event: E; path: string; data: RealtimeDataOf<E> };
}[ServerRealtimeEvent];

const serverMessage = <E extends ServerRealtimeEvent>(event: E) =>
  z.object({ event: z.literal(event), path: z.string(), data: realtimeDataSchemas[event] });

/** A server message checked against its event's data schema (one discriminated union). */
export const realtimeServerMessageSchema = z.discriminatedUnion('event', [
  serverMessage('device-location'),
  serverMessage('generic-device-location'),
  serverMessage('notification'),
  serverMessage('command-response'),
  serverMessage('device-command-response'),
]);
// The schema and the type say the same thing (a compile error here when they drift apart).
true satisfies z.infer<typeof realtimeServerMessageSchema> extends RealtimeServerMessage
  ? RealtimeServerMessage extends z.infer<typeof realtimeServerMessageSchema>
    ? true
    : false
  : false;

/**
 * A WebSocket frame from the server: one message, or (issue 13) a JSON array of messages, the server's
 * batch of one burst for one client. Each message of a batch is handled exactly as if it had come alone.
 */
export interface RealtimeFrame {
  /** The valid messages of the frame, in order (pong included). */
  messages: (RealtimeServerMessage | typeof PONG_MESSAGE)[];
  /** Messages dropped because they are not JSON or do not fit the contract (never cast). */
  invalid: number;
  /** Why messages were dropped, for the log: the frame is not JSON, or a message is not of the contract. */
  error?: 'not JSON' | 'outside the contract';
}

/**
 * Parses a frame from the server with the contract's schemas: every message is checked against its
 * event's `data` schema; one that does not fit is dropped and counted, the rest of the batch is kept.
 */
export function parseRealtimeFrame(text: string): RealtimeFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { messages: [], invalid: 1, error: 'not JSON' };
  }
  const items = Array.isArray(raw) ? raw : [raw];
  const frame: RealtimeFrame = { messages: [], invalid: 0 };
  for (const item of items) {
    if ((item as { event?: unknown } | null)?.event === 'pong') {
      frame.messages.push(PONG_MESSAGE);
      continue;
    }
    const parsed = realtimeServerMessageSchema.safeParse(item);
    if (parsed.success) frame.messages.push(parsed.data);
    else {
      frame.invalid += 1;
      frame.error = 'outside the contract';
    }
  }
  return frame;
}

/**
 * The text of a batch frame: one message alone as itself, several as a JSON array. Takes messages already
 * serialised (the server words some per connection and never serialises one twice).
 */
export function realtimeFrameText(serialised: readonly string[]): string {
  return serialised.length === 1 ? serialised[0]! : `[${serialised.join(',')}]`;
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
