-- Stops and idling periods, one row each (issue 13, session 13).
--
-- They were kept as two JSON arrays (`stops`, `idles`) in the `data` of each device-day's first
-- device_trips row. A vehicle idling has an idle period whose end moves with every record, so that row
-- was rewritten on every pipeline flush carrying the whole day's stops and idles: in bench:soak's day
-- (1,000 devices, PGlite) the time of the trip INSERT grew 7x from morning to evening, the rows were
-- compressed and detoasted for the expression index on every write, and device_trips held 184 MB for
-- 9,211 live rows. Here an open idle period is one short row updated in place (no indexed column
-- changes, so PostgreSQL can keep the update on its page), and a closed one is written once.
--
-- `day` is the device-day (company zone) whose detection holds the period, as device_trips' data.day:
-- a period belongs to the day it starts on, and the pipeline replaces a day's periods as a whole.
-- Unlike the JSON arrays, a day with idling but no trip keeps its idle periods.
CREATE TABLE device_stops (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  vehicle_id bigint REFERENCES vehicles(id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('stop', 'idle')),
  day date NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  minutes double precision NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  UNIQUE (device_id, day, kind, started_at)
);
-- The stops and idling reports (and their exports): a company's periods of one kind in start order.
CREATE INDEX device_stops_company_kind_start ON device_stops (company_id, kind, started_at, id);
