-- Stops and idling periods out of device_trips' JSON into device_stops (0030_a_device_stops.sql says why).
-- What the JSON arrays held moves here (and out of the trip rows, where the trips API showed it).
INSERT INTO device_stops (company_id, vehicle_id, device_id, kind, day, started_at, ended_at, minutes, latitude, longitude)
SELECT t.company_id, t.vehicle_id, t.device_id, k.kind, (t.data->>'day')::date,
       to_timestamp((s->>'startTime')::float8 / 1000), to_timestamp((s->>'endTime')::float8 / 1000),
       coalesce((s->>'minutes')::float8, round(((s->>'endTime')::float8 - (s->>'startTime')::float8) / 6000) / 10),
       (s->'place'->>'lat')::float8, (s->'place'->>'lon')::float8
FROM device_trips t
CROSS JOIN (VALUES ('stop', 'stops'), ('idle', 'idles')) AS k(kind, field)
CROSS JOIN LATERAL jsonb_array_elements(
  CASE WHEN jsonb_typeof(t.data->k.field) = 'array' THEN t.data->k.field ELSE '[]'::jsonb END) AS s
WHERE t.data->>'day' ~ '^\d{4}-\d{2}-\d{2}$' AND s ? 'startTime' AND s ? 'endTime'
  AND s->'place' ? 'lat' AND s->'place' ? 'lon'
ON CONFLICT (device_id, day, kind, started_at) DO NOTHING;
UPDATE device_trips SET data = data - 'stops' - 'idles' WHERE data ? 'stops' OR data ? 'idles';
