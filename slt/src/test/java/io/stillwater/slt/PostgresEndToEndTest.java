package io.stillwater.slt;

import java.sql.DriverManager;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.EmbeddedServerFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The runner against a real PostgreSQL 15 cluster: the SQLite corpus and every feature. */
class PostgresEndToEndTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    private RunSummary run(SltOptions options) {
        buf.reset();
        RunSummary s = new SltRunner(options, new PrintStream(buf, true, StandardCharsets.UTF_8)).run();
        System.out.println(output());
        return s;
    }

    private RunSummary run(Path... files) {
        return run(SltOptions.of(List.of(files)).withUrl(PG.url()));
    }

    private String output() {
        return buf.toString(StandardCharsets.UTF_8);
    }

    private Path script(String name, String... lines) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    @Test
    void select1PassesCompletelyOnPostgres() {
        Path select1 = Corpus.sqlite().resolve("select1.test");
        RunSummary s = run(select1);
        assertThat(s.passed()).as(output()).isTrue();
        FileResult f = s.files().get(0);
        assertThat(f.failures(true)).as(output()).isZero();
        // select1.test has 1031 records; all of them run on PostgreSQL (no skipif/onlyif).
        assertThat(f.count(Outcome.SUCCESS)).isEqualTo(1031);
        assertThat(output()).contains("==> " + select1 + " PASS success=1031 total=1031");
    }

    /** Renderer and hasher alone, on values PostgreSQL returns, against hashes stored in the corpus. */
    @Test
    void corpusHashesMatchRenderedPostgresValues() throws Exception {
        Script script = SltParser.parse("select1.test", Files.readString(Corpus.sqlite().resolve("select1.test")));
        try (Connection admin = PG.connect(); Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE hashcheck");
        }
        int checked = 0;
        try (Connection c = DriverManager.getConnection(
                PG.jdbcUrl().replace("/postgres", "/hashcheck"), "postgres", "");
                Statement st = c.createStatement()) {
            for (Record r : script.records()) {
                if (r instanceof Record.Statement s) {
                    st.execute(s.sql());
                } else if (r instanceof Record.Query q && q.expected() instanceof ExpectedOutput.Hashed h && checked < 20) {
                    List<List<String>> rows = new ArrayList<>();
                    try (ResultSet rs = st.executeQuery(q.sql())) {
                        for (List<Object> row : JdbcResults.read(rs).rows()) {
                            List<String> rendered = new ArrayList<>();
                            for (int i = 0; i < row.size(); i++) {
                                rendered.add(ValueRenderer.render(row.get(i), q.types().get(i), Mode.STANDARD));
                            }
                            rows.add(rendered);
                        }
                    }
                    List<String> values = ResultSorter.sort(rows, q.sort());
                    assertThat(values).as(q.location().toString()).hasSize(h.count());
                    assertThat(ResultHasher.md5(values)).as(q.location().toString()).isEqualTo(h.md5());
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(20);
    }

    @Test
    void everyRecordTypePassesOnPostgres() throws Exception {
        Path f = script("features.slt",
                "statement ok", "CREATE TABLE s(a INT, b TEXT)", "",
                "statement count 3", "INSERT INTO s VALUES (1, 'x'), (2, ''), (3, NULL)", "",
                "statement error table \"nope\" does not exist", "DROP TABLE nope", "",
                "statement error pgcode 42P01", "DROP TABLE nope", "",
                "statement error", "DROP TABLE nope", "",
                "query error pgcode 22012 division by zero", "SELECT 1/0", "",
                "query IT rowsort", "SELECT a, b FROM s", "----", "1", "x", "2", "(empty)", "3", "NULL", "",
                "query II valuesort", "SELECT 2, 1 UNION ALL SELECT 0, 3", "----", "0", "1", "2", "3", "",
                "query IT colnames", "SELECT 1 AS a, 'x' AS \"b c\"", "----", "a b\u2420c", "1", "x", "",
                "query I rowsort same", "SELECT a FROM s", "----", "1", "2", "3", "",
                "query I rowsort same", "SELECT a FROM s ORDER BY a DESC", "----", "1", "2", "3", "",
                "hash-threshold 2", "",
                "query I rowsort", "SELECT * FROM generate_series(1, 3)", "----",
                "3 values hashing to c0710d6b4f15dfa88f600b0e6b624077", "",
                "query RBO nosort", "SELECT avg(x), true, 'pg_class'::regclass::oid FROM (VALUES (1), (2)) v(x)", "----",
                "1.500", "true", "1259", "",
                "query T multiline", "SELECT 'a' || chr(10) || 'b'", "----", "a", "b", "EOF", "",
                "mode cockroach", "",
                "query IRT rowsort", "SELECT * FROM (VALUES (2, 1.5::float8, 'x y'), (1, 2.0::float8, 'z')) v", "----",
                "1  2    z", "2  1.5  x\u2420y", "",
                "mode standard", "",
                "simple", "CREATE TABLE t2(a INT); INSERT INTO t2 VALUES (1), (2); SELECT a, NULL FROM t2 ORDER BY a",
                "----", "COMPLETE 0", "COMPLETE 2", "1,NULL", "2,NULL", "COMPLETE 2", "",
                "simple conn=other,user=postgres", "SET application_name = 'other'", "----", "COMPLETE 0", "",
                "simple conn=other", "SHOW application_name", "----", "other", "COMPLETE 1", "",
                "simple", "SELECT 1/0", "----", "db error: ERROR: division by zero", "",
                "skipif postgresql", "statement ok", "THIS IS NOT SQL", "",
                "onlyif sqlite", "query I nosort", "SELECT 'not sqlite'", "----", "1", "",
                "onlyif postgresql", "statement ok", "SELECT 1", "");
        RunSummary s = run(f);
        FileResult r = s.files().get(0);
        assertThat(r.problems()).as(output()).isEmpty();
        assertThat(r.count(Outcome.SKIPPED)).isEqualTo(2);
        assertThat(r.count(Outcome.SUCCESS)).isEqualTo(20);
        assertThat(s.exitCode()).isZero();
    }

    @Test
    void failuresAreCountedByKindWithLocationsAndTheRunContinues() throws Exception {
        Path f = script("failures.slt",
                "statement ok", "CREATE TABLE f(a INT)", "",                                     // 1
                "statement ok", "INSERT INTO nope VALUES (1)", "",                              // 4 statement-failure
                "statement count 5", "INSERT INTO f VALUES (1), (2)", "",                      // 7 statement-failure
                "statement error", "SELECT 1", "",                                              // 10 statement-failure
                "query error division", "SELECT 1", "",                                         // 13 query-error-mismatch
                "query I nosort", "SELECT * FROM nope", "----", "1", "",                       // 16 query-error-mismatch
                "query I rowsort", "SELECT a FROM f", "----", "1", "",                         // 21 wrong-row-count
                "query II rowsort", "SELECT a FROM f", "----", "1", "2", "",                   // 26 wrong-column-count
                "query I colnames", "SELECT a FROM f LIMIT 1", "----", "b", "1", "",          // 32 wrong-column-names
                "query I rowsort", "SELECT a FROM f", "----", "1", "3", "",                    // 38 wrong-values
                "query I rowsort", "SELECT a FROM f", "----", "2 values hashing to 00000000000000000000000000000000", "", // 44 wrong-hash
                "query I nosort lbl", "SELECT 1", "----", "1", "",                             // 49 success
                "query I nosort lbl", "SELECT 2", "----", "2", "",                             // 54 wrong-hash (label)
                "query I nosort", "SELECT count(*) FROM f FOR UPDATE", "----", "2", "",        // 59 unsupported (0A000)
                "reset-server", "",                                                             // 64 unsupported on url
                "query Q nosort", "SELECT 1", "----", "1", "",                                  // 66 malformed
                "statement ok", "INSERT INTO f VALUES (3)", "");                                // 71 success: run went on
        RunSummary s = run(f);
        FileResult r = s.files().get(0);
        assertThat(r.count(Outcome.SUCCESS)).as(output()).isEqualTo(3);
        assertThat(r.count(Outcome.STATEMENT_FAILURE)).isEqualTo(3);
        assertThat(r.count(Outcome.QUERY_ERROR_MISMATCH)).isEqualTo(2);
        assertThat(r.count(Outcome.WRONG_ROW_COUNT)).isEqualTo(1);
        assertThat(r.count(Outcome.WRONG_COLUMN_COUNT)).isEqualTo(1);
        assertThat(r.count(Outcome.WRONG_COLUMN_NAMES)).isEqualTo(1);
        assertThat(r.count(Outcome.WRONG_VALUES)).isEqualTo(1);
        assertThat(r.count(Outcome.WRONG_HASH)).isEqualTo(2);
        assertThat(r.count(Outcome.UNSUPPORTED)).isEqualTo(2);
        assertThat(r.count(Outcome.MALFORMED)).isEqualTo(1);
        assertThat(r.problems()).extracting(p -> p.location().line())
                .containsExactly(4, 7, 10, 13, 16, 21, 26, 32, 38, 44, 54, 59, 64, 66);
        Failure values = r.problems().get(8);
        assertThat(values.expected()).isEqualTo("1\n3");
        assertThat(values.actual()).isEqualTo("1\n2");
        assertThat(r.problems().get(11).reason()).contains("0A000").contains("FOR UPDATE");
        assertThat(s.exitCode()).isEqualTo(1);
        assertThat(output()).contains(f + ":38: wrong-values").contains("2 unsupported record(s)");
    }

    @Test
    void unsupportedIsReportedButFailsOnlyWhenAskedTo() throws Exception {
        Path f = script("unsupported.slt",
                "statement ok", "CREATE TABLE u(a INT)", "",
                "query I nosort", "SELECT count(*) FROM u FOR UPDATE", "----", "0", "");
        RunSummary lenient = run(f);
        assertThat(lenient.passed()).isTrue();
        assertThat(lenient.total(Outcome.UNSUPPORTED)).isEqualTo(1);
        assertThat(output()).contains("unsupported=1").contains("not counted as failures");

        RunSummary strict = run(SltOptions.of(List.of(f)).withUrl(PG.url()).withUnsupportedIsFailure(true));
        assertThat(strict.passed()).isFalse();
        assertThat(strict.exitCode()).isEqualTo(1);
    }

    @Test
    void rewriteResultsFixesExpectedOutputInPlace() throws Exception {
        Path f = script("rewrite.slt",
                "# keep this comment",
                "statement ok", "CREATE TABLE r(a INT, b TEXT)", "",
                "statement ok", "INSERT INTO r VALUES (1, 'one'), (2, 'two')", "",
                "query IT rowsort", "SELECT a, b FROM r", "----", "1", "uno", "",
                "query I nosort", "SELECT a FROM r ORDER BY a", "",
                "hash-threshold 3", "",
                "query IT rowsort", "SELECT a, b FROM r", "----", "1", "one", "",
                "simple", "SELECT 7", "----", "COMPLETE 1", "");
        RunSummary first = run(SltOptions.of(List.of(f)).withUrl(PG.url()).withRewriteResults(true));
        assertThat(first.passed()).isFalse();
        assertThat(Files.readString(f)).isEqualTo(String.join("\n",
                "# keep this comment",
                "statement ok", "CREATE TABLE r(a INT, b TEXT)", "",
                "statement ok", "INSERT INTO r VALUES (1, 'one'), (2, 'two')", "",
                "query IT rowsort", "SELECT a, b FROM r", "----", "1", "one", "2", "two", "",
                "query I nosort", "SELECT a FROM r ORDER BY a", "----", "1", "2", "",
                "hash-threshold 3", "",
                "query IT rowsort", "SELECT a, b FROM r", "----",
                "4 values hashing to " + ResultHasher.md5(List.of("1", "one", "2", "two")), "",
                "simple", "SELECT 7", "----", "7", "COMPLETE 1", "") + "\n");
        RunSummary second = run(f);
        assertThat(second.passed()).as(output()).isTrue();
        assertThat(second.total(Outcome.SUCCESS)).isEqualTo(6);
    }

    @Test
    void rewriteResultsInCockroachModeMultilineAndColnames() throws Exception {
        Path f = script("rewrite2.slt",
                "mode cockroach", "",
                "query IT rowsort", "SELECT * FROM (VALUES (2, 'b c'), (1, 'a')) v", "----", "9  z", "",
                "mode standard", "",
                "query T multiline", "SELECT 'x' || chr(10) || 'y'", "----", "old", "EOF", "",
                "query I colnames", "SELECT 1 AS one", "----", "uno", "1", "");
        run(SltOptions.of(List.of(f)).withUrl(PG.url()).withRewriteResults(true));
        assertThat(Files.readString(f)).isEqualTo(String.join("\n",
                "mode cockroach", "",
                "query IT rowsort", "SELECT * FROM (VALUES (2, 'b c'), (1, 'a')) v", "----", "1  a", "2  b\u2420c", "",
                "mode standard", "",
                "query T multiline", "SELECT 'x' || chr(10) || 'y'", "----", "x", "y", "EOF", "",
                "query I colnames", "SELECT 1 AS one", "----", "one", "1", "") + "\n");
        assertThat(run(f).passed()).as(output()).isTrue();
    }

    @Test
    void shardsJunitFailFastAndHalt() throws Exception {
        Path a = script("a.slt", "statement ok", "SELECT 1", "", "halt", "", "statement ok", "NOT SQL", "");
        Path b = script("b.slt", "statement ok", "NOT SQL", "", "statement ok", "ALSO NOT SQL", "");
        Path c = script("c.test", "statement ok", "SELECT 1", "");
        Files.writeString(tmp.resolve("ignored.txt"), "statement ok\nNOT SQL\n");

        RunSummary shard1 = run(SltOptions.of(List.of(tmp)).withUrl(PG.url()).withShard(1, 2));
        assertThat(shard1.files()).extracting(FileResult::file).containsExactly(a.toString(), c.toString());
        assertThat(shard1.passed()).isTrue();
        assertThat(shard1.files().get(0).halted()).isEqualTo(a + ":4");
        RunSummary shard2 = run(SltOptions.of(List.of(tmp)).withUrl(PG.url()).withShard(2, 2));
        assertThat(shard2.files()).extracting(FileResult::file).containsExactly(b.toString());

        Path junit = tmp.resolve("out/junit.xml");
        RunSummary all = run(SltOptions.of(List.of(a, b, c)).withUrl(PG.url()).withJunit(junit));
        assertThat(all.total(Outcome.STATEMENT_FAILURE)).isEqualTo(2);
        String xml = Files.readString(junit);
        assertThat(xml).contains("<testsuite name=\"" + b + "\" tests=\"3\" failures=\"2\"")
                .contains("name=\"" + b + ":1 statement-failure\"><failure type=\"statement-failure\"")
                .contains("syntax error");
        DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(junit.toFile()); // well-formed

        RunSummary fast = run(SltOptions.of(List.of(a, b, c)).withUrl(PG.url()).withFailFast(true));
        assertThat(fast.files()).hasSize(2);
        assertThat(fast.files().get(1).total()).isEqualTo(1);
    }

    /**
     * The embedded-target path through a real EmbeddedServerFactory whose "engine" is a fresh
     * PostgreSQL database per start: reset-server must give the file a fresh, empty server.
     */
    @Test
    void embeddedTargetStartsFreshServersAndHonoursResetServer() throws Exception {
        AtomicInteger started = new AtomicInteger();
        EmbeddedServerFactory factory = defaults -> {
            String db = "embedded_" + started.incrementAndGet();
            try (Connection c = PG.connect(); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE " + db);
            }
            return new EmbeddedServer() {
                @Override
                public String jdbcUrl() {
                    return PG.jdbcUrl().replace("/postgres", "/" + db);
                }

                @Override
                public String user() {
                    return "postgres";
                }

                @Override
                public Map<String, String> systemParameterDefaults() {
                    return defaults;
                }

                @Override
                public void restart() {
                    throw new UnsupportedOperationException("slt resets by starting another server");
                }

                @Override
                public void close() {
                    try (Connection c = PG.connect(); Statement st = c.createStatement()) {
                        st.execute("DROP DATABASE " + db + " WITH (FORCE)");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
        };
        Path f = script("reset.slt",
                "statement ok", "CREATE TABLE x(a INT)", "",
                "reset-server", "",
                "statement error pgcode 42P01", "SELECT * FROM x", "",
                "statement ok", "CREATE TABLE x(a INT)", "");
        buf.reset();
        RunSummary s = new SltRunner(SltOptions.of(List.of(f, f)), new PrintStream(buf, true, StandardCharsets.UTF_8),
                Optional.of(factory)).run();
        assertThat(s.passed()).as(output()).isTrue();
        assertThat(s.total(Outcome.SUCCESS)).isEqualTo(8);
        assertThat(started.get()).isEqualTo(4); // one per file, one per reset-server
        try (Connection c = PG.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_database WHERE datname LIKE 'embedded_%'")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero(); // every server was closed
        }
    }
}
