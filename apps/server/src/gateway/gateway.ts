import type { Server as HttpServer } from 'node:http';
import type { Socket as UdpSocket } from 'node:dgram';
import type { DeviceRef, LocationInput, Storage } from '../storage/storage';
import { patterns, subscribeOn, type Bus } from '../realtime/bus';
import { CommandService } from '../commands/service';
import type { GatewayConfig } from './config';
import type { StreamProtocol } from './decoders';
import { IngestQueue } from './ingest-queue';
import { StatusWriter } from './status-writer';
import { gatewayRefused } from '../metrics/metrics';
import { archiveRawFrame } from './raw-archive';
import { FrameCounters } from './frame-counters';
import { SensorSettingsCache } from './sensors';
import { UnknownThrottle } from './unknown-throttle';
import {
  errText,
  type GatewayContext,
  type GatewayLogger,
  type GatewayStats,
  type RegisteredConnection,
} from './context';
import { ingest } from './ingest';
import { PublishBacklog } from './publish-backlog';
import { publishStored } from './publish';
import { Presence } from './presence';
import { listenTcp, type TcpState } from './tcp';
import { listenUdp } from './udp';
import { listenOsmAnd } from './osmand';
import { startMqtt, type MqttHandle } from './mqtt';

export type { GatewayLogger, GatewayStats } from './context';

const quietLogger: GatewayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface GatewayDeps {
  /** The server config (or {@link gatewayConfig} of an env map). */
  config: GatewayConfig;
  storage: Pick<Storage, 'db' | 'insertLocations' | 'resolveDevice' | 'recordUnknownDevice'>;
  /** How often frame counters are added to the database (default 5 s; tests flush on close). */
  counterFlushMs?: number;
  bus: Bus;
  log?: GatewayLogger;
  now?: () => Date;
  /** Inserts in flight at once (default 2). */
  ingestConcurrency?: number;
}

export interface GatewayPorts {
  teltonika?: number;
  teltonikaUdp?: number;
  ruptela?: number;
  gosafe?: number;
  gosafeUdp?: number;
  istartek?: number;
  osmand?: number;
}

export interface Gateway {
  readonly ports: GatewayPorts;
  readonly counters: FrameCounters;
  readonly sensors: SensorSettingsCache;
  readonly commands: CommandService;
  readonly queue: IngestQueue;
  readonly stats: GatewayStats;
  /** Records stored and not yet handled by their subscribers (back-pressure to the transports). */
  readonly backlog: PublishBacklog;
  /** Live connection of a device on this node. */
  isConnected(deviceUuid: string): boolean;
  close(): Promise<void>;
}

/**
 * The device gateway, composed here: TCP (tcp.ts) and UDP (udp.ts) listeners per protocol, OsmAnd HTTP
 * (osmand.ts) and MQTT JSON (mqtt.ts) for generic trackers; what they decode is stored (ingest.ts) and
 * published after the commit (publish.ts); presence.ts keeps devices' online status and sends queued
 * commands on connect. This file builds the shared context (context.ts), starts the parts the config
 * asks for and closes them in order.
 */
