package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * A transaction block reads its own writes exactly: a random sequence of INSERTs,
 * UPDATEs, DELETEs, INSERT ... SELECTs and reads, run inside one block on a table,
 * gives at every read the rows the same statements give when each commits on its own
 * (on a twin table, outside any block); after COMMIT the table equals its twin, after
 * ROLLBACK its starting rows. Half of the cases put an index on the table, so reads
 * that could use it must still see the block's writes.
 */
class TransactionModelPropertyTest {
    private Path dir;
    private Engine engine;
    private Session s;
    private int caseNumber;

    @BeforeProperty
    void open() throws IOException {
        dir = Files.createTempDirectory("txn-model");
        engine = Engine.open(new EngineConfig(dir, false, 1));
        s = engine.connect("materialize", "materialize", Map.of());
    }

    @AfterProperty
    void close() throws IOException {
        s.close();
        engine.close();
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** One statement of the sequence, with {@code %s} for the table's name. */
    record Op(String sql, boolean read) {
        @Override
        public String toString() { return sql; }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> k = Arbitraries.integers().between(0, 4);
        Arbitrary<Op> insert = Combinators.combine(k, Arbitraries.integers().between(0, 9))
                .as((a, b) -> new Op("INSERT INTO %s VALUES (" + a + ", " + b + ")", false));
        Arbitrary<Op> update = Combinators.combine(k, Arbitraries.integers().between(1, 3))
                .as((a, d) -> new Op("UPDATE %s SET v = v + " + d + " WHERE k = " + a, false));
        Arbitrary<Op> delete = k.map(a -> new Op("DELETE FROM %s WHERE k = " + a, false));
        Arbitrary<Op> copy = k.map(a -> new Op("INSERT INTO %s SELECT k + 1, v FROM %s WHERE k = " + a, false));
        Arbitrary<Op> read = Arbitraries.of(
                new Op("SELECT k, v FROM %s ORDER BY k, v", true),
                new Op("SELECT k, count(*), sum(v) FROM %s GROUP BY k ORDER BY k", true),
                new Op("SELECT k, v FROM %s WHERE k = 2 ORDER BY v", true));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, insert), net.jqwik.api.Tuple.of(3, update),
                        net.jqwik.api.Tuple.of(2, delete), net.jqwik.api.Tuple.of(1, copy),
                        net.jqwik.api.Tuple.of(3, read))
                .list().ofMinSize(1).ofMaxSize(12);
    }

    @Property(tries = 40)
    void aBlockReadsWhatAutocommitWouldAndCommitsIt(@ForAll("ops") List<Op> ops, @ForAll boolean indexed,
                                                    @ForAll boolean commit) {
        int n = caseNumber++;
        String t = "t" + n;
        String m = "m" + n;
        for (String table : List.of(t, m)) {
            s.execute("CREATE TABLE " + table + " (k int, v int)");
            s.execute("INSERT INTO " + table + " VALUES (1, 1), (2, 2), (2, 5), (3, 3)");
        }
        if (indexed) s.execute("CREATE INDEX " + t + "_k ON " + t + " (k)");
        List<List<String>> start = rows(t);
        s.execute("BEGIN");
        for (Op op : ops) {
            if (op.read()) {
                assertThat(SessionTestBase.rows(s.execute(sql(op, t)))).as(op.sql())
                        .isEqualTo(autocommit(() -> SessionTestBase.rows(s.execute(sql(op, m)))));
            } else {
                String inBlock = tagOf(s.execute(sql(op, t)));
                assertThat(inBlock).as(op.sql()).isEqualTo(autocommit(() -> tagOf(s.execute(sql(op, m)))));
            }
        }
        s.execute(commit ? "COMMIT" : "ROLLBACK");
        assertThat(rows(t)).isEqualTo(commit ? rows(m) : start);
    }

    /** Runs {@code work} (the twin's statement) on a second session, outside any block. */
    private <T> T autocommit(java.util.function.Supplier<T> work) {
        Session block = s;
        try (Session other = engine.connect("materialize", "materialize", Map.of())) {
            s = other;
            return work.get();
        } finally {
            s = block;
        }
    }

    private List<List<String>> rows(String table) {
        return SessionTestBase.rows(s.execute("SELECT k, v FROM " + table + " ORDER BY k, v"));
    }

    private static String sql(Op op, String table) { return op.sql().replace("%s", table); }

    private static String tagOf(ExecutionResult r) { return ((ExecutionResult.Command) r).tag(); }

}
