-- Issue 19: sensors per device. Each row is one setting that applies from effective_from on (history is
-- kept: the row in force for a record is the newest with effective_from <= the record's fix time).
-- ignition_io / odometer_io / fuel_io name an io_elements id (Teltonika numbering, see
-- @fleet/core io-elements); null = the device type's default. fuel_calibration is an ascending table
-- [[raw, litres], ...] for the fuel input.
CREATE TABLE device_sensor_settings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  effective_from timestamptz NOT NULL,
  ignition_io integer,
  odometer_io integer,
  fuel_io integer,
  fuel_calibration jsonb,
  created_by bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_sensor_settings_device ON device_sensor_settings (device_id, effective_from DESC);
