-- One geofence event per (vehicle, geofence, time, kind) and one Salik event per (vehicle, gate,
-- time), enforced by the database.
-- A scale-out worker that stored a batch's events and then died before its per-device state was
-- saved leaves the records to the next owner, which starts from the older state and runs them
-- through the engines again (likewise a batch whose pipeline failed half-way is gone through again
-- with the device's next one). The engines are deterministic, so the replay produces the very same
-- events; with these unique indexes the second insert is a no-op (ON CONFLICT DO NOTHING in
-- pipeline/service/sql-store.ts). Notifications of those events were already idempotent (0009).
--
-- The keys are what the engines identify an event by:
--  - geofence: the tracker emits at most one entry or exit per vehicle, fence and fix time (the
--    alert dedupe key is vehicle:fence:time too). The fence implies the company, so company_id adds
--    nothing. Column order (vehicle, fence, at, kind) also serves the visit look-ups of the sensor
--    reports, so the plain index of 0007 on (vehicle, fence, at) is dropped as redundant.
--  - Salik: a crossing's id is vehicle:gate:time (salik/detector.ts); one segment crosses a gate
--    line once, so the direction is a property of the crossing, not part of its identity (and the
--    column may be NULL, which a unique index would never match).
-- Rows without a vehicle or fence (not written by the pipeline) stay unconstrained: NULLs differ.
--
-- Writers are held off for the few statements below so no duplicate slips in between the clean-up
-- and the index (readers are not blocked). Of duplicates the oldest row (lowest id) is kept: its
-- uuid is the one the API may already have handed out.
LOCK TABLE geofence_events, salik_events IN SHARE ROW EXCLUSIVE MODE;

DELETE FROM geofence_events e USING geofence_events k
  WHERE k.vehicle_id = e.vehicle_id AND k.geofence_id = e.geofence_id AND k.at = e.at
    AND k.kind = e.kind AND k.id < e.id;
CREATE UNIQUE INDEX IF NOT EXISTS geofence_events_unique_event
  ON geofence_events (vehicle_id, geofence_id, at, kind);
DROP INDEX IF EXISTS geofence_events_visit;

DELETE FROM salik_events e USING salik_events k
  WHERE k.vehicle_id = e.vehicle_id AND k.gate = e.gate AND k.at = e.at AND k.id < e.id;
CREATE UNIQUE INDEX IF NOT EXISTS salik_events_unique_crossing
  ON salik_events (vehicle_id, gate, at);
