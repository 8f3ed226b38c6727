import { createHash } from 'node:crypto';
import type { Queryable } from '../storage/db';

/**
 * The raw-frame archive (issue 19): every frame the gateway could not decode is kept with its device
 * (when known), time, remote address, bytes and the reason, and is never acknowledged. A device resends
 * an unacknowledged frame, so a frame is stored once per (protocol, device, content): a repeat bumps
 * `seen_count` and `last_seen_at`. Super admins list a device's frames and replay them through the
 * current decoder (./replay.ts) after an update.
 */

/** Largest frame kept (bigger inputs are cut: the reason says so). */
export const RAW_FRAME_MAX_BYTES = 64 * 1024;

export interface RawFrameInput {
  deviceId: number | null;
  imei: string | null;
  protocol: string;
  remoteAddress: string | null;
  bytes: Uint8Array;
  reason: string;
}

export interface RawFrameRow {
  id: number;
  deviceId: number | null;
  imei: string | null;
  protocol: string;
  remoteAddress: string | null;
  bytesHex: string;
  size: number;
  reason: string;
  receivedAt: Date;
  lastSeenAt: Date;
  seenCount: number;
  replayedAt: Date | null;
  replayResult: string | null;
  storedRecords: number;
}

/** Stores one undecodable frame (or counts a repeat). Resolves true when it is new. */
export async function archiveRawFrame(db: Queryable, frame: RawFrameInput): Promise<boolean> {
  const cut = frame.bytes.length > RAW_FRAME_MAX_BYTES;
  const bytes = cut ? frame.bytes.subarray(0, RAW_FRAME_MAX_BYTES) : frame.bytes;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sha = createHash('sha256').update(buf).digest('hex');
  const reason = (cut ? `${frame.reason} (first ${RAW_FRAME_MAX_BYTES} bytes kept)` : frame.reason).slice(
    0,
    500,
  );
  const rows = await db.query<{ inserted: boolean }>(
    `INSERT INTO raw_frames (device_id, imei, protocol, remote_address, bytes, sha256, reason)
     VALUES ($1, $2, $3, $4, decode($5, 'hex'), $6, $7)
     ON CONFLICT (protocol, (COALESCE(device_id, 0)), sha256) DO UPDATE
       SET seen_count = raw_frames.seen_count + 1, last_seen_at = now(),
           remote_address = EXCLUDED.remote_address
     RETURNING (xmax = 0) AS inserted`,
    [
      frame.deviceId,
      frame.imei?.slice(0, 64) ?? null,
      frame.protocol,
      frame.remoteAddress?.slice(0, 128) ?? null,
      buf.toString('hex'),
      sha,
      reason,
    ],
  );
  return rows[0]?.inserted === true;
}

const COLUMNS = `id, device_id, imei, protocol, remote_address, encode(bytes, 'hex') AS bytes_hex,
  length(bytes) AS size, reason, received_at, last_seen_at, seen_count, replayed_at, replay_result,
  stored_records`;

interface Raw {
  id: number;
  device_id: number | null;
  imei: string | null;
  protocol: string;
  remote_address: string | null;
  bytes_hex: string;
  size: number;
  reason: string;
  received_at: Date;
  last_seen_at: Date;
  seen_count: number;
  replayed_at: Date | null;
  replay_result: string | null;
  stored_records: number;
}

function toRow(r: Raw): RawFrameRow {
  return {
    id: Number(r.id),
    deviceId: r.device_id === null ? null : Number(r.device_id),
    imei: r.imei,
    protocol: r.protocol,
    remoteAddress: r.remote_address,
    bytesHex: r.bytes_hex,
    size: Number(r.size),
    reason: r.reason,
    receivedAt: r.received_at,
    lastSeenAt: r.last_seen_at,
    seenCount: Number(r.seen_count),
    replayedAt: r.replayed_at,
    replayResult: r.replay_result,
    storedRecords: Number(r.stored_records),
  };
}

/** A device's archived frames, newest first. */
export async function listRawFrames(
  db: Queryable,
  deviceId: number,
  opts: { limit?: number; ids?: readonly number[] } = {},
): Promise<RawFrameRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
  const rows = opts.ids
    ? await db.query<Raw>(
        `SELECT ${COLUMNS} FROM raw_frames WHERE device_id = $1 AND id = ANY($2::bigint[]) ORDER BY id`,
        [deviceId, [...opts.ids]],
      )
    : await db.query<Raw>(
        `SELECT ${COLUMNS} FROM raw_frames WHERE device_id = $1 ORDER BY received_at DESC, id DESC LIMIT $2`,
        [deviceId, limit],
      );
  return rows.map(toRow);
}

export async function markReplayed(
  db: Queryable,
  id: number,
  result: string,
  storedRecords: number,
): Promise<void> {
  await db.query(
    `UPDATE raw_frames SET replayed_at = now(), replay_result = $2, stored_records = stored_records + $3
     WHERE id = $1`,
    [id, result.slice(0, 500), storedRecords],
  );
}
