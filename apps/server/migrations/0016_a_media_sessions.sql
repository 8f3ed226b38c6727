-- Issue 18 finding 4: the media token (`media_app_token`, for <img src=...?token=>) is a session of its
-- own kind, tied to the session it was issued with: read-only, accepted only by the file routes and the
-- live feed, short-lived, and dead as soon as its parent session is revoked (logout) or expires.
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'full';
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS parent_id bigint REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX IF NOT EXISTS sessions_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;
