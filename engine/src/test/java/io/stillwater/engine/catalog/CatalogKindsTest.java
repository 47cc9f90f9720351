package io.stillwater.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
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

/** The catalog across every kind: namespace, dependencies of indexes and materialized views, payloads. */
class CatalogKindsTest {
    static final List<ColumnDef> COLS = List.of(new ColumnDef("a", SqlType.INTEGER, false, null));

    static Catalog base() { return Catalog.empty().withTable(new TableDef(1000, "t", COLS)); }

    static MaterializedViewDef mv(long id, String name, String... deps) {
        return new MaterializedViewDef(id, name, List.of("a"), List.of(SqlType.INTEGER), "SELECT a FROM t", List.of(deps),
                "default");
    }

    static IndexDef index(long id, String name, Catalog c, String on) {
        return new IndexDef(id, name, c.idOf(on), on, List.of("a"), "default");
    }

    @Test
    void payloadsRoundTrip() {
        IndexDef i = new IndexDef(1234, "i", 1000, "t", List.of("a + 1", "\"B\"", "lower(s) -- é"), "default");
        assertThat(IndexCodec.decode("i", IndexCodec.encode(i))).isEqualTo(i);
        MaterializedViewDef m = new MaterializedViewDef(1235, "m", List.of("a", "n"), List.of(SqlType.INTEGER, SqlType.BIGINT),
                "SELECT a, count(*) FROM t GROUP BY a", List.of("t"), "default");
        assertThat(MaterializedViewCodec.decode("m", MaterializedViewCodec.encode(m))).isEqualTo(m);
    }

