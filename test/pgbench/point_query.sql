-- One point query by id on an unindexed 100,000-row table (a full scan on both
-- Stillwater and PostgreSQL: neither side has an index).
\set id random(1, 100000)
SELECT id, k, pad FROM pgbench_points WHERE id = :id;
