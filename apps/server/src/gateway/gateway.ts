import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import {
  decodeGoSafeMessage,
  decodeTeltonikaUdp,
  parseMqttLocationPayload,
  parseOsmAndRequest,
  OSMAND_MAX_BODY_SIZE,
  teltonikaHandshakeReply,
  type CommandResponse,
  type DecodeResult,
  type DecodedRecord,
} from '@fleet/device-protocols';
import type { DeviceRef, LocationInput, Storage } from '../storage/storage';
import { subjects, type Bus } from '../realtime/bus';
import { publishRealtime } from '../realtime/hub';
import { CommandService } from '../commands/service';
import type { GatewayConfig } from './config';
import { createStreamDecoder, type StreamDecoder, type StreamProtocol } from './decoders';
import { IngestQueue } from './ingest-queue';
import { StatusWriter } from './status-writer';
import { gatewayFrame, gatewayRefused } from '../metrics/metrics';
import { liveLocation, powerCutOf, toLocationInput, withIoElements } from './records';
import { archiveRawFrame } from './raw-archive';
import { FrameCounters } from './frame-counters';
import { SensorSettingsCache, applySensors } from './sensors';
import { UnknownThrottle } from './unknown-throttle';

export interface GatewayLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

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

export interface GatewayStats {
  connections: number;
  framesRejected: number;
  unknownRefused: number;
  storageFailures: number;
}

export interface Gateway {
  readonly ports: GatewayPorts;
  readonly counters: FrameCounters;
  readonly sensors: SensorSettingsCache;
  readonly commands: CommandService;
  readonly queue: IngestQueue;
  readonly stats: GatewayStats;
  /** Live connection of a device on this node. */
  isConnected(deviceUuid: string): boolean;
  close(): Promise<void>;
}

/** Refresh last_connected_at at most this often while a device keeps sending. */
const STATUS_REFRESH_MS = 60_000;

