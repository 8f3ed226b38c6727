-- fleet server schema v1. The same file runs on embedded PGlite and on PostgreSQL (>= 15).
-- Conventions: bigint identity `id` is internal and never leaves the server; `uuid` is the public
-- identifier. Tenant-owned rows carry company_id plus the optional scope columns sub_company_id,
-- branch_id and school_id used by the role scopes. Rarely-filtered descriptive fields live in the
-- `data` jsonb column so the contract can grow without a migration per field.

CREATE TABLE transport_companies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  name text NOT NULL,
  name_ar text,
  country_code text NOT NULL DEFAULT 'AE',
  status text NOT NULL DEFAULT 'active',
  features jsonb NOT NULL DEFAULT '{}'::jsonb,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  configurations jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sub_companies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  name_ar text,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sub_companies_company ON sub_companies (company_id);

CREATE TABLE branches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  name text NOT NULL,
  description text,
  location jsonb,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX branches_company ON branches (company_id);

CREATE TABLE schools (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  name text NOT NULL,
  name_ar text,
  code text,
  type text,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schools_company ON schools (company_id);

CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  email text,
  phone text,
  name text NOT NULL DEFAULT '',
  password_hash text,
  status text NOT NULL DEFAULT 'active',
  is_super_admin boolean NOT NULL DEFAULT false,
  locale text NOT NULL DEFAULT 'en',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL;

-- A user's place in a company: user type (role), its scope and its permissions
-- (NULL permissions = the default set of the user type).
CREATE TABLE memberships (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  user_type text NOT NULL,
  role text,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  permissions text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, company_id)
);
CREATE INDEX memberships_company ON memberships (company_id);

CREATE TABLE sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  company_id bigint REFERENCES transport_companies(id) ON DELETE SET NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);

-- One-time tokens: set-password (invitation), reset-password, verification (after verify-password).
CREATE TABLE auth_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE otp_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  channel text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX otp_codes_user ON otp_codes (user_id, purpose, created_at DESC);

CREATE TABLE login_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL,
  success boolean NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_key ON login_attempts (key, at DESC);

CREATE TABLE devices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  imei text NOT NULL UNIQUE,
  type text NOT NULL,
  make text,
  model text,
  sim text,
  status text NOT NULL DEFAULT 'active',
  connection_status text NOT NULL DEFAULT 'offline',
  last_connected_at timestamptz,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_company ON devices (company_id);

CREATE TABLE unknown_devices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  imei text NOT NULL UNIQUE,
  protocol text,
  remote_address text,
  attempts integer NOT NULL DEFAULT 1,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE drivers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  email text,
  phone text,
  license_number text,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX drivers_company ON drivers (company_id);

