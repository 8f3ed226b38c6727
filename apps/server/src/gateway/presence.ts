import type { DeviceRef } from '../storage/storage';
import type { CommandService } from '../commands/service';
import { STATUS_REFRESH_MS, type GatewayContext, type RegisteredConnection } from './context';

/**
 * Presence: whether a device is shown online, and sending a device its queued commands when it connects.
 * TCP connections mark their own device online and offline (tcp.ts); this part keeps the rest:
 *
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
export class Presence {
  /** Connectionless devices (UDP, OsmAnd, MQTT): when each last reported, and when marked online. */
  private readonly udpSeen = new Map<number, { seen: number; marked: number }>();
  /** Devices that connected in the last moment: one query finds which of them have queued commands. */
  private readonly connectedSoon = new Set<RegisteredConnection>();
  private dispatchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly silenceTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly ctx: Pick<
      GatewayContext,
      'config' | 'storage' | 'log' | 'now' | 'status' | 'registry' | 'bg'
    >,
    private readonly commands: CommandService,
    /** Also run on the silence timer (the unknown-device throttle's drain). */
    onTick: () => void,
  ) {
    const { config } = ctx;
    const offlineMs = config.GATEWAY_CONNECTIONLESS_OFFLINE_S * 1000;
    const idleMs = config.GATEWAY_IDLE_TIMEOUT_S * 1000;
    const staleMs = Math.max(idleMs, offlineMs) + 2 * STATUS_REFRESH_MS;
    const sweepStale = () =>
      ctx.bg(
        ctx.status.sweep(new Date(ctx.now().getTime() - staleMs)).then((n) => {
          if (n > 0)
            ctx.log.info(`gateway: ${n} device(s) left shown online by a stopped process marked offline`);
        }),
        'stale status sweep',
      );
    sweepStale();
    this.silenceTimer = setInterval(
      () => {
        const cutoff = Date.now() - offlineMs;
        const connected = new Set<number>();
        for (const c of ctx.registry.values()) connected.add(c.link.deviceId);
        for (const [id, e] of this.udpSeen) {
          if (e.seen > cutoff) continue;
          this.udpSeen.delete(id);
          if (!connected.has(id)) ctx.status.set(id, 'offline', ctx.now());
        }
        sweepStale();
        onTick();
      },
      Math.max(250, Math.min(30_000, offlineMs / 4)),
    );
    this.silenceTimer.unref();
  }

  /** A connectionless device reported: online (the status row refreshed at most every minute). */
  heard(dev: DeviceRef): void {
    const t = Date.now();
    const e = this.udpSeen.get(dev.deviceId);
    if (e) {
      e.seen = t;
      if (t - e.marked < STATUS_REFRESH_MS) return;
      e.marked = t;
    } else this.udpSeen.set(dev.deviceId, { seen: t, marked: t });
    this.ctx.status.set(dev.deviceId, 'online', this.ctx.now());
  }

  /** A device connected over TCP: its queued commands go out (devices of 100 ms share one query). */
  dispatchQueued(conn: RegisteredConnection): void {
    this.connectedSoon.add(conn);
    this.dispatchTimer ??= setTimeout(() => {
      this.dispatchTimer = undefined;
      const conns = [...this.connectedSoon];
      this.connectedSoon.clear();
      const byId = new Map(conns.map((c) => [c.link.deviceId, c]));
      this.ctx.bg(
        (async () => {
          const rows = await this.ctx.storage.db.query<{ device_id: number }>(
            `SELECT DISTINCT device_id FROM device_commands WHERE status = 'queued' AND device_id = ANY($1::bigint[])`,
            [[...byId.keys()]],
          );
          for (const r of rows) {
            const c = byId.get(Number(r.device_id));
            if (c) await this.commands.dispatch(c.link);
          }
        })(),
        'command dispatch',
      );
    }, 100);
  }

  /** Stops the silence timer (first thing on close, and on a failed start). */
  stopSilence(): void {
    clearInterval(this.silenceTimer);
  }

  /** Drops a pending dispatch (on close, once the connections are gone). */
  stopDispatch(): void {
    if (this.dispatchTimer) clearTimeout(this.dispatchTimer);
  }
}
