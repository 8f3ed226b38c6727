-- Incremental pipeline (issue 13): every flush replaces the trips of the device-days that moved
-- (`DELETE ... WHERE device_id = ? AND data->>'day' = ?`, many device-days in one statement). Without
-- this index each such delete scanned every stored trip.
CREATE INDEX IF NOT EXISTS device_trips_device_day ON device_trips (device_id, (data->>'day'));