CREATE TABLE vehicles (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  license_plate_number text NOT NULL,
  type text NOT NULL DEFAULT 'car',
  make text,
  model text,
  status text NOT NULL DEFAULT 'active',
  device_imei text REFERENCES devices(imei) ON DELETE RESTRICT ON UPDATE CASCADE,
  gps_device_imei text REFERENCES devices(imei) ON DELETE RESTRICT ON UPDATE CASCADE,
  driver_id bigint REFERENCES drivers(id) ON DELETE RESTRICT,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vehicles_company ON vehicles (company_id, license_plate_number);
CREATE UNIQUE INDEX vehicles_device ON vehicles (device_imei) WHERE device_imei IS NOT NULL;
CREATE UNIQUE INDEX vehicles_gps_device ON vehicles (gps_device_imei) WHERE gps_device_imei IS NOT NULL;
CREATE UNIQUE INDEX vehicles_driver ON vehicles (driver_id) WHERE driver_id IS NOT NULL;

CREATE TABLE guardians (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  email text,
  phone text,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX guardians_company ON guardians (company_id);

CREATE TABLE passengers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX passengers_company ON passengers (company_id);

-- Guardians of passengers (many to many; links go with either side).
CREATE TABLE passenger_guardians (
  passenger_id bigint NOT NULL REFERENCES passengers(id) ON DELETE CASCADE,
  guardian_id bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
  PRIMARY KEY (passenger_id, guardian_id)
);
CREATE INDEX passenger_guardians_guardian ON passenger_guardians (guardian_id);

CREATE TABLE supervisors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE RESTRICT,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  email text,
  phone text,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supervisors_company ON supervisors (company_id);

-- Geometry as GeoJSON-like jsonb ({type:'polygon', coordinates:[[lat,lng]...]} or
-- {type:'circle', center:[lat,lng], radius:m}); the bbox columns give a cheap prefilter.
CREATE TABLE geofences (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  name text NOT NULL,
  type text,
  shape text NOT NULL,
  geometry jsonb NOT NULL,
  min_lat double precision NOT NULL,
  min_lng double precision NOT NULL,
  max_lat double precision NOT NULL,
  max_lng double precision NOT NULL,
  status text NOT NULL DEFAULT 'active',
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX geofences_company ON geofences (company_id);
CREATE INDEX geofences_bbox ON geofences (min_lat, max_lat, min_lng, max_lng);

-- Vehicles a geofence watches (none = all vehicles of the company).
CREATE TABLE geofence_vehicles (
  geofence_id bigint NOT NULL REFERENCES geofences(id) ON DELETE CASCADE,
  vehicle_id bigint NOT NULL REFERENCES vehicles(id) ON DELETE CASCADE,
  PRIMARY KEY (geofence_id, vehicle_id)
);

CREATE TABLE trips (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  name text NOT NULL,
  description text,
  status text NOT NULL DEFAULT 'pending',
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE RESTRICT,
  driver_id bigint REFERENCES drivers(id) ON DELETE RESTRICT,
  start_at timestamptz NOT NULL,
  end_at timestamptz,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trips_company ON trips (company_id, start_at DESC);

CREATE TABLE scheduled_trips (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  name text NOT NULL,
  type text NOT NULL DEFAULT 'one_way',
  status text NOT NULL DEFAULT 'active',
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE RESTRICT,
  driver_id bigint REFERENCES drivers(id) ON DELETE RESTRICT,
  supervisor_id bigint REFERENCES supervisors(id) ON DELETE RESTRICT,
  departure_time text NOT NULL,
  return_time text,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scheduled_trips_company ON scheduled_trips (company_id);
ALTER TABLE trips ADD COLUMN scheduled_trip_id bigint REFERENCES scheduled_trips(id) ON DELETE SET NULL;
ALTER TABLE trips ADD COLUMN supervisor_id bigint REFERENCES supervisors(id) ON DELETE RESTRICT;

CREATE TABLE scheduled_trip_stops (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  scheduled_trip_id bigint NOT NULL REFERENCES scheduled_trips(id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  address text,
  arrival_offset_minutes integer NOT NULL DEFAULT 0
);
CREATE INDEX scheduled_trip_stops_trip ON scheduled_trip_stops (scheduled_trip_id, position);

-- A passenger rides one scheduled trip (round trips cover both directions).
CREATE TABLE scheduled_trip_passengers (
  scheduled_trip_id bigint NOT NULL REFERENCES scheduled_trips(id) ON DELETE CASCADE,
  passenger_id bigint NOT NULL REFERENCES passengers(id) ON DELETE RESTRICT,
  stop_id bigint REFERENCES scheduled_trip_stops(id) ON DELETE SET NULL,
  PRIMARY KEY (scheduled_trip_id, passenger_id)
);
CREATE UNIQUE INDEX scheduled_trip_passengers_passenger ON scheduled_trip_passengers (passenger_id);

CREATE TABLE trips_app (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  sub_company_id bigint REFERENCES sub_companies(id) ON DELETE RESTRICT,
  branch_id bigint REFERENCES branches(id) ON DELETE RESTRICT,
  school_id bigint REFERENCES schools(id) ON DELETE RESTRICT,
  reference text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE RESTRICT,
  driver_id bigint REFERENCES drivers(id) ON DELETE RESTRICT,
  trip_id bigint REFERENCES trips(id) ON DELETE SET NULL,
  started_at timestamptz,
  ended_at timestamptz,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trips_app_company ON trips_app (company_id, created_at DESC);

CREATE TABLE notifications (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE SET NULL,
  type text NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  violation_value text,
  icon text,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  device_created_at timestamptz,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user ON notifications (user_id, company_id, created_at DESC);

CREATE TABLE notification_rules (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_rules_company ON notification_rules (company_id);

CREATE TABLE fcm_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id bigint REFERENCES transport_companies(id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE,
  platform text NOT NULL,
  device_id text,
  app_version text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fcm_tokens_user ON fcm_tokens (user_id) WHERE active;

CREATE TABLE device_commands (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id) ON DELETE SET NULL,
  command text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  payload text,
  status text NOT NULL DEFAULT 'queued',
  response text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  answered_at timestamptz
);
CREATE INDEX device_commands_device ON device_commands (device_id, created_at DESC);

-- Uploaded files live in the database (both drivers), so no path on disk is ever built from input.
CREATE TABLE files (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint REFERENCES transport_companies(id) ON DELETE CASCADE,
  kind text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL,
  sha256 text NOT NULL,
  content bytea NOT NULL,
  created_by bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, name)
);

CREATE TABLE activity_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint REFERENCES transport_companies(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id) ON DELETE SET NULL,
  at timestamptz NOT NULL DEFAULT now(),
  entity text NOT NULL,
  entity_uuid uuid,
  action text NOT NULL,
  before jsonb,
  after jsonb,
  ip text,
  user_agent text
);
CREATE INDEX activity_log_company ON activity_log (company_id, at DESC);

-- Device-derived records (filled by the pipeline; read by the API).
CREATE TABLE device_trips (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  distance_m double precision,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_trips_vehicle ON device_trips (vehicle_id, started_at DESC);
CREATE INDEX device_trips_company ON device_trips (company_id, started_at DESC);

CREATE TABLE geofence_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE CASCADE,
  geofence_id bigint REFERENCES geofences(id) ON DELETE CASCADE,
  kind text NOT NULL,
  at timestamptz NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX geofence_events_company ON geofence_events (company_id, at DESC);

CREATE TABLE salik_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE CASCADE,
  gate text NOT NULL,
  direction text,
  fee numeric(10, 2),
  at timestamptz NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX salik_events_company ON salik_events (company_id, at DESC);

-- Time series of positions, partitioned by month of fix_time; monthly partitions are created on
-- demand by fleet_ensure_location_partition(), anything else lands in the default partition.
CREATE TABLE locations (
  device_id bigint NOT NULL,
  vehicle_id bigint,
  company_id bigint NOT NULL,
  fix_time timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  latitude double precision,
  longitude double precision,
  altitude real,
  speed real,
  course real,
  satellites smallint,
  ignition boolean,
  is_idle boolean,
  digital_output1 smallint,
  digital_output2 smallint,
  io_elements jsonb NOT NULL DEFAULT '{}'::jsonb,
  valid boolean NOT NULL DEFAULT true,
  source text,
  PRIMARY KEY (device_id, fix_time)
) PARTITION BY RANGE (fix_time);
CREATE TABLE locations_default PARTITION OF locations DEFAULT;
CREATE INDEX locations_vehicle_time ON locations (vehicle_id, fix_time DESC);

CREATE FUNCTION fleet_ensure_location_partition(month_start date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', month_start)::date;
  part text := 'locations_' || to_char(m, 'YYYYMM');
BEGIN
  IF to_regclass(part) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF locations FOR VALUES FROM (%L) TO (%L)',
      part, m::timestamp AT TIME ZONE 'UTC', (m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  END IF;
  RETURN part;
END $$;

-- One row per device: the latest valid fix, kept hot for the live list.
CREATE TABLE latest_locations (
  device_id bigint PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
  vehicle_id bigint,
  company_id bigint NOT NULL,
  fix_time timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  latitude double precision,
  longitude double precision,
  altitude real,
  speed real,
  course real,
  satellites smallint,
  ignition boolean,
  is_idle boolean,
  digital_output1 smallint,
  digital_output2 smallint,
  io_elements jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text
);
CREATE INDEX latest_locations_vehicle ON latest_locations (vehicle_id);
