-- Bytes per room_directory row with its indexes (docs/scaling.md), in a
-- scratch migrated database: 100 instances, 25,000 rooms.
-- psql "$DATABASE_URL" -f tools/loadgen/cluster/sizes.sql
BEGIN;
INSERT INTO instances (id) SELECT 'i' || g FROM generate_series(1, 100) g ON CONFLICT DO NOTHING;
INSERT INTO room_directory (code, instance, game)
  SELECT upper(substr(md5(g::text), 1, 6)), 'i' || (g % 100 + 1), 'mindpad' FROM generate_series(1, 25000) g
  ON CONFLICT DO NOTHING;
SELECT count(*) AS rooms, pg_size_pretty(pg_table_size('room_directory')) AS heap,
       pg_size_pretty(pg_indexes_size('room_directory')) AS indexes,
       (pg_table_size('room_directory') + pg_indexes_size('room_directory')) / count(*) AS bytes_per_row
  FROM room_directory;
ROLLBACK;
