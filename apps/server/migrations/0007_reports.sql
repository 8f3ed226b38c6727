-- Reports: the rollup table the pipeline writes (until now created by SqlPipelineStore.prepare()), the
-- columns the fuel, engine and wheel reports read, fuel events, and report export jobs.

CREATE TABLE IF NOT EXISTS vehicle_rollups (
  company_id     bigint   NOT NULL,
  vehicle_id     bigint   NOT NULL,
  day            date     NOT NULL,
  hour           smallint NOT NULL DEFAULT -1, -- -1 = the daily row, 0..23 = local hour
  distance_m     double precision NOT NULL DEFAULT 0,
  driving_s      double precision NOT NULL DEFAULT 0,
  idle_s         double precision NOT NULL DEFAULT 0,
  engine_s       double precision NOT NULL DEFAULT 0,
  records        integer  NOT NULL DEFAULT 0,
  max_speed_kmh  real     NOT NULL DEFAULT 0,
  trips          integer  NOT NULL DEFAULT 0,
  violations     integer  NOT NULL DEFAULT 0,
  fuel_used_l    double precision NOT NULL DEFAULT 0,
  refuels        integer  NOT NULL DEFAULT 0,
  refuel_l       double precision NOT NULL DEFAULT 0,
  drops          integer  NOT NULL DEFAULT 0,
  drop_l         double precision NOT NULL DEFAULT 0,
  rpm_max        real     NOT NULL DEFAULT 0,
  rpm_seconds_sum double precision NOT NULL DEFAULT 0,
  rpm_seconds    double precision NOT NULL DEFAULT 0,
  over_rev_s     double precision NOT NULL DEFAULT 0,
  temp_min       real,
  temp_max       real,
  temp_sum       double precision NOT NULL DEFAULT 0,
  temp_count     integer  NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, day, vehicle_id, hour)
);

-- Start of the bucket (local day or hour start as an instant): lets a report cut a range that does not
-- fall on the company's day boundaries (another time zone) exactly to the hour.
ALTER TABLE vehicle_rollups ADD COLUMN IF NOT EXISTS starts_at timestamptz;
ALTER TABLE vehicle_rollups ADD COLUMN IF NOT EXISTS over_revs integer NOT NULL DEFAULT 0;
ALTER TABLE vehicle_rollups ADD COLUMN IF NOT EXISTS fuel_level_pct real;
ALTER TABLE vehicle_rollups ADD COLUMN IF NOT EXISTS fuel_level_l real;
ALTER TABLE vehicle_rollups ADD COLUMN IF NOT EXISTS tyres jsonb;
CREATE INDEX IF NOT EXISTS vehicle_rollups_vehicle ON vehicle_rollups (vehicle_id, day);

-- Refuels and drops found by the fuel level analysis, replaced with the vehicle-day's rollups.
CREATE TABLE IF NOT EXISTS fuel_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  vehicle_id bigint NOT NULL REFERENCES vehicles(id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('refuel', 'drop')),
  litres double precision NOT NULL,
  at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  latitude double precision,
  longitude double precision,
  level_before_l double precision,
  level_after_l double precision
);
CREATE INDEX IF NOT EXISTS fuel_events_vehicle ON fuel_events (vehicle_id, at);
CREATE INDEX IF NOT EXISTS fuel_events_company ON fuel_events (company_id, at);

-- Geofence visits pair an entry with the next exit of the same vehicle and geofence.
CREATE INDEX IF NOT EXISTS geofence_events_visit ON geofence_events (vehicle_id, geofence_id, at);

-- Report exports run off the request path; the finished file is a `files` row of kind 'exports'.
CREATE TABLE IF NOT EXISTS report_exports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id) ON DELETE CASCADE,
  report text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'xlsx', 'pdf')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  progress smallint NOT NULL DEFAULT 0,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  file_name text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX IF NOT EXISTS report_exports_user ON report_exports (company_id, user_id, created_at DESC);
