-- Reverse-geocoding cache (apps/server/src/geocoding): one address per rounded position and language.
-- Positions are rounded to 4 decimals (about 11 m), so a parked vehicle's reports share one entry.
CREATE TABLE IF NOT EXISTS geocode_cache (
  lat_e4     integer     NOT NULL,
  lng_e4     integer     NOT NULL,
  lang       text        NOT NULL CHECK (lang IN ('en', 'ar')),
  address    text,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (lat_e4, lng_e4, lang)
);