    @Test
    void oneNamespaceAndIdsForEveryKind() {
        Catalog c = base().withMaterializedView(mv(1001, "m", "t"));
        c = c.withIndex(index(1002, "i", c, "m"));
        assertThat(c.nextId()).isEqualTo(1003);
        assertThat(c.kindOf("t")).contains(ObjectKind.TABLE);
        assertThat(c.kindOf("m")).contains(ObjectKind.MATERIALIZED_VIEW);
        assertThat(c.kindOf("i")).contains(ObjectKind.INDEX);
        assertThat(c.nameOf(1002)).contains("i");
        assertThat(c.isIndexed("m")).isTrue();
        assertThat(c.isIndexed("t")).isFalse();
        Catalog finalC = c;
        for (Runnable r : List.<Runnable>of(
                () -> finalC.withTable(new TableDef(2000, "i", COLS)),
                () -> finalC.withView(new ViewDef(2000, "m", List.of("a"), List.of(SqlType.INTEGER), "SELECT 1", List.of())),
                () -> finalC.withIndex(index(2000, "t", finalC, "m")),
                () -> finalC.withMaterializedView(mv(2000, "i", "t")))) {
            assertThatThrownBy(r::run).isInstanceOfSatisfying(SqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.DUPLICATE_TABLE));
        }
        // Restart planning sees only the indexes older than the object being planned.
        assertThat(c.withIndexesBelow(1002).isIndexed("m")).isFalse();
        assertThat(c.withIndexesBelow(1003).isIndexed("m")).isTrue();
    }

    @Test
    void wrongKindNamesTheRightDrop() {
        SqlException e = ViewRules.wrongKind("i", ObjectKind.MATERIALIZED_VIEW, ObjectKind.INDEX);
        assertThat(e.state()).isEqualTo(SqlState.WRONG_OBJECT_TYPE);
        assertThat(e.getMessage()).isEqualTo("\"i\" is not a materialized view");
        assertThat(e.hint()).isEqualTo("Use DROP INDEX to remove an index.");
        assertThat(ViewRules.wrongKind("m", ObjectKind.INDEX, ObjectKind.MATERIALIZED_VIEW).getMessage())
                .isEqualTo("\"m\" is not an index");
        assertThat(ViewRules.wrongKind("m", ObjectKind.TABLE, ObjectKind.MATERIALIZED_VIEW).hint())
                .isEqualTo("Use DROP MATERIALIZED VIEW to remove a materialized view.");
    }

    @Test
    void restrictNamesDependentsOfEveryKind() {
        Catalog c = base().withMaterializedView(mv(1001, "m", "t"));
        c = c.withIndex(index(1002, "ti", c, "t")).withIndex(index(1003, "mi", c, "m"));
        c = c.withView(new ViewDef(1004, "v", List.of("a"), List.of(SqlType.INTEGER), "SELECT a FROM m", List.of("m")));
        Catalog fc = c;
        assertThatThrownBy(() -> ViewRules.dropOrder(fc, List.of("t"), false)).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            assertThat(e.getMessage()).isEqualTo("cannot drop table t because other objects depend on it");
            assertThat(e.detail()).isEqualTo("""
                    materialized view m depends on table t
                    index mi depends on materialized view m
                    view v depends on materialized view m""");
        });
        assertThatThrownBy(() -> ViewRules.dropOrder(fc, List.of("m"), false))
                .hasMessage("cannot drop materialized view m because other objects depend on it");
        assertThat(ViewRules.dropOrder(c, List.of("m", "mi", "v"), false)).containsExactly("mi", "v", "m");
        // An object's own indexes never block RESTRICT (as in Materialize): they go with it.
        assertThat(ViewRules.dropOrder(c, List.of("m", "v"), false)).containsExactly("mi", "v", "m");
        assertThat(ViewRules.dropOrder(c, List.of("t"), true)).containsExactly("mi", "v", "m", "ti", "t");
        assertThat(ViewRules.dropOrder(c, List.of("ti"), false)).containsExactly("ti");
    }

    /**
     * Over random DAGs of views, materialized views and indexes, a cascading drop removes
     * exactly the transitive dependents, dependents first; every prefix of the removals
     * (what a crash mid-DROP leaves in the log) is a catalog without dangling dependencies.
     */
    @Property(tries = 200)
    void everyPrefixOfACascadeIsConsistent(@ForAll @Size(max = 14) List<@IntRange(min = 0, max = 4095) Integer> objects,
                                           @ForAll @IntRange(min = 0, max = 15) int target) {
        Catalog c = base();
        List<String> relations = new ArrayList<>(List.of("t"));
        List<String> all = new ArrayList<>(List.of("t"));
        long id = 1001;
        for (int i = 0; i < objects.size(); i++) {
            int bits = objects.get(i);
            int kind = bits & 3;
            if (kind == 0) {
                String on = relations.get((bits >> 2) % relations.size());
                String name = "i" + i;
                c = c.withIndex(index(id++, name, c, on));
                all.add(name);
                continue;
            }
            List<String> deps = new ArrayList<>();
            for (int j = 0; j < relations.size(); j++) if ((bits >> (2 + j % 10) & 1) == 1) deps.add(relations.get(j));
            if (deps.isEmpty()) deps.add("t");
            String name = (kind == 1 ? "m" : "v") + i;
            c = kind == 1 ? c.withMaterializedView(mv(id++, name, deps.toArray(String[]::new)))
                    : c.withView(new ViewDef(id++, name, List.of("a"), List.of(SqlType.INTEGER), "SELECT 1", deps));
            relations.add(name);
            all.add(name);
        }
        String dropped = all.get(target % all.size());
        List<String> order = ViewRules.dropOrder(c, List.of(dropped), true);

        Set<String> closure = new HashSet<>();
        var todo = new ArrayDeque<>(List.of(dropped));
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (closure.add(n)) todo.addAll(c.dependentNames(n));
        }
        assertThat(order).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(closure);
        assertThat(order.getLast()).isEqualTo(dropped);

        Catalog now = c;
        for (String n : order) {
            now = switch (now.kindOf(n).orElseThrow()) {
                case TABLE -> now.withoutTable(now.idOf(n));
                case VIEW -> now.withoutView(n);
                case MATERIALIZED_VIEW -> now.withoutMaterializedView(n);
                case INDEX -> now.withoutIndex(n);
            };
            assertConsistent(now);
        }
    }

    static void assertConsistent(Catalog c) {
        for (ViewDef v : c.views()) for (String d : v.dependsOn()) assertThat(c.relationExists(d)).as(v.name() + " reads " + d).isTrue();
        for (MaterializedViewDef m : c.materializedViews()) {
            for (String d : m.dependsOn()) assertThat(c.relationExists(d)).as(m.name() + " reads " + d).isTrue();
        }
        for (IndexDef i : c.indexes()) assertThat(c.idOf(i.onName())).as(i.name() + " on " + i.onName()).isEqualTo(i.onId());
    }

    @Test
    void builtinsHaveFixedSystemIds() {
        assertThat(SystemRelations.all()).allMatch(b -> SystemRelations.isSystem(b.id()));
        assertThat(SystemRelations.all().stream().map(SystemRelations.Builtin::id)).doesNotHaveDuplicates();
        assertThat(SystemRelations.lookup("mz_internal", "mz_wallclock_global_lag").orElseThrow().def().columnNames())
                .containsExactly("object_id", "lag");
        assertThat(SystemRelations.objectId(1001)).isEqualTo("u1001");
        assertThat(SystemRelations.objectId(7)).isEqualTo("s7");
    }
}
