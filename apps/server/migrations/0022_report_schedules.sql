-- Scheduled reports (reports/schedules.ts): a user asks for a report daily, weekly or monthly; the
-- runner renders it in the user's language and zone when next_run_at passes and hands it to the mail
-- outbox. One row per schedule; a claimed run moves next_run_at forward in the same statement.
CREATE TABLE IF NOT EXISTS report_schedules (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  company_id bigint NOT NULL REFERENCES transport_companies(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  report text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'xlsx', 'pdf')),
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  hour smallint NOT NULL DEFAULT 7 CHECK (hour BETWEEN 0 AND 23),
  weekday smallint CHECK (weekday BETWEEN 0 AND 6),
  day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 28),
  selection jsonb NOT NULL DEFAULT '{}'::jsonb,
  locale text NOT NULL DEFAULT 'en',
  time_zone text NOT NULL,
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS report_schedules_due ON report_schedules (next_run_at);
CREATE INDEX IF NOT EXISTS report_schedules_user ON report_schedules (company_id, user_id);
