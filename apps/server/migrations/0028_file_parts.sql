-- Export files stored in pieces (issues 15 and 18). With PGlite every statement runs on the server's
-- event loop, and a bytea value is rewritten whole by any change: storing a 1 MB export in one INSERT,
-- or growing it piece by piece with `content || piece`, held the loop 20-317 ms (each append costs the
-- whole value so far). An export job now writes its file as parts of at most 64 KB, one INSERT each, and
-- leaves `files.content` empty; GET /v1/file/... joins the parts in order (string_agg) when a file has
-- any. Parts are stored without compression (EXTERNAL): XLSX and PDF are compressed already, and pglz
-- trying them was wasted time on the loop.
CREATE TABLE IF NOT EXISTS file_parts (
  file_id bigint NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (file_id, seq)
);
ALTER TABLE file_parts ALTER COLUMN data SET STORAGE EXTERNAL;
