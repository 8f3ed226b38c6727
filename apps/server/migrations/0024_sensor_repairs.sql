-- Sensor repair requests (issues 19 + 13): a back-dated sensor setting of a device asks for its stored
-- locations in [from_time, to_time) to be re-read with the settings now in force and the pipeline's
-- trips/stops/idling/rollups of that window to be recomputed. Inserted in the same transaction as the
-- setting (so an API node without the pipeline can ask); taken by the pipeline process
-- (gateway/sensor-repair.ts) with FOR UPDATE SKIP LOCKED and a lease, so one node runs each request.
CREATE TABLE sensor_repair_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  from_time timestamptz NOT NULL,
  to_time timestamptz NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'failed')),
  attempts smallint NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  finished_at timestamptz,
  rows_updated integer,
  error text
);
CREATE INDEX sensor_repair_requests_queued ON sensor_repair_requests (id) WHERE status = 'queued';