/**
 * The device gateway: TCP (and UDP) listeners per protocol, OsmAnd HTTP and MQTT JSON for generic
 * trackers. Per connection: the codec's session decodes complete frames out of a buffer that keeps
 * partial ones; records are stored through a cross-device {@link IngestQueue}; the frame's reply (ACK)
 * is written only after the batch holding its records committed. A storage failure ACKs nothing and
 * closes the connection (the device reconnects and resends; the unique device + fix time stores a
 * resend once). A malformed frame closes that connection with one log line.
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
  const registry = new Map<string, DeviceConnection>();
  const sockets = new Set<Socket>();
  const perIp = new Map<string, number>();
  /** Connectionless devices (UDP, OsmAnd, MQTT): when each last reported, and when marked online. */
  const udpSeen = new Map<number, { seen: number; marked: number }>();
  const status = new StatusWriter(storage.db, 250, (err) =>
    log.warn(`gateway: device status update failed: ${errText(err)}`),
  );
  /** Devices that connected in the last moment: one query finds which of them have queued commands. */
  const connectedSoon = new Set<DeviceConnection>();
  let dispatchTimer: ReturnType<typeof setTimeout> | undefined;
  function dispatchQueued(conn: DeviceConnection): void {
    connectedSoon.add(conn);
    dispatchTimer ??= setTimeout(() => {
      dispatchTimer = undefined;
      const conns = [...connectedSoon];
      connectedSoon.clear();
      const byId = new Map(conns.map((c) => [c.link.deviceId, c]));
      bg(
        (async () => {
          const rows = await storage.db.query<{ device_id: number }>(
            `SELECT DISTINCT device_id FROM device_commands WHERE status = 'queued' AND device_id = ANY($1::bigint[])`,
            [[...byId.keys()]],
          );
          for (const r of rows) {
            const c = byId.get(Number(r.device_id));
            if (c) await commands.dispatch(c.link);
          }
        })(),
        'command dispatch',
      );
    }, 100);
  }
  const maxFrame = config.GATEWAY_MAX_FRAME_BYTES;
  const idleMs = config.GATEWAY_IDLE_TIMEOUT_S * 1000;
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

  /** After a commit: hand each new record to the pipeline and the realtime hub. */
  function publishStored(device: DeviceRef, fresh: readonly LocationInput[], generic: boolean): void {
    if (fresh.length === 0) return;
    for (const r of fresh) withIoElements(r);
    bg(
      bus.publish(subjects.locations(device.companyUuid, device.deviceUuid), {
        companyUuid: device.companyUuid,
        deviceUuid: device.deviceUuid,
        vehicleUuid: device.vehicleUuid,
        generic,
        records: fresh,
      }),
      'publish locations',
    );
    if (!device.vehicleUuid) return;
    const sorted = fresh.length > 1 ? [...fresh].sort((a, b) => +a.fixTime - +b.fixTime) : fresh;
    for (const r of sorted) {
      if (r.valid === false) continue;
      bg(
        publishRealtime(bus, {
          company_uuid: device.companyUuid,
          event: generic ? 'generic-device-location' : 'device-location',
          path: device.vehicleUuid,
          data: liveLocation(r, device),
          vehicle_uuid: device.vehicleUuid,
        }),
        'publish realtime',
      );
    }
  }

  /** Store records of known devices; resolves with the new ones per device (rejects on failure). */
  async function ingest(
    groups: { device: DeviceRef; records: readonly DecodedRecord[] }[],
    generic: boolean,
  ): Promise<void> {
    const at = now().getTime();
    const inputs: LocationInput[] = [];
    const perGroup: LocationInput[][] = [];
    for (const g of groups) {
      const settings = await sensors.get(g.device.deviceId);
      const mine: LocationInput[] = new Array(g.records.length);
      for (let i = 0; i < g.records.length; i++) {
        const record = applySensors(g.records[i]!, g.device.type, settings);
        inputs.push((mine[i] = toLocationInput(record, g.device, at, config.GATEWAY_MAX_FUTURE_S * 1000)));
      }
      perGroup.push(mine);
    }
    if (inputs.length === 0) return;
    const frame = gatewayFrame(groups.find((g) => g.records.length > 0)!.records[0]!.protocol, inputs.length);
    let fresh: LocationInput[];
    try {
      fresh = await queue.submit(inputs);
    } catch (err) {
      stats.storageFailures++;
      frame.refused();
      throw err;
    }
    frame.acked();
    if (fresh.length === 0) return;
    // Normally every record is new; after a resend only some are: keep those, per device.
    const kept = fresh.length === inputs.length ? undefined : new Set(fresh);
    afterAcks(() =>
      groups.forEach((g, i) => {
        const mine = kept ? perGroup[i]!.filter((x) => kept.has(x)) : perGroup[i]!;
        publishStored(g.device, mine, generic);
      }),
    );
  }

  /**
   * Publishing waits until the replies of the committed batch are written: one insert commits the
   * frames of many connections at once, and each frame's publishing (pipeline engines, a realtime
   * envelope per record) ran before the next frame's ACK was written, so the last device of a batch
   * waited for the whole batch's publishing (the largest part of bench:soak's ACK p99). The queued
   * publishes run in commit order on the next turn of the event loop (a device's batches stay in
   * order). The ACK is still written only after the commit.
   */
  const publishQueue: (() => void)[] = [];
  function afterAcks(fn: () => void): void {
    publishQueue.push(fn);
    if (publishQueue.length === 1) {
      setImmediate(runPublishes);
    }
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

  class DeviceConnection {
    private buf: Buffer = Buffer.alloc(0);
    private busy = false;
    private closed = false;
    device: DeviceRef | null = null;
    private power: boolean | undefined;
    private statusAt = 0;
    private readonly decoder: StreamDecoder;
    private readonly remote: string;
    readonly link = {
      deviceId: 0,
      write: (bytes: Uint8Array): boolean => {
        if (this.closed || this.socket.destroyed || !this.socket.writable) return false;
        this.socket.write(bytes);
        return true;
      },
    };

    constructor(
      readonly socket: Socket,
      readonly protocol: StreamProtocol,
    ) {
      this.decoder = createStreamDecoder(protocol, maxFrame);
      this.remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
      socket.setNoDelay(true);
      socket.setTimeout(idleMs, () => socket.destroy());
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => this.onClose());
    }

    private onData(chunk: Buffer): void {
      if (this.closed) return;
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      if (this.buf.length > maxFrame * 4) this.socket.pause();
      if (!this.busy) void this.pump();
    }

    private fail(reason: string): void {
      stats.framesRejected++;
      if (!reason.startsWith('storage failure')) gatewayRefused(this.protocol, 'bad_frame');
      log.warn(`gateway: ${this.protocol} ${this.device?.imei ?? 'unidentified'} ${this.remote}: ${reason}`);
      this.socket.destroy();
    }

    private async pump(): Promise<void> {
      this.busy = true;
      try {
        while (!this.closed && this.buf.length > 0) {
          const res = this.decoder.decode(this.buf);
          if (res.consumed > 0) this.buf = this.buf.subarray(res.consumed);
          if (res.messages.length > 0 || res.reply) {
            if (!(await this.handle(res))) return;
          }
          if (res.error) {
            // Nothing of the bad input is acknowledged; what is buffered of it is archived.
            const reason = `${res.error.code}: ${res.error.message}`;
            if (this.buf.length > 0)
              await archive(
                this.protocol,
                this.buf.subarray(0, maxFrame),
                reason,
                this.remote,
                undefined,
                this.device,
              );
            return this.fail(reason);
          }
          if (res.consumed === 0) {
            if (this.buf.length > maxFrame) this.fail(`frame_too_large: over ${maxFrame} bytes buffered`);
            break;
          }
        }
      } catch (err) {
        this.fail(`internal: ${errText(err)}`);
      } finally {
        this.busy = false;
        if (!this.closed && this.socket.isPaused()) this.socket.resume();
      }
    }

    private async resolve(imei: string): Promise<DeviceRef | null> {
      if (this.device && this.device.imei === imei) return this.device;
      const dev = await storage.resolveDevice(imei);
      if (!dev) {
        // Over the address's unknown-IMEI allowance: closed unanswered (counted by refuse()).
        const quiet = unknownThrottle.blocked(this.socket.remoteAddress ?? '?');
        if (!quiet && this.protocol === 'teltonika' && !this.socket.destroyed) {
          this.socket.end(teltonikaHandshakeReply(false));
        } else this.socket.destroy();
        this.closed = true;
        await refuse(imei, this.protocol, this.socket.remoteAddress ?? null);
        return null;
      }
      if (!this.device) this.bind(dev);
      return dev;
    }

    private bind(dev: DeviceRef): void {
      this.device = dev;
      this.link.deviceId = dev.deviceId;
      registry.set(dev.deviceUuid, this);
      this.statusAt = Date.now();
      status.set(dev.deviceId, 'online', now());
      dispatchQueued(this);
    }

    /** Handles one decode step; false when the connection was closed. */
    private async handle(res: DecodeResult): Promise<boolean> {
      const groups: { device: DeviceRef; records: DecodedRecord[] }[] = [];
      const answers: CommandResponse[] = [];
      const undecodable: { imei?: string; frame: Uint8Array; reason: string }[] = [];
      for (const msg of res.messages) {
        if (msg.type === 'identification') {
          const dev = await this.resolve(msg.imei);
          if (!dev) return false;
          if (this.protocol === 'teltonika') this.socket.write(teltonikaHandshakeReply(true));
        } else if (msg.type === 'records') {
          const dev = await this.resolve(msg.imei);
          if (!dev) return false;
          groups.push({ device: dev, records: msg.records });
        } else if (msg.type === 'heartbeat') {
          if (msg.imei && !this.device && !(await this.resolve(msg.imei))) return false;
        } else if (msg.type === 'command-response') {
          answers.push(msg.response);
        } else if (msg.type === 'undecodable') {
          undecodable.push(msg);
        }
      }
      for (const u of undecodable) {
        stats.framesRejected++;
        gatewayRefused(this.protocol, 'undecodable');
        log.warn(
          `gateway: ${this.protocol} ${u.imei ?? '?'} ${this.remote}: undecodable frame archived: ${u.reason}`,
        );
        await archive(this.protocol, u.frame, u.reason, this.remote, u.imei, this.device);
      }
      if (groups.length > 0) {
        try {
          await ingest(groups, false);
        } catch (err) {
          this.fail(`storage failure, nothing acknowledged: ${errText(err)}`);
          return false;
        }
        for (const g of groups) counters.count(g.device.deviceId, this.protocol, 'decoded');
      }
      if (this.closed || this.socket.destroyed) return false;
      if (res.reply) this.socket.write(res.reply);
      const dev = this.device;
      if (dev) {
        const allRecords = groups.flatMap((g) => g.records);
        const power = powerCutOf(allRecords);
        const t = Date.now();
        if ((power !== undefined && power !== this.power) || t - this.statusAt > STATUS_REFRESH_MS) {
          if (power !== undefined) this.power = power;
          this.statusAt = t;
          status.set(dev.deviceId, this.power ? 'unplugged' : 'online', now());
        }
        for (const a of answers) bg(commands.answer(dev.deviceId, a), 'command answer');
      }
      return true;
    }

    private onClose(): void {
      const wasClosed = this.closed;
      this.closed = true;
      sockets.delete(this.socket);
      stats.connections--;
      const ip = this.socket.remoteAddress ?? '?';
      const n = (perIp.get(ip) ?? 1) - 1;
      if (n <= 0) perIp.delete(ip);
      else perIp.set(ip, n);
      const dev = this.device;
      if (!dev) return;
      const held = this.decoder.flush();
      if (held.length > 0 && !wasClosed) bg(ingest([{ device: dev, records: held }], false), 'flush held');
      if (registry.get(dev.deviceUuid) === this) {
        registry.delete(dev.deviceUuid);
        status.set(dev.deviceId, 'offline', now());
      }
    }
  }

  const servers: Server[] = [];
  const udpSockets: UdpSocket[] = [];
  let httpServer: HttpServer | undefined;
  const ports: GatewayPorts = {};

  function listenTcp(protocol: StreamProtocol, port: number): Promise<number> {
    const server = createTcpServer((socket) => {
      const ip = socket.remoteAddress ?? '?';
      const fromIp = perIp.get(ip) ?? 0;
      if (
        closing ||
        stats.connections >= config.GATEWAY_MAX_CONNECTIONS ||
        fromIp >= config.GATEWAY_MAX_CONNECTIONS_PER_IP
      ) {
        socket.on('error', () => undefined);
        socket.destroy();
        return;
      }
      perIp.set(ip, fromIp + 1);
      stats.connections++;
      sockets.add(socket);
      new DeviceConnection(socket, protocol);
    });
    servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', (err) =>
        reject(
          new Error(
            `gateway: cannot listen for ${protocol} on ${config.GATEWAY_HOST}:${port} (${errText(err)}); ` +
              `set GATEWAY_${protocol.toUpperCase()}_PORT to another port or off`,
          ),
        ),
      );
      server.listen({ port, host: config.GATEWAY_HOST, backlog: 4096 }, () => {
        server.off('error', reject);
        const addr = server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  function udpOnline(dev: DeviceRef): void {
    const t = Date.now();
    const e = udpSeen.get(dev.deviceId);
    if (e) {
      e.seen = t;
      if (t - e.marked < STATUS_REFRESH_MS) return;
      e.marked = t;
    } else udpSeen.set(dev.deviceId, { seen: t, marked: t });
    status.set(dev.deviceId, 'online', now());
  }

  /**
   * Connectionless devices never close a connection, so silence is their only "offline": one that has
   * not reported for GATEWAY_CONNECTIONLESS_OFFLINE_S is marked offline (unless it meanwhile holds a
   * TCP connection to this gateway). Its next report marks it online again.
   *
   * That covers devices this process has heard. A process that stopped without closing its connections
   * (killed, crashed), or that heard a connectionless device before a restart, leaves devices shown
   * online that nobody holds. Every gateway therefore also sweeps the table, at start and on the same
   * timer: a device shown connected whose last_connected_at is older than `staleMs` is offline, wherever
   * it was connected. A live device can never be that stale: a TCP connection silent for the idle
   * time-out is closed, a reporting one refreshes last_connected_at every STATUS_REFRESH_MS, and a
   * connectionless one is refreshed as often. (All gateways of a cluster are expected to share these
   * settings; the sweep is idempotent, so several gateways running it is harmless.)
   */
  const offlineMs = config.GATEWAY_CONNECTIONLESS_OFFLINE_S * 1000;
  const staleMs = Math.max(idleMs, offlineMs) + 2 * STATUS_REFRESH_MS;
  const sweepStale = () =>
    bg(
      status.sweep(new Date(now().getTime() - staleMs)).then((n) => {
        if (n > 0) log.info(`gateway: ${n} device(s) left shown online by a stopped process marked offline`);
      }),
      'stale status sweep',
    );
  sweepStale();
  const silenceTimer = setInterval(
    () => {
      const cutoff = Date.now() - offlineMs;
      const connected = new Set<number>();
      for (const c of registry.values()) connected.add(c.link.deviceId);
      for (const [id, e] of udpSeen) {
        if (e.seen > cutoff) continue;
        udpSeen.delete(id);
        if (!connected.has(id)) status.set(id, 'offline', now());
      }
      sweepStale();
      bg(recordDropped(), 'throttled attempts');
    },
    Math.max(250, Math.min(30_000, offlineMs / 4)),
  );
  silenceTimer.unref();

  function listenUdp(protocol: 'teltonika' | 'gosafe', port: number): Promise<number> {
    const sock = createSocket('udp4');
    udpSockets.push(sock);
    sock.on('message', (msg, rinfo) => {
      void (async () => {
        const res = protocol === 'teltonika' ? decodeTeltonikaUdp(msg) : decodeGoSafeMessage(msg);
        const remote = `${rinfo.address}:${rinfo.port}`;
        if (res.error) {
          stats.framesRejected++;
          log.warn(`gateway: ${protocol} udp ${remote}: ${res.error.code}: ${res.error.message}`);
          await archive(protocol, msg, `${res.error.code}: ${res.error.message}`, remote, undefined, null);
          return;
        }
        const groups: { device: DeviceRef; records: DecodedRecord[] }[] = [];
        for (const m of res.messages) {
          if (m.type === 'undecodable') {
            stats.framesRejected++;
            gatewayRefused(protocol, 'undecodable');
            await archive(protocol, m.frame, m.reason, remote, m.imei, null);
            continue;
          }
          const imei = m.type === 'command-response' ? m.response.imei : m.imei;
          if (!imei) continue;
          const dev = await storage.resolveDevice(imei);
          if (!dev) return refuse(imei, protocol, rinfo.address);
          udpOnline(dev);
          if (m.type === 'records') groups.push({ device: dev, records: m.records });
          // A device may answer a command (sent earlier over SMS or a TCP session) in a datagram; the
          // answer goes to its command history like one that arrives over TCP.
          else if (m.type === 'command-response')
            bg(commands.answer(dev.deviceId, m.response), 'udp command answer');
        }
        try {
          await ingest(groups, false);
        } catch (err) {
          stats.storageFailures++;
          log.warn(`gateway: ${protocol} udp storage failure, nothing acknowledged: ${errText(err)}`);
          return;
        }
        for (const g of groups) counters.count(g.device.deviceId, protocol, 'decoded');
        if (res.reply && !closing) sock.send(res.reply, rinfo.port, rinfo.address);
      })().catch((err: unknown) => log.warn(`gateway: udp ${protocol}: ${errText(err)}`));
    });
    return new Promise((resolve, reject) => {
      sock.once('error', reject);
      sock.bind({ port, address: config.GATEWAY_HOST }, () => {
        sock.off('error', reject);
        sock.on('error', (err) => log.warn(`gateway: udp ${protocol}: ${errText(err)}`));
        resolve(sock.address().port);
      });
    });
  }

  /** Stores generic tracker records; returns an HTTP-like status (200 stored, 403 unknown, 503 failure). */
  async function ingestGeneric(
    records: DecodedRecord[],
    source: string,
    remote: string | null,
  ): Promise<number> {
    const byImei = new Map<string, DecodedRecord[]>();
    for (const r of records) {
      const list = byImei.get(r.imei);
      if (list) list.push(r);
      else byImei.set(r.imei, [r]);
    }
    const groups: { device: DeviceRef; records: DecodedRecord[] }[] = [];
    for (const [imei, list] of byImei) {
      const dev = await storage.resolveDevice(imei);
      if (!dev) {
        await refuse(imei, source, remote);
        return 403;
      }
      udpOnline(dev);
      groups.push({ device: dev, records: list });
    }
    try {
      await ingest(groups, true);
      for (const g of groups) counters.count(g.device.deviceId, source, 'decoded');
      return 200;
    } catch (err) {
      log.warn(`gateway: ${source} storage failure, not acknowledged: ${errText(err)}`);
      return 503;
    }
  }

  function listenOsmAnd(port: number): Promise<number> {
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > OSMAND_MAX_BODY_SIZE) {
          res.writeHead(413).end();
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => {
        void (async () => {
          const url = req.url ?? '/';
          const q = url.indexOf('?');
          const parsed = parseOsmAndRequest(
            {
              query: q >= 0 ? url.slice(q + 1) : '',
              body: Buffer.concat(chunks).toString('utf8'),
              ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
            },
            { now: () => now().getTime() },
          );
          if (parsed.error) {
            stats.framesRejected++;
            log.warn(
              `gateway: osmand ${req.socket.remoteAddress ?? '?'}: ${parsed.error.code}: ${parsed.error.message}`,
            );
            // Archived as `<method> <url>\n<content-type>\n\n<body>` (./replay.ts reads it back).
            const idMatch = /[?&](?:id|deviceid)=([0-9A-Za-z]{4,32})(?:&|$)/.exec(url);
            await archive(
              'osmand',
              Buffer.concat([
                Buffer.from(`${req.method ?? 'GET'} ${url}\n${req.headers['content-type'] ?? ''}\n\n`),
                ...chunks,
              ]),
              `${parsed.error.code}: ${parsed.error.message}`,
              req.socket.remoteAddress ?? null,
              idMatch?.[1],
              null,
            );
            res.writeHead(400).end();
            return;
          }
          const status = await ingestGeneric([parsed.record], 'osmand', req.socket.remoteAddress ?? null);
          res.writeHead(status).end();
        })().catch((err: unknown) => {
          log.error(`gateway: osmand: ${errText(err)}`);
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
    });
    httpServer = server;
    server.keepAliveTimeout = idleMs;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: config.GATEWAY_HOST }, () => {
        server.off('error', reject);
        const addr = server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  let mqttClient: { end(force?: boolean, cb?: () => void): unknown } | undefined;
  async function startMqtt(url: string, topic: string): Promise<void> {
    const mqtt = await import('mqtt');
    const client = mqtt.connect(url, {
      clientId: `fleet-gateway-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
      reconnectPeriod: 2000,
      clean: true,
    });
    mqttClient = client;
    const levels = topic.split('/');
    const plus = levels.indexOf('+');
    // PUBACK (QoS 1) only after the records are durably stored: mqtt.js waits for this callback.
    client.handleMessage = (packet, done) => {
      void (async () => {
        const t = packet.topic.split('/');
        const imeiFromTopic = plus >= 0 ? t[plus] : undefined;
        const parsed = parseMqttLocationPayload(
          packet.payload as Uint8Array,
          imeiFromTopic && /^\d{1,20}$/.test(imeiFromTopic) ? { imei: imeiFromTopic } : {},
        );
        if (parsed.error) {
          stats.framesRejected++;
          log.warn(`gateway: mqtt ${packet.topic}: ${parsed.error.code}: ${parsed.error.message}`);
          // Acknowledged to the broker once it is kept in the archive (a redelivery would fail the same
          // way); not acknowledged when even the archive cannot take it.
          const kept = await archive(
            'mqtt',
            typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload,
            `${parsed.error.code}: ${parsed.error.message}`,
            null,
            imeiFromTopic && /^\d{1,20}$/.test(imeiFromTopic) ? imeiFromTopic : undefined,
            null,
          );
          return kept ? done() : done(new Error('archive failure'));
        }
        const status = await ingestGeneric(parsed.records, 'mqtt', null);
        if (status === 503) return done(new Error('storage failure'));
        done();
      })().catch((err: unknown) => done(err instanceof Error ? err : new Error(String(err))));
    };
    client.on('error', (err) => log.warn(`gateway: mqtt: ${errText(err)}`));
    await new Promise<void>((resolve) => {
      client.once('connect', () => {
        client.subscribe(topic, { qos: 1 }, (err) => {
          if (err) log.warn(`gateway: mqtt subscribe ${topic}: ${errText(err)}`);
          else log.info(`gateway: mqtt subscribed to ${topic} on ${url}`);
          resolve();
        });
      });
      // Do not hold start-up hostage to a broker that is down: reconnects continue in the background.
      setTimeout(resolve, 3000).unref();
    });
  }

  const unsubscribe = bus.subscribe<{ commandId: number }>('commands.*', async (_msg, subject) => {
    const conn = registry.get(subject.slice('commands.'.length));
    if (conn) await commands.dispatch(conn.link);
  });

  const started: string[] = [];
  try {
    const want: [keyof GatewayPorts, number | null, () => Promise<number>][] = [];
    const tcp = (p: StreamProtocol, port: number | null) =>
      want.push([p, port, () => listenTcp(p, port ?? 0)]);
    tcp('teltonika', config.GATEWAY_TELTONIKA_PORT);
    tcp('ruptela', config.GATEWAY_RUPTELA_PORT);
    tcp('gosafe', config.GATEWAY_GOSAFE_PORT);
    tcp('istartek', config.GATEWAY_ISTARTEK_PORT);
    for (const [name, port, listen] of want) {
      if (port === null) continue;
      ports[name] = await listen();
      started.push(`${name} ${ports[name]}`);
    }
    if (config.GATEWAY_UDP) {
      // UDP takes the TCP port number actually bound (matters when the configured port is 0).
      if (ports.teltonika !== undefined) ports.teltonikaUdp = await listenUdp('teltonika', ports.teltonika);
      if (ports.gosafe !== undefined) ports.gosafeUdp = await listenUdp('gosafe', ports.gosafe);
    }
    if (config.GATEWAY_OSMAND_PORT !== null) {
      ports.osmand = await listenOsmAnd(config.GATEWAY_OSMAND_PORT);
      started.push(`osmand ${ports.osmand}`);
    }
    if (config.MQTT_URL) await startMqtt(config.MQTT_URL, config.MQTT_TOPIC);
  } catch (err) {
    clearInterval(silenceTimer);
    unsubscribe();
    for (const s of servers) s.close();
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
    isConnected: (uuid) => registry.has(uuid),
    async close() {
      closing = true;
      clearInterval(silenceTimer);
      unsubscribe();
      commands.close();
      const closed = servers.map((s) => new Promise<void>((r) => s.close(() => r())));
      for (const s of sockets) s.destroy();
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
      if (dispatchTimer) clearTimeout(dispatchTimer);
      await queue.drain();
      runPublishes();
      await status.flush();
      await counters.close();
      await recordDropped(true);
    },
  };
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
