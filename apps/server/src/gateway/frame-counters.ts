import type { Queryable } from '../storage/db';

/**
 * Frame counters per device and protocol (issue 19): `decoded` (frames whose records were stored and
 * acknowledged), `refused` (frames not acknowledged: undecodable content or broken framing) and
 * `archived` (frames written to the raw-frame archive, repeats included).
 *
 * This module is the one place the counts live: the gateway calls {@link FrameCounters.count}, the
 * device page reads the table through the API, and the Prometheus endpoint can read
 * {@link frameCounterTotals} (process-wide totals per protocol and kind, including frames of no known
 * device) without touching the gateway.
 */

export type FrameCounterKind = 'decoded' | 'refused' | 'archived';

/** Totals of this process per protocol, for /metrics: `frameCounterTotals.get('gosafe')?.refused`. */
export const frameCounterTotals = new Map<string, Record<FrameCounterKind, number>>();

function bump(protocol: string, kind: FrameCounterKind, n: number): void {
  let t = frameCounterTotals.get(protocol);
  if (!t) frameCounterTotals.set(protocol, (t = { decoded: 0, refused: 0, archived: 0 }));
  t[kind] += n;
}

export class FrameCounters {
  private pending = new Map<
    string,
    { deviceId: number; protocol: string } & Record<FrameCounterKind, number>
  >();
  private timer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    flushEveryMs = 5000,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    if (flushEveryMs > 0) {
      this.timer = setInterval(() => void this.flush(), flushEveryMs);
      this.timer.unref();
    }
  }

  count(deviceId: number | null, protocol: string, kind: FrameCounterKind, n = 1): void {
    if (n <= 0) return;
    bump(protocol, kind, n);
    if (deviceId === null) return;
    const key = `${deviceId}/${protocol}`;
    let e = this.pending.get(key);
    if (!e) this.pending.set(key, (e = { deviceId, protocol, decoded: 0, refused: 0, archived: 0 }));
    e[kind] += n;
  }

  /** Adds the pending counts to device_frame_counters. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending.clear();
      try {
        await this.db.query(
          `INSERT INTO device_frame_counters (device_id, protocol, decoded, refused, archived)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
           ON CONFLICT (device_id, protocol) DO UPDATE SET
             decoded = device_frame_counters.decoded + EXCLUDED.decoded,
             refused = device_frame_counters.refused + EXCLUDED.refused,
             archived = device_frame_counters.archived + EXCLUDED.archived,
             updated_at = now()`,
          [
            batch.map((b) => b.deviceId),
            batch.map((b) => b.protocol),
            batch.map((b) => b.decoded),
            batch.map((b) => b.refused),
            batch.map((b) => b.archived),
          ],
        );
      } catch (err) {
        this.onError(err);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

export interface DeviceFrameCounts {
  protocol: string;
  decoded: number;
  refused: number;
  archived: number;
  updatedAt: Date;
}

export async function deviceFrameCounts(db: Queryable, deviceId: number): Promise<DeviceFrameCounts[]> {
  const rows = await db.query<{
    protocol: string;
    decoded: number;
    refused: number;
    archived: number;
    updated_at: Date;
  }>(
    `SELECT protocol, decoded, refused, archived, updated_at FROM device_frame_counters
     WHERE device_id = $1 ORDER BY protocol`,
    [deviceId],
  );
  return rows.map((r) => ({
    protocol: r.protocol,
    decoded: Number(r.decoded),
    refused: Number(r.refused),
    archived: Number(r.archived),
    updatedAt: r.updated_at,
  }));
}
