package io.stillwater.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Dependency rules over catalogs of views: drop order, RESTRICT, cycles, the log payload. */
class ViewRulesTest {
    static ViewDef view(long id, String name, String... deps) {
        return new ViewDef(id, name, List.of("x"), List.of(SqlType.INTEGER), "SELECT 1 AS x", List.of(deps));
    }

    static Catalog base() {
        return Catalog.empty().withTable(new TableDef(1000, "t", List.of(new ColumnDef("a", SqlType.INTEGER, false, null))));
    }

    @Test
    void payloadRoundTrips() {
        ViewDef v = new ViewDef(1234, "v", List.of("a", "b"), List.of(SqlType.INTEGER, SqlType.TEXT),
                "SELECT a, b FROM t -- é", List.of("t", "w"));
        assertThat(ViewCodec.decode("v", ViewCodec.encode(v))).isEqualTo(v);
    }

    @Test
    void restrictNamesEveryDependencyAndCascadeDropsDependentsFirst() {
        Catalog c = base().withView(view(1001, "v1", "t")).withView(view(1002, "v2", "v1")).withView(view(1003, "v3", "t"));
        assertThatThrownBy(() -> ViewRules.dropOrder(c, List.of("t"), false))
                .isInstanceOf(SqlException.class)
                .hasMessage("cannot drop table t because other objects depend on it")
                .satisfies(e -> assertThat(((SqlException) e).detail()).isEqualTo(
                        "view v1 depends on table t\nview v2 depends on view v1\nview v3 depends on table t"));
        assertThat(ViewRules.dropOrder(c, List.of("t"), true)).containsExactly("v2", "v1", "v3", "t");
        assertThat(ViewRules.dropOrder(c, List.of("v1", "v2"), false)).containsExactly("v2", "v1");
    }

    @Test
    void cyclesAreRefused() {
        Catalog c = base().withView(view(1001, "a", "t")).withView(view(1002, "b", "a"));
        assertThatThrownBy(() -> ViewRules.checkNoCycle(c, view(1001, "a", "b")))
                .hasMessage("infinite recursion detected in rules for relation \"a\"");
        ViewRules.checkNoCycle(c, view(1001, "a", "t"));
    }

    /**
     * Over random DAGs of views (view i reads some of the tables and earlier views), a
     * cascading drop removes exactly the transitive dependents, each before everything it
     * reads; applying the order step by step never leaves a dangling dependency.
     */
    @Property(tries = 200)
    void cascadeOrderIsTopologicalAndComplete(@ForAll @Size(max = 12) List<@IntRange(min = 0, max = 1023) Integer> edges,
                                              @ForAll @IntRange(min = 0, max = 12) int target) {
        Catalog c = base().withTable(new TableDef(1001, "u", List.of(new ColumnDef("a", SqlType.INTEGER, false, null))));
        List<String> names = new ArrayList<>(List.of("t", "u"));
        for (int i = 0; i < edges.size(); i++) {
            List<String> deps = new ArrayList<>();
            for (int j = 0; j < names.size(); j++) if ((edges.get(i) >> (j % 10) & 1) == 1) deps.add(names.get(j));
            if (deps.isEmpty()) deps.add("t");
            String name = "v" + i;
            c = c.withView(new ViewDef(2000 + i, name, List.of("x"), List.of(SqlType.INTEGER), "SELECT 1", deps));
            names.add(name);
        }
        String dropped = names.get(target % names.size());
        List<String> order = ViewRules.dropOrder(c, List.of(dropped), true);

        Set<String> closure = new HashSet<>();
        var todo = new ArrayDeque<>(List.of(dropped));
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (closure.add(n)) c.directDependents(n).forEach(d -> todo.push(d.name()));
        }
        assertThat(order).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(closure);
        assertThat(order.get(order.size() - 1)).isEqualTo(dropped);

        Catalog now = c;
        for (String n : order) {
            now = now.table(n).isPresent() ? now.withoutTable(now.table(n).get().id()) : now.withoutView(n);
            for (ViewDef v : now.views()) {
                for (String d : v.dependsOn()) assertThat(now.relationExists(d)).as(v.name() + " reads " + d).isTrue();
            }
        }
    }
}
