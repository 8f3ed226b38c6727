import type { DecodedRecord, IoValue } from '@fleet/device-protocols';
import { ignitionOf, ioElementsJson, isIdle } from '@fleet/device-protocols';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../storage/db';
import type { Bus } from '../realtime/bus';
import { applySensors, loadSensorSettings, SENSOR_SETTINGS_TTL_MS } from './sensors';

/**
 * Repair of stored data after a back-dated sensor setting (issues 19 + 13).
 *
 * A setting that applies from a time in the past changes how the records already stored in that window
 * read. The gateway resolved the sensors at ingest ({@link applySensors}: io 239 ignition, io 16
 * odometer, io 84 fuel litres, plus the `ignition` / `is_idle` columns), so recomputing trips from the
 * stored rows alone would change nothing. The repair therefore has two steps:
 *
 * 1. {@link enqueueSensorRepair}: a durable request row (sensor_repair_requests), written in the same
 *    transaction as the setting, by whichever process serves the API (also an API-only node).
 * 2. {@link SensorRepairJob} in the pipeline process (embedded mode, worker role): claims one request at a
 *    time (FOR UPDATE SKIP LOCKED + a lease: in scale-out one node takes it; a node that died mid-way
 *    leaves it to be claimed again after the lease), re-applies the device's settings to the stored
 *    rows of the window ({@link reapplySensors}, batches of {@link BATCH} rows, yielding to the event loop
 *    between batches), then asks the pipeline to recompute the window and marks the request done.
 *
 * What is and is not recoverable. The re-application runs the same {@link applySensors} over the stored
 * io_elements. The inputs a setting reads (DIN/AIN ids, an odometer or fuel IO other than 16/84) are
 * stored as the device sent them, so a setting that names such an input re-derives ignition, odometer
 * and litres exactly. Only the three target ids are overwritten at ingest: when a setting in force at
 * ingest wrote io 239 (ignition from another input), io 16 (odometer from another IO) or io 84 (litres
 * from a calibrated input), the device's own value of that id is gone. A later setting that goes back to
 * the default for it (ignition from 239 itself, no odometer/fuel mapping) cannot bring the original
 * back: those rows keep the last derived value (the job changes nothing it cannot derive). A change of
 * the calibration table, or from one input to another, is always recoverable.
 *
 * Scale-out. The node that claims a request is any pipeline node, usually not the one that owns the
 * device's partition. The owner holds the device's live folds (the open trip, today's idling and
 * rollups) in memory, built from the rows as they read before the repair; left alone it would go on
 * from them and write its stale view of the open window back over the repair. So after a repair the
 * job announces it on the bus ({@link sensorRepairSubject}, a plain fan-out subject, not a stream) and
 * every pipeline node listens ({@link SensorRepairJob} with `cluster`): a node that holds live folds of
 * the device (and did not run the repair itself) runs the pipeline repair of the window too, which
 * rebuilds those folds from the repaired rows. Repairs are idempotent, so a second run changes nothing
 * but the stale folds. The announcement is at most once (core NATS): an owner that is disconnected at
 * that moment keeps its folds until its next rebuild (a restart or a partition hand-over, both of which
 * rebuild from the stored rows); the stored trips of closed days are right in any case.
 */

/** Bus subject of a finished sensor repair of a device (fan-out to every pipeline node). */
export const sensorRepairSubject = (deviceUuid: string) => `pipeline.sensor-repaired.${deviceUuid}`;

/** What a finished repair announces. */
export interface SensorRepairAnnouncement {
  deviceUuid: string;
  from: number;
  to: number;
  /** The node that ran it (it ignores its own announcement). */
  node: string;
}

/**
 * A gateway node may apply a device's previous settings for up to {@link SENSOR_SETTINGS_TTL_MS} after a
 * change: a request is taken only once that has passed (plus a margin), and its window is extended by
 * as much, so records stored meanwhile with the old mapping are repaired too.
 */
export const SETTLE_MS = SENSOR_SETTINGS_TTL_MS + 5_000;

/** Rows re-read and written per statement. */
export const BATCH = 500;

