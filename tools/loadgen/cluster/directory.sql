-- One room's life in the directory, as the server runs it (docs/scaling.md):
-- open (INSERT … ON CONFLICT … WHERE the holder is dead), a lookup, the close.
-- pgbench -n -c 8 -j 2 -T 10 -f tools/loadgen/cluster/directory.sql "$DATABASE_URL"
-- (a migrated database with an instances row i1: INSERT INTO instances (id) VALUES ('i1'))
\set n random(1, 1000000000)
INSERT INTO room_directory (code, instance, game) VALUES ('X' || :n, 'i1', 'mindpad') ON CONFLICT (code) DO UPDATE SET instance = EXCLUDED.instance, game = EXCLUDED.game, opened_at = now() WHERE room_directory.instance IN (SELECT id FROM instances WHERE seen_at < now() - interval '15 seconds') RETURNING code;
SELECT instance FROM room_directory WHERE code = 'X' || :n;
DELETE FROM room_directory WHERE code = 'X' || :n AND instance = 'i1';
