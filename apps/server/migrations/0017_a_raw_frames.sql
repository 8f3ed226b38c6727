-- Issue 19: nothing a device sends is lost silently.
--
-- raw_frames: frames the gateway could not decode (unknown layout, bad field, bad checksum or framing).
-- They were never acknowledged; the bytes are kept so a later decoder can replay them. A device that
-- resends the same unacknowledged frame does not grow the table: (protocol, device, sha256) is unique
-- and a repeat counts in seen_count / last_seen_at.
CREATE TABLE raw_frames (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint REFERENCES devices(id) ON DELETE CASCADE,
  imei text,
  protocol text NOT NULL,
  remote_address text,
  bytes bytea NOT NULL,
  sha256 text NOT NULL,
  reason text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  seen_count integer NOT NULL DEFAULT 1,
  replayed_at timestamptz,
  replay_result text,
  stored_records integer NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX raw_frames_once ON raw_frames (protocol, (COALESCE(device_id, 0)), sha256);
CREATE INDEX raw_frames_device ON raw_frames (device_id, received_at DESC);

-- Per device and protocol: frames decoded (stored and acknowledged), refused (not acknowledged) and
-- archived. The gateway adds its in-memory counts every few seconds (see gateway/frame-counters.ts).
CREATE TABLE device_frame_counters (
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  protocol text NOT NULL,
  decoded bigint NOT NULL DEFAULT 0,
  refused bigint NOT NULL DEFAULT 0,
  archived bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, protocol)
);