/** Queues a repair of [from, to) for a device (call inside the transaction that stores the setting). */
export async function enqueueSensorRepair(
  db: Queryable,
  deviceId: number,
  from: Date,
  to: Date,
  requestedAt: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO sensor_repair_requests (device_id, from_time, to_time, requested_at) VALUES ($1, $2, $3, $4)`,
    [deviceId, from.toISOString(), to.toISOString(), requestedAt.toISOString()],
  );
}

interface StoredRow {
  fix_ms: number;
  speed: number | null;
  ignition: boolean | null;
  is_idle: boolean | null;
  io_elements: Record<string, { value: number | string | null }> | string | null;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Re-applies the device's sensor settings to its stored locations with fix time in [from, to), in
 * keyset-paged batches; rewrites io_elements, ignition and is_idle of the rows that change (and the
 * latest position when it lies in the window). Returns the number of rows changed.
 */
export async function reapplySensors(
  db: Queryable,
  device: { id: number; type: string },
  from: Date,
  to: Date,
): Promise<number> {
  const settings = await loadSensorSettings(db, device.id);
  let after = from.getTime() - 1;
  let first = true;
  let changed = 0;
  for (;;) {
    const rows = await db.query<StoredRow>(
      `SELECT (extract(epoch FROM fix_time) * 1000)::float8 AS fix_ms, speed, ignition, is_idle, io_elements
       FROM locations WHERE device_id = $1 AND fix_time ${first ? '>=' : '>'} $2 AND fix_time < $3
       ORDER BY fix_time LIMIT ${BATCH}`,
      [device.id, first ? from.toISOString() : new Date(after).toISOString(), to.toISOString()],
    );
    first = false;
    if (rows.length === 0) break;
    const updates: { t: string; io: string; ign: boolean; idle: boolean }[] = [];
    for (const r of rows) {
      const fixTime = Math.round(r.fix_ms);
      const stored = typeof r.io_elements === 'string' ? JSON.parse(r.io_elements) : (r.io_elements ?? {});
      const io: Record<number, IoValue> = {};
      for (const [k, v] of Object.entries(stored as Record<string, { value: number | string | null }>)) {
        if (v && v.value !== null && v.value !== undefined) io[k as unknown as number] = v.value;
      }
      const record = { fixTime, speed: r.speed ?? 0, io } as unknown as DecodedRecord;
      const out = applySensors(record, device.type, settings);
      const ign = ignitionOf(out) ?? false;
      const idle = isIdle(out) ?? false;
      const json = ioElementsJson(out.io);
      const same = out === record || json === ioElementsJson(io);
      if (same && ign === (r.ignition ?? false) && idle === (r.is_idle ?? false)) continue;
      updates.push({ t: new Date(fixTime).toISOString(), io: json, ign, idle });
    }
    if (updates.length > 0) {
      await db.query(
        `UPDATE locations l SET io_elements = v.io::json, ignition = v.ign, is_idle = v.idle
         FROM jsonb_to_recordset($2::jsonb) AS v(t timestamptz, io text, ign boolean, idle boolean)
         WHERE l.device_id = $1 AND l.fix_time = v.t`,
        [device.id, JSON.stringify(updates)],
      );
      changed += updates.length;
    }
    after = Math.round(rows[rows.length - 1]!.fix_ms);
    if (rows.length < BATCH) break;
    await yieldLoop();
  }
  if (changed > 0) {
    await db.query(
      `UPDATE latest_locations ll SET io_elements = l.io_elements, ignition = l.ignition, is_idle = l.is_idle
       FROM locations l
       WHERE ll.device_id = $1 AND l.device_id = $1 AND l.fix_time = ll.fix_time
         AND ll.fix_time >= $2 AND ll.fix_time < $3`,
      [device.id, from.toISOString(), to.toISOString()],
    );
  }
  return changed;
}

export interface SensorRepairOutcome {
  id: number;
  deviceId: number;
  rowsUpdated: number;
  error?: string;
}

/** Recomputes trips/stops/idling/rollups of a device's window (the pipeline's `repair`). */
export type PipelineRepair = (deviceUuid: string, from: number, to: number) => Promise<void>;

/** The job of the pipeline process; see the module doc. */
export class SensorRepairJob {
  constructor(
    private readonly db: Queryable,
    private readonly repair: PipelineRepair,
    private readonly opts: {
      now?: () => Date;
      leaseMs?: number;
      maxAttempts?: number;
      /** Wait after a request before it is taken, and window extension (default {@link SETTLE_MS}). */
      settleMs?: number;
      /**
       * Scale-out: the bus to announce finished repairs on and to hear other nodes' repairs from, and
       * whether this node holds live folds of a device (PipelineService.holdsDevice). See the module doc.
       */
      cluster?: { bus: Bus; holds: (deviceUuid: string) => boolean; node?: string };
    } = {},
  ) {
    const cluster = opts.cluster;
    this.node = cluster?.node ?? randomUUID();
    if (cluster) {
      this.unlisten = cluster.bus.subscribe<SensorRepairAnnouncement>(sensorRepairSubject('*'), async (m) => {
        if (m.node === this.node || !cluster.holds(m.deviceUuid)) return;
        await this.repair(m.deviceUuid, m.from, m.to);
      });
    }
  }

  private readonly node: string;
  private readonly unlisten: (() => void) | undefined;

  /** Stops listening to other nodes' repairs. */
  close(): void {
    this.unlisten?.();
  }

  /** Runs every queued request that is due (one at a time); returns the outcomes. */
  async runAll(): Promise<SensorRepairOutcome[]> {
    const out: SensorRepairOutcome[] = [];
    for (;;) {
      const one = await this.runOnce();
      if (!one) return out;
      out.push(one);
    }
  }

  /** Claims and runs one due request; undefined when none is due. */
  async runOnce(): Promise<SensorRepairOutcome | undefined> {
    const now = this.opts.now?.() ?? new Date();
    const lease = this.opts.leaseMs ?? 10 * 60_000;
    const settle = this.opts.settleMs ?? SETTLE_MS;
    const claimed = await this.db.query<{
      id: number;
      device_id: number;
      from_time: Date;
      to_time: Date;
      attempts: number;
    }>(
      `UPDATE sensor_repair_requests SET attempts = attempts + 1, next_attempt_at = $2
       WHERE id = (SELECT id FROM sensor_repair_requests
                   WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
                     AND requested_at <= $3
                   ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, device_id, from_time, to_time, attempts`,
      [
        now.toISOString(),
        new Date(now.getTime() + lease).toISOString(),
        new Date(now.getTime() - settle).toISOString(),
      ],
    );
    const req = claimed[0];
    if (!req) return undefined;
    const id = Number(req.id);
    const deviceId = Number(req.device_id);
    try {
      const [device] = await this.db.query<{ uuid: string; type: string }>(
        'SELECT uuid, type FROM devices WHERE id = $1',
        [deviceId],
      );
      if (!device) throw new Error('device deleted');
      const from = new Date(req.from_time);
      const to = new Date(new Date(req.to_time).getTime() + settle);
      const rowsUpdated = await reapplySensors(this.db, { id: deviceId, type: device.type }, from, to);
      await this.repair(device.uuid, from.getTime(), to.getTime());
      const announcement: SensorRepairAnnouncement = {
        deviceUuid: device.uuid,
        from: from.getTime(),
        to: to.getTime(),
        node: this.node,
      };
      await this.opts.cluster?.bus.publish(sensorRepairSubject(device.uuid), announcement);
      await this.db.query(
        `UPDATE sensor_repair_requests SET status = 'done', finished_at = $2, rows_updated = $3, error = NULL
         WHERE id = $1 AND attempts = $4`,
        [id, (this.opts.now?.() ?? new Date()).toISOString(), rowsUpdated, req.attempts],
      );
      return { id, deviceId, rowsUpdated };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = req.attempts >= (this.opts.maxAttempts ?? 5);
      // Retried after a back-off (the claim's lease is replaced by a shorter wait), failed after the last.
      await this.db.query(
        `UPDATE sensor_repair_requests SET status = $2, error = $3, next_attempt_at = $4,
           finished_at = CASE WHEN $2 = 'failed' THEN $4::timestamptz ELSE NULL END
         WHERE id = $1 AND attempts = $5`,
        [
          id,
          final ? 'failed' : 'queued',
          message.slice(0, 500),
          new Date(now.getTime() + 60_000 * req.attempts).toISOString(),
          req.attempts,
        ],
      );
      return { id, deviceId, rowsUpdated: 0, error: message };
    }
  }
}

let running: SensorRepairJob | undefined;

/** The job of this process (set by the pipeline plugin; undefined on an API-only node). */
export function setSensorRepairJob(job: SensorRepairJob | undefined): void {
  running = job;
}

/** Runs the queued requests now with this process's job (tests, admin tools); [] when no job runs here. */
export async function runSensorRepairs(): Promise<SensorRepairOutcome[]> {
  return running ? running.runAll() : [];
}
