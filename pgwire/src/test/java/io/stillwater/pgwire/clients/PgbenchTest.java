package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL 15's pgbench initializes its tables here ({@code pgbench -i}: DROP TABLE IF
 * EXISTS of four tables, CREATE TABLE ... WITH (fillfactor=100), BEGIN, TRUNCATE, INSERTs,
 * COPY ... FROM STDIN WITH (FREEZE ON), COMMIT, VACUUM ANALYZE, ALTER TABLE ... ADD PRIMARY
 * KEY), twice (the second run drops and refills), then runs its select-only script.
 */
class PgbenchTest {
    static final Path PGBENCH = Path.of("/usr/bin/pgbench");
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static String pgbench(String... args) throws Exception {
        assertThat(Files.isExecutable(PGBENCH)).as("pgbench must be installed (postgresql-client-15)").isTrue();
        List<String> cmd = new java.util.ArrayList<>(List.of(PGBENCH.toString(), "-h", "127.0.0.1",
                "-p", String.valueOf(db.port()), "-U", "materialize"));
        cmd.addAll(List.of(args));
        cmd.add("materialize");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("pgbench finished").isTrue();
        assertThat(p.exitValue()).as("pgbench exit code; output:%n%s", out).isZero();
        return out;
    }

    @Test
    void initializeTwiceThenSelectOnly() throws Exception {
        pgbench("-i", "-q");
        String init = pgbench("-i", "-q");
        assertThat(init).contains("creating primary keys...").doesNotContain("ERROR");
        String counts = ClientProcess.psql(db.port(), "materialize", "materialize", null, "-A", "-t", "-c",
                "SELECT (SELECT count(*) FROM pgbench_accounts), (SELECT count(*) FROM pgbench_branches),"
                        + " (SELECT count(*) FROM pgbench_tellers), (SELECT count(*) FROM pgbench_history),"
                        + " (SELECT sum(abalance) FROM pgbench_accounts)").ok();
        assertThat(counts.strip()).isEqualTo("100000|1|10|0|0");
        String dup = ClientProcess.psql(db.port(), "materialize", "materialize", null, "-c",
                "INSERT INTO pgbench_accounts VALUES (1, 1, 0, '')").err();
        assertThat(dup).contains("duplicate key value violates unique constraint \"pgbench_accounts_pkey\"");
        String run = pgbench("-n", "-S", "-T", "2");
        assertThat(run).contains("number of failed transactions: 0 (0.000%)");
        assertThat(run).doesNotContain("number of transactions actually processed: 0/");
    }
}
