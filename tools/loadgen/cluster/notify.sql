-- The announcement after each identify in cluster mode (docs/scaling.md).
-- pgbench -n -c 8 -j 2 -T 10 -f tools/loadgen/cluster/notify.sql "$DATABASE_URL"
SELECT pg_notify('mindpad_session', '123456 i1');
