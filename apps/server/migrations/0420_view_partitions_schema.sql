-- View tables are partitioned by request fingerprint (issue 28, ADR 0040): a refresh fills a fresh
-- table and attaches it in place of the fingerprint's previous partition. The partitions live in
-- their own schema, out of `public`, so the data API (and schema reports) see only the view
-- tables `view_<namespace>_<name>`, whose rows they are read through.
CREATE SCHEMA IF NOT EXISTS view_parts;
COMMENT ON SCHEMA view_parts IS 'Partitions of view tables (one per view and request fingerprint)';
