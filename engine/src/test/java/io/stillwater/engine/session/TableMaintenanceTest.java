package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What pgbench -i sends besides COPY: CREATE TABLE ... WITH, TRUNCATE (also in BEGIN), VACUUM, ADD PRIMARY KEY. */
class TableMaintenanceTest extends SessionTestBase {

    @Test
    void truncateDeletesEveryRowOfEveryTableNamed() {
        s.execute("CREATE TABLE a (x INT)");
        s.execute("CREATE TABLE b (y INT)");
        s.execute("INSERT INTO a VALUES (1), (1), (2)");
        s.execute("INSERT INTO b VALUES (3)");
        assertThat(tag("TRUNCATE TABLE a, b")).isEqualTo("TRUNCATE TABLE");
        assertThat(q("SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b)")).containsExactly(List.of("0", "0"));
        assertState("42P01", "TRUNCATE nope");
        s.execute("CREATE VIEW v AS SELECT 1 AS x");
        assertState("42809", "TRUNCATE v");
    }

    @Test
    void insideATransactionTruncateHappensAtCommitAndDropsEarlierWrites() {
        s.execute("CREATE TABLE a (x INT)");
        s.execute("INSERT INTO a VALUES (1), (2)");
        s.execute("BEGIN");
        s.execute("INSERT INTO a VALUES (10)");
        s.execute("TRUNCATE a");
        s.execute("INSERT INTO a VALUES (20)");
        s.execute("COMMIT");
        assertThat(q("SELECT x FROM a")).containsExactly(List.of("20"));
        s.execute("BEGIN");
        s.execute("TRUNCATE a");
        s.execute("ROLLBACK");
        assertThat(q("SELECT x FROM a")).containsExactly(List.of("20"));
    }

    @Test
    void vacuumAndAnalyzeAreAcceptedNoOps() {
        s.execute("CREATE TABLE a (x INT)");
        assertThat(tag("VACUUM ANALYZE a")).isEqualTo("VACUUM");
        assertThat(tag("VACUUM (VERBOSE, ANALYZE) a (x)")).isEqualTo("VACUUM");
        assertThat(tag("ANALYZE")).isEqualTo("ANALYZE");
        assertState("42P01", "VACUUM nope");
        s.execute("BEGIN");
        assertState("25001", "VACUUM a");
        s.execute("ROLLBACK");
    }

    @Test
    void createTableWithStorageParameters() {
        s.execute("CREATE TABLE a (x INT NOT NULL) WITH (fillfactor=100, autovacuum_enabled = false)");
        assertState("22023", "CREATE TABLE b (x INT) WITH (nonsense=1)");
        assertState("0A000", "CREATE TABLE c (x INT) WITH OIDS");
    }

    @Test
    void alterTableAddPrimaryKeyOrUniqueIsAUniqueIndex() {
        s.execute("CREATE TABLE a (x INT NOT NULL, y INT)");
        s.execute("INSERT INTO a VALUES (1, 1), (2, 1)");
        assertThat(tag("ALTER TABLE a ADD PRIMARY KEY (x)")).isEqualTo("CREATE INDEX");
        assertState("23505", "INSERT INTO a VALUES (1, 5)");
        assertState("23505", "ALTER TABLE a ADD UNIQUE (y)");
        s.execute("ALTER TABLE a ADD CONSTRAINT a_xy UNIQUE (x, y)");
        assertThat(q("SELECT name FROM mz_catalog.mz_indexes WHERE name LIKE 'a\\_%' ORDER BY name"))
                .containsExactly(List.of("a_pkey"), List.of("a_xy"));
        assertState("0A000", "ALTER TABLE a ADD COLUMN z INT");
    }
}
