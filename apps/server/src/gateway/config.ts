import { z } from 'zod';

/**
 * Environment keys of the device gateway, the command delivery and the demo simulator. They are spread
 * into the server's one env schema (config/config.ts), so a bad value stops start-up naming the variable.
 *
 * Listener ports default to Traccar's (Teltonika 5027, Ruptela 5046, GoSafe 5078, iStartek 5222,
 * OsmAnd 5055); `off` disables one, `0` asks the OS for a free port (tests). Teltonika and GoSafe also
 * listen for UDP on the same port number unless GATEWAY_UDP=off.
 */
const listenerPort = z.union([
  z.literal('off').transform(() => null),
  z.coerce.number().int().min(0).max(65535),
]);
const onOff = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

export const gatewayEnvShape = {
  /** Master switch of the device listeners (API-only nodes set off). */
  GATEWAY: onOff.default(true),
  /** Interface the device listeners bind to (devices come from outside: all interfaces). */
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0'),
  GATEWAY_TELTONIKA_PORT: listenerPort.default(5027),
  GATEWAY_RUPTELA_PORT: listenerPort.default(5046),
  GATEWAY_GOSAFE_PORT: listenerPort.default(5078),
  GATEWAY_ISTARTEK_PORT: listenerPort.default(5222),
  GATEWAY_OSMAND_PORT: listenerPort.default(5055),
  /** UDP listeners for Teltonika and GoSafe on their TCP port numbers. */
  GATEWAY_UDP: onOff.default(true),
  /** Largest frame buffered per connection before it is refused (the codecs have tighter own limits). */
  GATEWAY_MAX_FRAME_BYTES: z.coerce.number().int().min(512).max(1_048_576).default(65_536),
  /** A connection silent for this long is closed (devices ping every few minutes). */
  GATEWAY_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(600),
  GATEWAY_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  GATEWAY_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** Ingest batching across devices: flush after this many records or milliseconds. */
  GATEWAY_BATCH_MAX: z.coerce.number().int().min(1).max(50_000).default(2_000),
  GATEWAY_BATCH_MS: z.coerce.number().int().min(0).max(1_000).default(4),
  /**
   * Records stored but not yet handled by the pipeline and the realtime hub above which the gateway
   * stores (and acknowledges) no new frame until they fall under it (publish-backlog.ts). 10,000 is
   * about 5 s of 1,000 devices at 2 records/s each.
   */
  GATEWAY_PUBLISH_BACKLOG: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
  /** A command sent to a device without an answer within this time is marked timed_out. */
  COMMAND_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /** A command still queued (device offline) after this long is marked expired and never sent. */
  COMMAND_QUEUE_EXPIRY_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(90 * 86_400)
    .default(86_400),
  /**
   * Connectionless devices (UDP, OsmAnd HTTP, MQTT) have no connection whose end says "offline": one
   * silent for this long is marked offline (a report marks it online again).
   */
  GATEWAY_CONNECTIONLESS_OFFLINE_S: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * Unknown-IMEI attempts one remote address may make per minute before it is throttled: further
   * connections from it are closed at once (no decode, no database write) until the minute ends; the
   * throttled attempts are still counted on the unknown-devices list.
   */
  /**
   * A fix time further ahead of the server clock than this is a device clock fault: the record is
   * stored flagged (`valid` false: kept, but not the vehicle's position and ignored by trips, reports and
   * the live map), at the receive time.
   */
  GATEWAY_MAX_FUTURE_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(366 * 86_400)
    .default(86_400),
  GATEWAY_UNKNOWN_PER_IP_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Generic JSON trackers over MQTT (subscribed when set), e.g. mqtt://127.0.0.1:1883. */
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// URL')
    .optional(),
  /** Topic filter; the `+` level is the tracker's IMEI when the payload has none. */
  MQTT_TOPIC: z.string().min(1).default('fleet/+/location'),
  /** Demo: simulated devices for the seeded demo vehicles drive against this process's gateway. */
  SIMULATOR: onOff.default(true),
};

const gatewayEnvSchema = z.object(gatewayEnvShape);
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;

/** Gateway settings from an env map (tests and benchmarks; the server reads them via loadConfig). */
export function gatewayConfig(env: Record<string, string | undefined> = {}): GatewayConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(gatewayEnvShape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  return gatewayEnvSchema.parse(input);
}
