-- Outbound messages (issue 14): e-mail and SMS. One row per message, written in the same transaction as
-- what caused it (a user created, a reset asked for, an alert stored), so nothing is lost when the SMTP
-- server or the SMS provider (or this process) is down. Every worker process runs the sender: due rows
-- are claimed FOR UPDATE SKIP LOCKED with a lease (attempts + 1, next_attempt_at pushed forward), so a
-- row is sent by one process at a time, and the outcome is written only by the claim that sent it.
--   queued: waiting for its first try or for a retry at next_attempt_at;
--   sent:   accepted by the SMTP server / SMS provider, or delivered to the local mailbox (transport);
--   failed: given up (permanent refusal, max attempts, rate limit, bad address), reason in last_error.
-- The bodies carry one-time secrets (set-password links, codes): they are kept for the local mailbox
-- (transport 'mailbox', the demo without SMTP) and cleared once a message left through SMTP or SMS.
CREATE TABLE IF NOT EXISTS message_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint REFERENCES transport_companies(id) ON DELETE SET NULL,
  user_id bigint REFERENCES users(id) ON DELETE SET NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  kind text NOT NULL,
  recipient text NOT NULL,
  locale text NOT NULL DEFAULT 'en',
  subject text NOT NULL,
  body_text text,
  body_html text,
  -- [{filename, contentType, contentBase64}] (report mails)
  attachments jsonb,
  -- Template values of a message queued by the database itself (alert mails, below): the sender renders
  -- it (HTML, link, language) when body_html is still NULL.
  params jsonb,
  -- Callers that may repeat themselves (an alert seen twice) name the message; a repeat is not queued.
  idempotency_key text UNIQUE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  transport text,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
-- The queued rows are few (sent and failed ones leave this index); the sender reads them in id order.
CREATE INDEX IF NOT EXISTS message_outbox_due ON message_outbox (id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS message_outbox_recipient ON message_outbox (lower(recipient), created_at);
CREATE INDEX IF NOT EXISTS message_outbox_created ON message_outbox (created_at DESC, id DESC);

-- Alert notifications by e-mail / SMS: a notification rule names its channels (in_app, push, email,
-- sms). Whichever code path stores a notification (the pipeline's alert store, the API), the messages
-- of its recipient are queued in the same statement, like its pushes (0004): one e-mail and/or one SMS
-- when an active rule of that type (for that vehicle, and naming that recipient when it names any)
-- has the channel. The recipient's saved language picks the template; the notification's title and
-- message are already written in it.
CREATE OR REPLACE FUNCTION message_outbox_alert_enqueue() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rcpt record;
  vehicle_uuid text;
  ch text;
BEGIN
  SELECT id, uuid::text AS uuid, email, phone, status,
         CASE WHEN locale ILIKE 'ar%' THEN 'ar' ELSE 'en' END AS lang
    INTO rcpt FROM users WHERE id = NEW.user_id;
  IF rcpt.id IS NULL OR rcpt.status <> 'active' THEN
    RETURN NULL;
  END IF;
  SELECT uuid::text INTO vehicle_uuid FROM vehicles WHERE id = NEW.vehicle_id;
  FOR ch IN
    SELECT DISTINCT c.value
    FROM notification_rules r
    CROSS JOIN LATERAL jsonb_array_elements_text(
      CASE WHEN jsonb_typeof(r.params->'channels') = 'array' THEN r.params->'channels' ELSE '[]'::jsonb END) AS c(value)
    WHERE r.company_id = NEW.company_id AND r.type = NEW.type AND r.status = 'active'
      AND c.value IN ('email', 'sms')
      AND (coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(r.params->'vehicle_uuids') = 'array' THEN r.params->'vehicle_uuids' END), 0) = 0
           OR (vehicle_uuid IS NOT NULL AND r.params->'vehicle_uuids' ? vehicle_uuid))
      AND (coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(r.params->'recipient_user_uuids') = 'array' THEN r.params->'recipient_user_uuids' END), 0) = 0
           OR r.params->'recipient_user_uuids' ? rcpt.uuid)
  LOOP
    IF (ch = 'email' AND rcpt.email IS NOT NULL) OR (ch = 'sms' AND rcpt.phone IS NOT NULL) THEN
      INSERT INTO message_outbox (company_id, user_id, channel, kind, recipient, locale, subject, body_text, params,
                                  idempotency_key)
      VALUES (NEW.company_id, rcpt.id, ch, 'alert', CASE WHEN ch = 'email' THEN rcpt.email ELSE rcpt.phone END,
              rcpt.lang, left(NEW.title, 250), NEW.message,
              jsonb_build_object('notification_uuid', NEW.uuid, 'title', NEW.title, 'detail', NEW.message),
              'alert:' || NEW.uuid::text || ':' || ch)
      ON CONFLICT (idempotency_key) DO NOTHING;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
DROP TRIGGER IF EXISTS notifications_message_enqueue ON notifications;
CREATE TRIGGER notifications_message_enqueue AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION message_outbox_alert_enqueue();
