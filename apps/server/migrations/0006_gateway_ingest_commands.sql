-- Device gateway, session 2 (issue 5).
--
-- 1. io_elements of locations and latest_locations become `json` instead of `jsonb`.
--    The column is written by every ingested record and always read whole (API, pipeline, reports,
--    share links); nothing queries inside it. Turning text into jsonb was the largest single cost of
--    the ingest statement (measured: ~25 us of ~72 us CPU per row on PGlite, ~10 of ~27 us in the
--    PostgreSQL server), while `json` only checks the syntax and keeps the text. It also stops one
--    record carrying a string with \u0000 (allowed in JSON, refused by jsonb) from failing the whole
--    cross-device batch. Both drivers parse json and jsonb to the same JS object, and the two types
--    cast to each other on assignment, so writers of jsonb values keep working.
--    Trade-off: json has no equality operator (no DISTINCT / GROUP BY on the column) and no jsonb
--    operators (@>, ?); a query that needs them casts: io_elements::jsonb.
ALTER TABLE locations ALTER COLUMN io_elements DROP DEFAULT;
ALTER TABLE locations ALTER COLUMN io_elements TYPE json USING io_elements::json;
ALTER TABLE locations ALTER COLUMN io_elements SET DEFAULT '{}'::json;
ALTER TABLE latest_locations ALTER COLUMN io_elements DROP DEFAULT;
ALTER TABLE latest_locations ALTER COLUMN io_elements TYPE json USING io_elements::json;
ALTER TABLE latest_locations ALTER COLUMN io_elements SET DEFAULT '{}'::json;

-- 2. Commands queued for a device that stays offline expire (status 'expired', see
--    COMMAND_QUEUE_EXPIRY_S); the sweep finds them by age.
CREATE INDEX IF NOT EXISTS device_commands_queued_age ON device_commands (created_at)
  WHERE status = 'queued';

-- 3. Which device answer belongs to a command (EncodedCommand.answerKey of @fleet/device-protocols,
--    e.g. 'ruptela:7', 'istartek:900', 'teltonika'); NULL takes any answer of the device, in order.
ALTER TABLE device_commands ADD COLUMN IF NOT EXISTS answer_key text;
