import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import {
  teltonikaHandshakeReply,
  type CommandResponse,
  type DecodeResult,
  type DecodedRecord,
} from '@fleet/device-protocols';
import type { DeviceRef } from '../storage/storage';
import { gatewayRefused } from '../metrics/metrics';
import { createStreamDecoder, type StreamDecoder, type StreamProtocol } from './decoders';
import { powerCutOf } from './records';
import { errText, STATUS_REFRESH_MS, type GatewayContext, type RegisteredConnection } from './context';

/**
 * The TCP transport (Teltonika, Ruptela, GoSafe, iStartek): listeners with per-address and total
 * connection limits, and one {@link DeviceConnection} per socket. Per connection: the codec's session
 * decodes complete frames out of a buffer that keeps partial ones; records are stored through the
 * gateway's ingest (cross-device batches); the frame's reply (ACK) is written only after the batch
 * holding its records committed. A storage failure ACKs nothing and closes the connection (the device
 * reconnects and resends; the unique device + fix time stores a resend once). A malformed frame closes
 * that connection with one log line.
 */

/** The TCP listeners' own state (gateway.ts closes it). */
export interface TcpState {
  readonly servers: Server[];
  readonly sockets: Set<Socket>;
  readonly perIp: Map<string, number>;
}

export class DeviceConnection implements RegisteredConnection {
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

  private readonly maxFrame: number;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly tcp: TcpState,
    readonly socket: Socket,
    readonly protocol: StreamProtocol,
  ) {
    const maxFrame = (this.maxFrame = ctx.config.GATEWAY_MAX_FRAME_BYTES);
    this.decoder = createStreamDecoder(protocol, maxFrame);
    this.remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
    socket.setNoDelay(true);
    socket.setTimeout(ctx.config.GATEWAY_IDLE_TIMEOUT_S * 1000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClose());
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    if (this.buf.length > this.maxFrame * 4) this.socket.pause();
    if (!this.busy) void this.pump();
  }

  private fail(reason: string): void {
    this.ctx.stats.framesRejected++;
    if (!reason.startsWith('storage failure')) gatewayRefused(this.protocol, 'bad_frame');
    this.ctx.log.warn(
      `gateway: ${this.protocol} ${this.device?.imei ?? 'unidentified'} ${this.remote}: ${reason}`,
    );
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
            await this.ctx.archive(
              this.protocol,
              this.buf.subarray(0, this.maxFrame),
              reason,
              this.remote,
              undefined,
              this.device,
            );
          return this.fail(reason);
        }
        if (res.consumed === 0) {
          if (this.buf.length > this.maxFrame)
            this.fail(`frame_too_large: over ${this.maxFrame} bytes buffered`);
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
    const dev = await this.ctx.storage.resolveDevice(imei);
    if (!dev) {
      // Over the address's unknown-IMEI allowance: closed unanswered (counted by refuse()).
      const quiet = this.ctx.unknownThrottle.blocked(this.socket.remoteAddress ?? '?');
      if (!quiet && this.protocol === 'teltonika' && !this.socket.destroyed) {
        this.socket.end(teltonikaHandshakeReply(false));
      } else this.socket.destroy();
      this.closed = true;
      await this.ctx.refuse(imei, this.protocol, this.socket.remoteAddress ?? null);
      return null;
    }
    if (!this.device) this.bind(dev);
    return dev;
  }

  private bind(dev: DeviceRef): void {
    this.device = dev;
    this.link.deviceId = dev.deviceId;
    this.ctx.registry.set(dev.deviceUuid, this);
    this.statusAt = Date.now();
    this.ctx.status.set(dev.deviceId, 'online', this.ctx.now());
    this.ctx.dispatchQueued(this);
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
      this.ctx.stats.framesRejected++;
      gatewayRefused(this.protocol, 'undecodable');
      this.ctx.log.warn(
        `gateway: ${this.protocol} ${u.imei ?? '?'} ${this.remote}: undecodable frame archived: ${u.reason}`,
      );
      await this.ctx.archive(this.protocol, u.frame, u.reason, this.remote, u.imei, this.device);
    }
    if (groups.length > 0) {
      try {
        await this.ctx.ingest(groups, false);
      } catch (err) {
        this.fail(`storage failure, nothing acknowledged: ${errText(err)}`);
        return false;
      }
      for (const g of groups) this.ctx.counters.count(g.device.deviceId, this.protocol, 'decoded');
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
        this.ctx.status.set(dev.deviceId, this.power ? 'unplugged' : 'online', this.ctx.now());
      }
      for (const a of answers) this.ctx.bg(this.ctx.commands.answer(dev.deviceId, a), 'command answer');
    }
    return true;
  }

  private onClose(): void {
    const wasClosed = this.closed;
    this.closed = true;
    this.tcp.sockets.delete(this.socket);
    this.ctx.stats.connections--;
    const ip = this.socket.remoteAddress ?? '?';
    const n = (this.tcp.perIp.get(ip) ?? 1) - 1;
    if (n <= 0) this.tcp.perIp.delete(ip);
    else this.tcp.perIp.set(ip, n);
    const dev = this.device;
    if (!dev) return;
    const held = this.decoder.flush();
    if (held.length > 0 && !wasClosed)
      this.ctx.bg(this.ctx.ingest([{ device: dev, records: held }], false), 'flush held');
    if (this.ctx.registry.get(dev.deviceUuid) === this) {
      this.ctx.registry.delete(dev.deviceUuid);
      this.ctx.status.set(dev.deviceId, 'offline', this.ctx.now());
    }
  }
}

export function listenTcp(
  ctx: GatewayContext,
  tcp: TcpState,
  protocol: StreamProtocol,
  port: number,
): Promise<number> {
  const { config, stats } = ctx;
  const server = createTcpServer((socket) => {
    const ip = socket.remoteAddress ?? '?';
    const fromIp = tcp.perIp.get(ip) ?? 0;
    if (
      ctx.closing() ||
      stats.connections >= config.GATEWAY_MAX_CONNECTIONS ||
      fromIp >= config.GATEWAY_MAX_CONNECTIONS_PER_IP
    ) {
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    tcp.perIp.set(ip, fromIp + 1);
    stats.connections++;
    tcp.sockets.add(socket);
    new DeviceConnection(ctx, tcp, socket, protocol);
  });
  tcp.servers.push(server);
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
