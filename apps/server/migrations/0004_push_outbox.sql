-- Mobile push outbox (issue 6): one row per (notification, FCM token). Rows are written in the same
-- statement that stores the notification, so a push is never lost when FCM (or this process) is down;
-- the push worker claims due rows, sends them and records the outcome.
--   pending: not tried yet; failed: tried, retry scheduled at next_attempt_at;
--   sent: FCM accepted it; dead: gave up (max attempts, token unregistered, or rejected).
CREATE TABLE IF NOT EXISTS push_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notification_id bigint NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  fcm_token_id bigint NOT NULL REFERENCES fcm_tokens(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed', 'sent', 'dead')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (notification_id, fcm_token_id)
);
CREATE INDEX IF NOT EXISTS push_outbox_due ON push_outbox (next_attempt_at) WHERE status IN ('pending', 'failed');
CREATE INDEX IF NOT EXISTS push_outbox_token ON push_outbox (fcm_token_id);

-- Every stored notification queues its pushes in the same transaction, whichever code path stores it
-- (the API's createNotifications or the pipeline's alert store): one row per active token of the
-- recipient.
CREATE OR REPLACE FUNCTION push_outbox_enqueue() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO push_outbox (notification_id, fcm_token_id)
  SELECT NEW.id, t.id FROM fcm_tokens t WHERE t.user_id = NEW.user_id AND t.active
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
DROP TRIGGER IF EXISTS notifications_push_enqueue ON notifications;
CREATE TRIGGER notifications_push_enqueue AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION push_outbox_enqueue();
