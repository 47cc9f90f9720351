-- One acknowledged (durable) single-row insert per transaction.
\set id random(1, 1000000000)
INSERT INTO pgbench_inserts (id, k, pad) VALUES (:id, :id % 100, 'stillwater pgbench insert row');
