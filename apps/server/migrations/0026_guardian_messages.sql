-- Messages to guardians (issue 14). Guardians are managed records, not users: they have no account,
-- only an e-mail and/or a phone, a channel preference (data.message_channel: email, sms, both, none;
-- missing = email when they have an address, else sms) and a language (data.language: en, ar).
--
-- 1. Public tracking links: scoped to one guardian, one passenger and one scheduled-trip instance (a
--    `trips` row). Only the token's SHA-256 is stored (like share_links, 0002). A link works while it
--    is not revoked, not expired and its trip is still open (pending, delayed, started): it stops
--    working when the trip ends, whatever its expiry.
CREATE TABLE IF NOT EXISTS guardian_tracking_links (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  guardian_id bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
  passenger_id bigint NOT NULL REFERENCES passengers(id) ON DELETE CASCADE,
  trip_id bigint NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
  -- The guardian's stop (scheduled_trip_stops.uuid, as the trip instance names it).
  stop_uuid text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS guardian_tracking_links_guardian ON guardian_tracking_links (guardian_id)
  WHERE revoked_at IS NULL;
CREATE INDEX IF NOT EXISTS guardian_tracking_links_trip ON guardian_tracking_links (trip_id);

-- 2. Keys for signed links (the unsubscribe link of every guardian message): made once, here, from the
--    database's random source, and shared by every process of a scale-out deployment. A key is never
--    sent anywhere; rotating it (UPDATE) makes every earlier unsubscribe link invalid.
CREATE TABLE IF NOT EXISTS signing_keys (
  name text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO signing_keys (name, secret)
VALUES ('guardian_unsubscribe',
        encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text
                                 || clock_timestamp()::text, 'UTF8')), 'hex'))
ON CONFLICT (name) DO NOTHING;

-- 3. The messages. Scheduled-trip instances live in `trips` (data.instance, migration 0011), written by
--    whichever node moves them (the pipeline on positions, the clock on time, the API on cancel). So the
--    messages are queued by a trigger on those rows, in the same statement as the change that causes
--    them, whichever code path made it (like the alert mails of 0018):
--      - a stop newly in data.instance.nearingSent: guardian_approaching, for the guardians of that
--        stop's passengers who want approach messages (notify_on_approach, default true);
--      - status becomes delayed / cancelled / missed: guardian_delayed / _cancelled / _missed, for the
--        guardians of every passenger of the instance (not 'missed' for an instance made after its end).
--    One row per guardian, passenger, channel and event (idempotency_key): a repeat of the same change
--    queues nothing. The row holds template values only (params); the sender renders it in the
--    guardian's language with its tracking and unsubscribe links (apps/server/src/guardians/render.ts).
CREATE OR REPLACE FUNCTION guardian_trip_enqueue(trip trips, msg_kind text, only_stop text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_outbox (company_id, channel, kind, recipient, locale, subject, params, idempotency_key)
  SELECT trip.company_id, ch.channel, msg_kind,
         CASE WHEN ch.channel = 'email' THEN g.email ELSE g.phone END,
         CASE WHEN g.data->>'language' = 'ar' THEN 'ar' ELSE 'en' END,
         msg_kind,
         jsonb_build_object('trip_uuid', trip.uuid, 'instance_id', trip.data->>'instance_id',
                            'stop_uuid', st.value->>'id', 'stop_name', st.value->>'name',
                            'guardian_uuid', g.uuid, 'passenger_uuid', p.uuid),
         'guardian:' || msg_kind || ':' || (trip.data->>'instance_id') || ':' || coalesce(only_stop, '-') || ':'
           || g.uuid::text || ':' || p.uuid::text || ':' || ch.channel
  FROM jsonb_array_elements(coalesce(trip.data->'instance'->'stops', '[]'::jsonb)) AS st(value)
  CROSS JOIN LATERAL jsonb_array_elements_text(
    CASE WHEN jsonb_typeof(st.value->'passengerIds') = 'array' THEN st.value->'passengerIds' ELSE '[]'::jsonb END
  ) AS pid(value)
  JOIN passengers p ON p.uuid = (CASE WHEN pid.value ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                                      THEN pid.value::uuid END)
                   AND p.company_id = trip.company_id AND p.status = 'active'
  JOIN passenger_guardians pg ON pg.passenger_id = p.id
  JOIN guardians g ON g.id = pg.guardian_id AND g.status = 'active'
  CROSS JOIN LATERAL (SELECT coalesce(nullif(g.data->>'message_channel', ''),
                                      CASE WHEN g.email IS NOT NULL THEN 'email' ELSE 'sms' END) AS pref) pr
  CROSS JOIN (VALUES ('email'), ('sms')) AS ch(channel)
  WHERE (only_stop IS NULL OR st.value->>'id' = only_stop)
    AND (pr.pref = ch.channel OR pr.pref = 'both')
    AND ((ch.channel = 'email' AND coalesce(g.email, '') <> '') OR (ch.channel = 'sms' AND coalesce(g.phone, '') <> ''))
    AND (msg_kind <> 'guardian_approaching' OR coalesce(g.data->>'notify_on_approach', 'true') <> 'false')
  ON CONFLICT (idempotency_key) DO NOTHING;
END;
$$;

CREATE OR REPLACE FUNCTION guardian_trip_messages() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_near jsonb := '[]'::jsonb;
  old_status text := NULL;
  stop_id text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    old_near := coalesce(OLD.data->'instance'->'nearingSent', '[]'::jsonb);
    old_status := OLD.status;
  END IF;
  IF jsonb_typeof(NEW.data->'instance'->'nearingSent') = 'array' THEN
    FOR stop_id IN
      SELECT s.value FROM jsonb_array_elements_text(NEW.data->'instance'->'nearingSent') AS s(value)
      WHERE NOT old_near ? s.value
    LOOP
      PERFORM guardian_trip_enqueue(NEW, 'guardian_approaching', stop_id);
    END LOOP;
  END IF;
  -- An instance the clock made only after its planned end (no server was running at the time, e.g. the
  -- first start of the demo in the evening) is marked missed at once: that is no news to a guardian.
  IF NEW.status IS DISTINCT FROM old_status AND NEW.status IN ('delayed', 'cancelled', 'missed')
     AND NOT (NEW.status = 'missed' AND coalesce(
       NEW.created_at > to_timestamp((NEW.data->'instance'->>'plannedEnd')::double precision / 1000), false)) THEN
    PERFORM guardian_trip_enqueue(NEW, 'guardian_' || NEW.status, NULL);
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER IF EXISTS trips_guardian_messages ON trips;
CREATE TRIGGER trips_guardian_messages AFTER INSERT OR UPDATE ON trips
  FOR EACH ROW WHEN (NEW.data ? 'instance') EXECUTE FUNCTION guardian_trip_messages();
