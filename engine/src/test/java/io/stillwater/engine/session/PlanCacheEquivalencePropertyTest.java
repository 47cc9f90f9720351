package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
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
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * A cached or lifted plan answers exactly as planning the statement afresh: random point
 * lookups, comparisons and literal INSERTs (and near misses: typed literals, signed
 * numbers, ordinals, IN lists, literals of the wrong type or out of range, NULL into NOT
 * NULL) run on an engine with the plan cache and on a twin with {@code
 * plan_cache_max_entries = 0}; result columns, types and rows, or the error's SQLSTATE,
 * must be the same. Statements repeat in shape with other literals, so most runs on the
 * first engine bind a cached lifted plan.
 */
class PlanCacheEquivalencePropertyTest {
    private Path cachedDir;
    private Path plainDir;
    private Engine cached;
    private Engine plain;
    private Session withCache;
    private Session without;

    private static final String SETUP = """
            CREATE TABLE p (k int NOT NULL, b bigint, s smallint, n numeric, f double precision, t text,
                            vc varchar(3), d date);
            INSERT INTO p VALUES (1, 10, 1, 1.5, 0.5, 'a', 'ab', '2020-01-01'), (2, 20, 2, 2, 2, 'b', 'abc', '2021-06-30'),
                                 (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (2, 21, 3, 2.25, 1e3, 'it''s', 'x', '2020-01-01');
            CREATE INDEX p_k ON p (k);
            CREATE INDEX p_kt ON p (k, t)""";

    @BeforeProperty
    void open() throws IOException {
        cachedDir = Files.createTempDirectory("plancache-a");
        plainDir = Files.createTempDirectory("plancache-b");
        cached = Engine.open(new EngineConfig(cachedDir, false, 1));
        plain = Engine.open(new EngineConfig(plainDir, false, 1)
                .withSystemParameterDefaults(Map.of("plan_cache_max_entries", "0")));
        withCache = cached.connect("materialize", "materialize", Map.of());
        without = plain.connect("materialize", "materialize", Map.of());
        for (String stmt : SETUP.split(";")) {
            withCache.execute(stmt);
            without.execute(stmt);
        }
    }

    @AfterProperty
    void close() throws IOException {
        // The comparison exercised the cache: lifted plans were bound, exact texts found.
        ExecutionResult.Rows stats = (ExecutionResult.Rows) withCache.execute("SHOW plan_cache_stats");
        Row counters = stats.rows().get(0);
        assertThat((Long) counters.get(2)).as("lifted hits").isPositive();
        withCache.close();
        without.close();
        cached.close();
        plain.close();
        for (Path dir : List.of(cachedDir, plainDir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static final List<String> COLUMNS = List.of("k", "b", "s", "n", "f", "t", "vc", "d");

    /** Literals of every kind, valid and not, for every column. */
    private static Arbitrary<String> literal() {
        return Arbitraries.of("0", "1", "2", "3", "-1", "1.5", "2.25", "2.0", "1e3", "100000", "3000000000",
                "99999999999999999999", "'a'", "'b'", "'it''s'", "'abc'", "'abcd'", "'2'", "'x1'", "'2020-01-01'",
                "'1.5'", "NULL", "TRUE", "DATE '2020-01-01'", "'2'::int", "1::bigint", "0x10", "1_000");
    }

    @Provide
    Arbitrary<String> statements() {
        Arbitrary<String> column = Arbitraries.of(COLUMNS);
        Arbitrary<String> op = Arbitraries.of("=", "=", "=", "<>", "<", ">=");
        Arbitrary<String> select = Arbitraries.of("*", "k", "t, k", "k, b, vc", "n, f, d");
        Arbitrary<String> lookup = Combinators.combine(select, column, op, literal())
                .as((sel, c, o, lit) -> "SELECT " + sel + " FROM p WHERE " + c + " " + o + " " + lit);
        Arbitrary<String> twoKeys = Combinators.combine(literal(), literal())
                .as((a, b) -> "SELECT * FROM p WHERE k = " + a + " AND t = " + b);
        Arbitrary<String> nearMiss = Combinators.combine(literal(), Arbitraries.integers().between(1, 3))
                .as((lit, i) -> switch (i) {
                    case 1 -> "SELECT k, t FROM p WHERE k IN (1, " + lit + ")";
                    case 2 -> "SELECT k, t FROM p WHERE k = " + lit + " ORDER BY 2 LIMIT 1";
                    default -> "SELECT k + " + lit + " FROM p WHERE k = 1";
                });
        Arbitrary<String> insert = Combinators.combine(literal(), literal(), literal(), Arbitraries.integers().between(1, 3))
                .as((a, b, c, shape) -> switch (shape) {
                    case 1 -> "INSERT INTO p (k, t, s) VALUES (" + a + ", " + b + ", " + c + ")";
                    case 2 -> "INSERT INTO p (k, n, vc) VALUES (" + a + ", " + b + ", " + c + "), (4, 4, 'z')";
                    default -> "INSERT INTO p (k, b, d) VALUES (" + a + ", " + b + ", " + c + ")";
                });
        Arbitrary<String> update = Combinators.combine(literal(), literal())
                .as((a, b) -> "UPDATE p SET f = " + a + " WHERE k = " + b);
        return Arbitraries.frequencyOf(Tuple.of(6, lookup), Tuple.of(2, twoKeys), Tuple.of(2, nearMiss),
                Tuple.of(3, insert), Tuple.of(1, update));
    }

    @Property(tries = 200)
    void aCachedPlanAnswersAsAFreshOne(@ForAll("statements") String sql) {
        assertThat(StatementOutcome.of(withCache, sql)).as(sql).isEqualTo(StatementOutcome.of(without, sql));
    }
}
