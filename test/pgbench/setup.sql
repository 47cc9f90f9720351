DROP TABLE IF EXISTS pgbench_points;
DROP TABLE IF EXISTS pgbench_inserts;
CREATE TABLE pgbench_points (id integer NOT NULL, k integer NOT NULL, pad text);
CREATE TABLE pgbench_inserts (id integer NOT NULL, k integer NOT NULL, pad text);
INSERT INTO pgbench_points SELECT g, g % 100, 'row ' || g FROM generate_series(1, 100000) AS g;
