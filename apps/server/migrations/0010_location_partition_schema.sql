-- fleet_ensure_location_partition() looked a partition up by its bare name, so when another schema on
-- the search_path (say public, next to a tenant or test schema) already had `locations_YYYYMM`, it
-- found that table, created nothing, and the month's rows fell into this schema's default partition.
-- Look up and create the partition in the schema of the `locations` table it belongs to.
CREATE OR REPLACE FUNCTION fleet_ensure_location_partition(month_start date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', month_start)::date;
  part text := 'locations_' || to_char(m, 'YYYYMM');
  ns text;
BEGIN
  SELECT n.nspname INTO ns
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.oid = 'locations'::regclass;
  IF to_regclass(format('%I.%I', ns, part)) IS NULL THEN
    EXECUTE format('CREATE TABLE %I.%I PARTITION OF %I.locations FOR VALUES FROM (%L) TO (%L)',
      ns, part, ns, m::timestamp AT TIME ZONE 'UTC', (m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  END IF;
  RETURN part;
END $$;
