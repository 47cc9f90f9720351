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
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * The Calcite-free fast path ({@code sql.planner.FastPathPlanner}) answers exactly as the
 * Calcite path: random statements of its shapes (literal SELECTs, point lookups on a table
 * or materialized view with literals, literal and NULL INSERTs of one or more rows) and
 * near misses (signs, casts, typed literals, IN lists, ORDER BY, wrong types, values out
 * of range, NULL into NOT NULL, unknown columns, too few values) run on an engine with
 * {@code enable_fast_path_planning} on and on a twin with it off, both without the plan
 * cache (so every statement is planned); result columns with types, rows, command tags
 * or the error's SQLSTATE must be the same.
 */
class FastPathEquivalencePropertyTest {
    private Path fastDir;
    private Path plainDir;
    private Engine fastEngine;
    private Engine plainEngine;
    private Session fast;
    private Session plain;

    private static final String SETUP = """
            CREATE TABLE p (k int NOT NULL, b bigint DEFAULT 42, s smallint, n numeric, f double precision, t text,
                            vc varchar(3), d date, nn numeric(4,1));
            INSERT INTO p VALUES (1, 10, 1, 1.5, 0.5, 'a', 'ab', '2020-01-01', 1.5), (2, 20, 2, 2, 2, 'b', 'abc', '2021-06-30', 2),
                                 (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (2, 3000000000, 3, 2.25, 1e3, 'it''s', 'x', '2020-01-01', 3.3);
            CREATE INDEX p_k ON p (k);
            CREATE INDEX p_kt ON p (k, t);
            CREATE MATERIALIZED VIEW pm AS SELECT k, t, b FROM p""";

    @BeforeProperty
    void open() throws IOException {
        fastDir = Files.createTempDirectory("fastpath-a");
        plainDir = Files.createTempDirectory("fastpath-b");
        fastEngine = Engine.open(new EngineConfig(fastDir, false, 1)
                .withSystemParameterDefaults(Map.of("plan_cache_max_entries", "0")));
        plainEngine = Engine.open(new EngineConfig(plainDir, false, 1)
                .withSystemParameterDefaults(Map.of("plan_cache_max_entries", "0", "enable_fast_path_planning", "false")));
        fast = fastEngine.connect("materialize", "materialize", Map.of());
        plain = plainEngine.connect("materialize", "materialize", Map.of());
        for (String stmt : SETUP.split(";")) {
            fast.execute(stmt);
            plain.execute(stmt);
        }
    }

    @AfterProperty
    void close() throws IOException {
        fast.close();
        plain.close();
        fastEngine.close();
        plainEngine.close();
        for (Path dir : List.of(fastDir, plainDir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static final List<String> COLUMNS = List.of("k", "b", "s", "n", "f", "t", "vc", "d", "nn");

    /** Literals of every kind, valid and not, for every column. */
    private static Arbitrary<String> literal() {
        return Arbitraries.of("0", "1", "2", "3", "-1", "1.5", "2.25", "2.0", "1e3", "100000", "3000000000",
                "99999999999999999999", "'a'", "'b'", "'it''s'", "'abc'", "'abcd'", "'2'", "'x1'", "'2020-01-01'",
                "'1.5'", "NULL", "TRUE", "DATE '2020-01-01'", "'2'::int", "1::bigint", "E'a'", "0x10", "1_000", "007");
    }

    /** A select list for p: star, columns, aliases, a literal or an unknown column. */
    private static Arbitrary<String> selectList() {
        return Arbitraries.of("*", "k", "t, k", "k, b, vc", "n, f, d", "k AS key", "t AS k, k", "k, nn", "zz", "1", "k k2");
    }

    @Provide
    Arbitrary<String> statements() {
        Arbitrary<String> column = Arbitraries.of(COLUMNS);
        Arbitrary<String> relation = Arbitraries.of("p", "p", "public.p", "pm", "nosuch");
        Arbitrary<String> lookup = Combinators.combine(selectList(), relation, column, literal())
                .as((sel, rel, c, lit) -> "SELECT " + sel + " FROM " + rel + " WHERE " + c + " = " + lit);
        Arbitrary<String> twoKeys = Combinators.combine(column, literal(), column, literal())
                .as((c1, a, c2, b) -> "SELECT * FROM p WHERE " + c1 + " = " + a + " AND " + c2 + " = " + b);
        Arbitrary<String> literals = Combinators.combine(literal(), literal(), Arbitraries.of("", " AS x", ", 'y' AS y"))
                .as((a, b, tail) -> "SELECT " + a + ", " + b + tail);
        Arbitrary<String> nearMiss = Combinators.combine(literal(), Arbitraries.integers().between(1, 4))
                .as((lit, i) -> switch (i) {
                    case 1 -> "SELECT k, t FROM p WHERE k IN (1, " + lit + ")";
                    case 2 -> "SELECT k, t FROM p WHERE k = " + lit + " ORDER BY 2 LIMIT 1";
                    case 3 -> "SELECT k FROM p WHERE k = " + lit + " OR t = 'a'";
                    default -> "SELECT k + " + lit + " FROM p WHERE k = 1";
                });
        Arbitrary<String> insert = Combinators.combine(literal(), literal(), literal(), Arbitraries.integers().between(1, 6))
                .as((a, b, c, shape) -> switch (shape) {
                    case 1 -> "INSERT INTO p (k, t, s) VALUES (" + a + ", " + b + ", " + c + ")";
                    case 2 -> "INSERT INTO p (k, b) VALUES (" + a + ", " + b + "), (" + c + ", NULL)";
                    case 3 -> "INSERT INTO p (k, vc, nn) VALUES (" + a + ", " + b + ", " + c + ")";
                    case 4 -> "INSERT INTO public.p (t, k) VALUES (" + a + ", 1), (" + b + ", 2), (" + c + ", 3)";
                    case 5 -> "INSERT INTO p VALUES (" + a + ", " + b + ", " + c + ")";
                    default -> "INSERT INTO p (k, b, d) VALUES (" + a + ", " + b + ", " + c + ")";
                });
        return Arbitraries.frequencyOf(Tuple.of(6, lookup), Tuple.of(2, twoKeys), Tuple.of(2, literals),
                Tuple.of(2, nearMiss), Tuple.of(4, insert));
    }

    @Property(tries = 300)
    void theFastPathAnswersAsCalciteDoes(@ForAll("statements") String sql) {
        assertThat(StatementOutcome.of(fast, sql)).as(sql).isEqualTo(StatementOutcome.of(plain, sql));
    }
}
