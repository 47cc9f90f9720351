package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Whatever order FROM lists the tables of a connected equality graph in, the join (which
 * the planner reorders along the equalities) answers exactly what the definition says:
 * random small tables (2..5 of them, columns a and b in 0..2 with NULLs and duplicates),
 * a random connected graph (a random spanning tree plus random extra edges, each
 * equating random columns) and a random FROM order, against the rows a brute-force
 * nested loop over the same tables keeps.
 */
class JoinOrderPropertyTest {
    private Path dir;
    private Engine engine;
    private Session s;
    private int queryNumber;

    @BeforeProperty
    void open() throws IOException {
        dir = Files.createTempDirectory("join-order");
        engine = Engine.open(new EngineConfig(dir, false, 1));
        s = engine.connect("materialize", "materialize", Map.of());
        s.execute("SET statement_timeout = '60s'");
    }

    @AfterProperty
    void close() throws IOException {
        s.close();
        engine.close();
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** An equality between column {@code leftColumn} of table {@code left} and {@code rightColumn} of {@code right}. */
    record Edge(int left, int leftColumn, int right, int rightColumn) {}

    /** Tables (rows of two nullable ints), the equalities, and the FROM order (a permutation). */
    record Case(List<List<Integer[]>> tables, List<Edge> edges, List<Integer> fromOrder) {}

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> value = Arbitraries.integers().between(0, 2).injectNull(0.1);
        Arbitrary<Integer[]> row = Combinators.combine(value, value).as((a, b) -> new Integer[] {a, b});
        return Arbitraries.integers().between(2, 5).flatMap(n -> {
            Arbitrary<List<List<Integer[]>>> tables = row.list().ofMaxSize(4).list().ofSize(n);
            // Spanning tree: table i (i >= 1) equals some earlier table, so the graph is connected.
            List<Arbitrary<Edge>> treeEdges = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                int right = i;
                treeEdges.add(Combinators.combine(Arbitraries.integers().between(0, i - 1),
                        Arbitraries.integers().between(0, 1), Arbitraries.integers().between(0, 1))
                        .as((left, lc, rc) -> new Edge(left, lc, right, rc)));
            }
            Arbitrary<Edge> extra = Combinators.combine(Arbitraries.integers().between(0, n - 1),
                    Arbitraries.integers().between(0, 1), Arbitraries.integers().between(0, n - 1),
                    Arbitraries.integers().between(0, 1)).as(Edge::new).filter(e -> e.left() != e.right());
            Arbitrary<List<Edge>> edges = Combinators.combine(Combinators.combine(treeEdges).as(l -> l),
                    extra.list().ofMaxSize(2)).as((tree, more) -> {
                        List<Edge> all = new ArrayList<>(tree);
                        all.addAll(more);
                        return all;
                    });
            List<Integer> indexes = new ArrayList<>();
            for (int i = 0; i < n; i++) indexes.add(i);
            Arbitrary<List<Integer>> order = Arbitraries.shuffle(indexes);
            return Combinators.combine(tables, edges, order).as(Case::new);
        });
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void anyFromOrderOfAConnectedGraphAnswersTheDefinition(@ForAll("cases") Case c) {
        int n = c.tables().size();
        String prefix = "q" + (queryNumber++) + "_";
        for (int i = 0; i < n; i++) {
            s.execute("CREATE TABLE " + prefix + i + " (a int, b int)");
            if (c.tables().get(i).isEmpty()) continue;
            List<String> values = new ArrayList<>();
            for (Integer[] r : c.tables().get(i)) values.add("(" + r[0] + ", " + r[1] + ")");
            s.execute("INSERT INTO " + prefix + i + " VALUES " + String.join(", ", values));
        }
        List<String> select = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            select.add(prefix + i + ".a");
            select.add(prefix + i + ".b");
        }
        List<String> from = new ArrayList<>();
        for (int i : c.fromOrder()) from.add(prefix + i);
        List<String> where = new ArrayList<>();
        for (Edge e : c.edges()) {
            where.add(prefix + e.left() + "." + column(e.leftColumn()) + " = " + prefix + e.right() + "." + column(e.rightColumn()));
        }
        String sql = "SELECT " + String.join(", ", select) + " FROM " + String.join(", ", from)
                + " WHERE " + String.join(" AND ", where);

        List<String> actual = new ArrayList<>();
        for (Row r : ((ExecutionResult.Rows) s.execute(sql)).rows()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.arity(); i++) b.append(r.get(i)).append(',');
            actual.add(b.toString());
        }
        assertThat(actual).as(sql).containsExactlyInAnyOrderElementsOf(bruteForce(c));
    }

    private static String column(int c) { return c == 0 ? "a" : "b"; }

    /** Every combination of one row per table (in table order) whose equalities all hold (NULL = x is not true). */
    private static List<String> bruteForce(Case c) {
        List<String> out = new ArrayList<>();
        combine(c, 0, new Integer[c.tables().size()][], out);
        return out;
    }

    private static void combine(Case c, int table, Integer[][] picked, List<String> out) {
        if (table == picked.length) {
            for (Edge e : c.edges()) {
                Integer l = picked[e.left()][e.leftColumn()];
                Integer r = picked[e.right()][e.rightColumn()];
                if (l == null || !l.equals(r)) return;
            }
            StringBuilder b = new StringBuilder();
            for (Integer[] row : picked) b.append(row[0]).append(',').append(row[1]).append(',');
            out.add(b.toString());
            return;
        }
        for (Integer[] row : c.tables().get(table)) {
            picked[table] = row;
            combine(c, table + 1, picked, out);
        }
    }
}
