-- Incremental pipeline (issue 13, session 10): a flush deletes the trips that changed by their key
-- (`device_id`, `data->>'day'`, `started_at`: the open trip of every device that moved, and the day's
-- first trip when its stops changed). Found through the (device_id, data->>'day') index, each key
-- visited every trip of its device-day, so the statement's cost grew with the hour of the day: 71 ms
-- per 30 s of a 1,000-device bench:soak day in the night, 2.5 s in the evening, the same number of
-- calls. A trip's start identifies it within its device, so this index finds the one row.
CREATE INDEX IF NOT EXISTS device_trips_device_start ON device_trips (device_id, started_at);
