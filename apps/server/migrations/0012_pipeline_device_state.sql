-- Scale-out mode (issue 9): the pipeline's per-device engine state (sanity reference, last processed
-- fix, alert episodes and cool-downs, geofence visits, Salik anchors), written by the worker that
-- owns the device's partition before it acks a batch. A worker taking the partition over (the
-- previous owner died or the partitions were rebalanced) starts from it instead of from nothing, so
-- an overspeed episode in progress does not fire again and an ignition change or geofence exit at the
-- hand-over is not missed. `last_time` is the last processed fix (epoch ms).
CREATE TABLE IF NOT EXISTS pipeline_device_state (
  device_uuid uuid PRIMARY KEY,
  last_time double precision,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
