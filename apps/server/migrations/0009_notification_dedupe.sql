-- One notification per user and alert episode, enforced by the database.
-- The pipeline already skips a dedupe key it finds, but two nodes (a clock-work leader that just
-- failed over, or two workers) inserting the same episode at the same moment could both pass that
-- check. The unique index makes the second insert a no-op (ON CONFLICT DO NOTHING) and serves the
-- existence check. Notifications without a dedupe key (manual, tests) are not constrained.
CREATE UNIQUE INDEX IF NOT EXISTS notifications_user_dedupe
  ON notifications (user_id, (data->>'dedupe_key'))
  WHERE data->>'dedupe_key' IS NOT NULL;
