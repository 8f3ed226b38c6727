-- Scheduled-trip instances as the one shared state of every node (issue 9, scale-out): the clock-work
-- leader moves them on time (delayed, missed, completed) and the worker owning the vehicle's
-- partition moves them on positions (started, stops reached, nearing), so neither may keep them in
-- memory only. Each instance is one row of `trips` (data.instance_id, the full instance in
-- data.instance, a revision in data.rev written compare-and-set), created once by whichever node
-- generates it first: a second insert of the same instance (two nodes, or a node that took the
-- clock lease over) is a no-op against this unique index.
DELETE FROM trips t USING trips d
  WHERE t.data ? 'instance_id' AND d.data->>'instance_id' = t.data->>'instance_id' AND d.id < t.id;
CREATE UNIQUE INDEX IF NOT EXISTS trips_instance_id ON trips ((data->>'instance_id')) WHERE data ? 'instance_id';
-- Open instances of a vehicle, read for each batch of positions of a vehicle that has one.
CREATE INDEX IF NOT EXISTS trips_open_instances ON trips (vehicle_id)
  WHERE status IN ('pending', 'delayed', 'started') AND data ? 'instance_id';