export async function startGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config, storage, bus } = deps;
  const log = deps.log ?? quietLogger;
  const now = deps.now ?? (() => new Date());
  const queue = new IngestQueue(storage, {
    maxBatch: config.GATEWAY_BATCH_MAX,
    maxDelayMs: config.GATEWAY_BATCH_MS,
    concurrency: deps.ingestConcurrency ?? 2,
  });
  const commands = new CommandService({
    db: storage.db,
    bus,
    timeoutMs: config.COMMAND_TIMEOUT_S * 1000,
    queueExpiryMs: config.COMMAND_QUEUE_EXPIRY_S * 1000,
    now,
    log: (m) => log.info(m),
  });
  const stats: GatewayStats = { connections: 0, framesRejected: 0, unknownRefused: 0, storageFailures: 0 };
  const counters = new FrameCounters(storage.db, deps.counterFlushMs ?? 5000, (err) =>
    log.warn(`gateway: frame counters flush failed: ${errText(err)}`),
  );
  const sensors = new SensorSettingsCache(storage.db);

  /**
   * Keeps a frame that was not decoded (and is not acknowledged) in the raw-frame archive. The device
   * is the one the frame names when it is registered, else the connection's device, else none.
   */
  async function archive(
    protocol: string,
    bytes: Uint8Array,
    reason: string,
    remote: string | null,
    imei: string | undefined,
    known: DeviceRef | null,
  ): Promise<boolean> {
    let device = known && (!imei || known.imei === imei) ? known : null;
    if (!device && imei) device = await storage.resolveDevice(imei).catch(() => null);
    const deviceId = device?.deviceId ?? null;
    counters.count(deviceId, protocol, 'refused');
    try {
      await archiveRawFrame(storage.db, {
        deviceId,
        imei: device?.imei ?? imei ?? null,
        protocol,
        remoteAddress: remote,
        bytes,
        reason,
      });
      counters.count(deviceId, protocol, 'archived');
      return true;
    } catch (err) {
      log.error(`gateway: could not archive a ${protocol} frame (${reason}): ${errText(err)}`);
      return false;
    }
  }
  const registry = new Map<string, RegisteredConnection>();
  const tcp: TcpState = { servers: [], sockets: new Set(), perIp: new Map() };
  const status = new StatusWriter(storage.db, 250, (err) =>
    log.warn(`gateway: device status update failed: ${errText(err)}`),
  );
  let closing = false;

  const bg = (p: Promise<unknown>, what: string) =>
    void p.catch((err: unknown) => log.warn(`gateway: ${what} failed: ${errText(err)}`));

  const unknownThrottle = new UnknownThrottle(config.GATEWAY_UNKNOWN_PER_IP_PER_MIN);
  /** Adds the attempts a throttle window dropped to the unknown-devices list. */
  async function recordDropped(all = false): Promise<void> {
    for (const d of unknownThrottle.drain(all)) {
      await storage.db
        .query(
          `UPDATE unknown_devices SET attempts = attempts + $2, last_attempt_at = now() WHERE imei = $1`,
          [d.imei.slice(0, 64), d.dropped],
        )
        .catch((err: unknown) => log.warn(`gateway: could not count throttled attempts: ${errText(err)}`));
    }
  }

  async function refuse(imei: string, protocol: string, remote: string | null): Promise<void> {
    stats.unknownRefused++;
    gatewayRefused(protocol, 'unknown_device');
    if (!unknownThrottle.refused(remote ?? '?', imei.slice(0, 64), protocol)) return;
    log.warn(`gateway: refused unknown ${protocol} device ${imei.slice(0, 32)} from ${remote ?? '?'}`);
    await storage.recordUnknownDevice(imei, protocol, remote).catch((err: unknown) => {
      log.warn(`gateway: could not record unknown device: ${errText(err)}`);
    });
  }

  const backlog = new PublishBacklog(config.GATEWAY_PUBLISH_BACKLOG);
  const ingestDeps = {
    config,
    sensors,
    queue,
    stats,
    now,
    ready: () => backlog.ready(),
    publish: (device: DeviceRef, fresh: readonly LocationInput[], generic: boolean) => {
      backlog.add(fresh.length);
      afterAcks(() => backlog.settle(fresh.length, publishStored(bus, bg, device, fresh, generic)));
    },
  };

  /**
   * Publishing waits until the replies of the committed batch are written: one insert commits the
   * frames of many connections at once, and each frame's publishing (pipeline engines, a realtime
   * envelope per record) used to run before the next frame's ACK was written, so the last device of a
   * batch waited for the whole batch's publishing (the largest part of bench:soak's ACK p99). The
   * queued publishes run in commit order on the next turn of the event loop (a device's batches stay
   * in order); the ACK is still written only after the commit. stop() runs what is left.
   */
  const publishQueue: (() => void)[] = [];
  function afterAcks(fn: () => void): void {
    publishQueue.push(fn);
    if (publishQueue.length === 1) setImmediate(runPublishes);
  }
  function runPublishes(): void {
    for (const f of publishQueue.splice(0)) {
      try {
        f();
      } catch (err) {
        log.warn(`gateway: publish failed: ${errText(err)}`);
      }
    }
  }
  const ctx: GatewayContext = {
    config,
    storage,
    log,
    now,
    stats,
    counters,
    commands,
    status,
    unknownThrottle,
    registry,
    closing: () => closing,
    bg,
    archive,
    refuse,
    ingest: (groups, generic) => ingest(ingestDeps, groups, generic),
    heardConnectionless: (dev) => presence.heard(dev),
    dispatchQueued: (conn) => presence.dispatchQueued(conn),
  };
  // The context's presence members call it only once transports run (after this line).
  const presence = new Presence(ctx, commands, () => bg(recordDropped(), 'throttled attempts'));

  const udpSockets: UdpSocket[] = [];
  let httpServer: HttpServer | undefined;
  let mqttClient: MqttHandle | undefined;
  const ports: GatewayPorts = {};

  const unsubscribe = subscribeOn(bus, patterns.commands, async (_msg, subject) => {
    const conn = registry.get(subject.slice('commands.'.length));
    if (conn) await commands.dispatch(conn.link);
  });

  const started: string[] = [];
  try {
    const want: [keyof GatewayPorts, number | null, () => Promise<number>][] = [];
    const tcpPort = (p: StreamProtocol, port: number | null) =>
      want.push([p, port, () => listenTcp(ctx, tcp, p, port ?? 0)]);
    tcpPort('teltonika', config.GATEWAY_TELTONIKA_PORT);
    tcpPort('ruptela', config.GATEWAY_RUPTELA_PORT);
    tcpPort('gosafe', config.GATEWAY_GOSAFE_PORT);
    tcpPort('istartek', config.GATEWAY_ISTARTEK_PORT);
    for (const [name, port, listen] of want) {
      if (port === null) continue;
      ports[name] = await listen();
      started.push(`${name} ${ports[name]}`);
    }
    if (config.GATEWAY_UDP) {
      // UDP takes the TCP port number actually bound (matters when the configured port is 0).
      if (ports.teltonika !== undefined)
        ports.teltonikaUdp = await listenUdp(ctx, udpSockets, 'teltonika', ports.teltonika);
      if (ports.gosafe !== undefined)
        ports.gosafeUdp = await listenUdp(ctx, udpSockets, 'gosafe', ports.gosafe);
    }
    if (config.GATEWAY_OSMAND_PORT !== null) {
      ports.osmand = await listenOsmAnd(ctx, config.GATEWAY_OSMAND_PORT, (s) => (httpServer = s));
      started.push(`osmand ${ports.osmand}`);
    }
    if (config.MQTT_URL) await startMqtt(ctx, config.MQTT_URL, config.MQTT_TOPIC, (c) => (mqttClient = c));
  } catch (err) {
    presence.stopSilence();
    unsubscribe();
    for (const s of tcp.servers) s.close();
    for (const u of udpSockets) u.close();
    httpServer?.close();
    throw err;
  }
  bg(commands.sweep(), 'command sweep');
  commands.startExpiry((err) => log.warn(`gateway: command expiry failed: ${errText(err)}`));
  log.info(`gateway: listening (${started.join(', ')})`);

  return {
    ports,
    counters,
    sensors,
    commands,
    queue,
    stats,
    backlog,
    isConnected: (uuid) => registry.has(uuid),
    async close() {
      closing = true;
      presence.stopSilence();
      unsubscribe();
      commands.close();
      const closed = tcp.servers.map((s) => new Promise<void>((r) => s.close(() => r())));
      for (const s of tcp.sockets) s.destroy();
      for (const u of udpSockets) u.close();
      if (httpServer) {
        httpServer.closeAllConnections();
        closed.push(new Promise<void>((r) => httpServer!.close(() => r())));
      }
      if (mqttClient) {
        const c = mqttClient;
        closed.push(new Promise<void>((r) => void c.end(true, () => r())));
      }
      await Promise.all(closed);
      presence.stopDispatch();
      backlog.close();
      await queue.drain();
      runPublishes();
      await status.flush();
      await counters.close();
      await recordDropped(true);
    },
  };
}
