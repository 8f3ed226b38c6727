import type { Queryable } from '../storage/db';
import type { DeviceConnectionStatus } from '../storage/storage';

/**
 * Coalesces device status changes (online / offline / unplugged, last connected at) into one UPDATE
 * per status every `intervalMs`, instead of one statement per connect, disconnect or power change: a
 * gateway that restarts under 10,000 devices would otherwise queue 10,000 updates in front of the
 * location inserts. The last change of a device within a window wins. Same semantics as
 * Storage.setDeviceConnection: `offline` keeps last_connected_at, the others set it.
 */
export class StatusWriter {
  private pending = new Map<number, { status: DeviceConnectionStatus; at: Date }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly intervalMs = 250,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  set(deviceId: number, status: DeviceConnectionStatus, at: Date): void {
    this.pending.set(deviceId, { status, at });
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /**
   * Marks offline every device still shown connected (online or unplugged) whose last sign of life is
   * older than `cutoff`: what a gateway that stopped without closing its connections (a crash, a kill)
   * left behind, and connectionless devices heard by a process that is gone. Runs after the pending
   * changes, so a device that just connected is never swept. Resolves with the number of devices.
   */
  sweep(cutoff: Date): Promise<number> {
    const done = this.flush().then(async () => {
      const rows = await this.db.query<{ id: number }>(
        `UPDATE devices SET connection_status = 'offline'
         WHERE connection_status <> 'offline' AND (last_connected_at IS NULL OR last_connected_at < $1)
         RETURNING id`,
        [cutoff.toISOString()],
      );
      return rows.length;
    });
    this.running = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    if (batch.size === 0) return this.running;
    this.pending = new Map();
    this.running = this.running.then(async () => {
      const groups = new Map<DeviceConnectionStatus, { ids: number[]; at: Date }>();
      for (const [id, { status, at }] of batch) {
        const g = groups.get(status);
        if (g) {
          g.ids.push(id);
          if (at > g.at) g.at = at;
        } else groups.set(status, { ids: [id], at });
      }
      for (const [status, g] of groups) {
        try {
          await this.db.query(
            `UPDATE devices SET connection_status = $2,
               last_connected_at = CASE WHEN $2 = 'offline' THEN last_connected_at ELSE $3::timestamptz END
             WHERE id = ANY($1::bigint[])`,
            [g.ids, status, g.at.toISOString()],
          );
        } catch (err) {
          this.onError(err);
        }
      }
    });
    return this.running;
  }
}
