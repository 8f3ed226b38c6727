-- Report exports become a queue in the table (reports/exports/jobs.ts): any API process claims queued
-- jobs, a running job beats a heartbeat, and a job whose process died is claimed again by another.
ALTER TABLE report_exports ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
ALTER TABLE report_exports ADD COLUMN IF NOT EXISTS attempts smallint NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS report_exports_unfinished ON report_exports (id)
  WHERE status IN ('queued', 'running');
