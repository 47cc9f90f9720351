package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** PostgreSQL's rules for replacing views and dropping objects of every kind, over an immutable {@link Catalog}. */
public final class ViewRules {
    private ViewRules() {}

    /** 42809 for a name that exists as the other kind of relation ({@code DROP VIEW t} on a table). */
    public static SqlException wrongKind(String name, ObjectKind wanted) {
        return wrongKind(name, wanted, wanted == ObjectKind.VIEW ? ObjectKind.TABLE : ObjectKind.VIEW);
    }

    /**
     * 42809 for {@code name}, which is a {@code actual} where a {@code wanted} was named:
     * PostgreSQL's {@code "i" is not a view} with the hint naming the right DROP.
     */
    public static SqlException wrongKind(String name, ObjectKind wanted, ObjectKind actual) {
        String article = actual == ObjectKind.INDEX ? "an " : "a ";
        return new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not " + article(wanted) + wanted.word(),
                null, "Use DROP " + actual.word().toUpperCase(Locale.ROOT) + " to remove " + article
                        + actual.word() + ".");
    }

    private static String article(ObjectKind k) { return k == ObjectKind.INDEX ? "an " : "a "; }

    /**
     * CREATE OR REPLACE VIEW may only add columns at the end: 42P16 when it drops one,
     * renames one or changes its type (PostgreSQL's messages).
     */
    public static void checkReplacement(ViewDef old, ViewDef now) {
        if (now.columnNames().size() < old.columnNames().size()) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "cannot drop columns from view");
        }
        for (int i = 0; i < old.columnNames().size(); i++) {
            String was = old.columnNames().get(i);
            String is = now.columnNames().get(i);
            if (!was.equals(is)) {
                throw new SqlException(SqlState.INVALID_TABLE_DEFINITION,
                        "cannot change name of view column \"" + was + "\" to \"" + is + "\"", null,
                        "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
            }
            if (!old.columnTypes().get(i).equals(now.columnTypes().get(i))) {
                throw new SqlException(SqlState.INVALID_TABLE_DEFINITION,
                        "cannot change data type of view column \"" + was + "\" from " + old.columnTypes().get(i)
                                + " to " + now.columnTypes().get(i));
            }
        }
    }

    /**
     * CREATE OR REPLACE VIEW {@code name}: 2BP01 while an index or materialized view
     * depends on the view, directly or through other views. Their dataflows were built
     * from the old definition and would silently keep maintaining it (plain views re-plan
     * at every use and are no obstacle). Like Materialize, which refuses to replace a
     * view with dependents.
     */
    public static void checkReplaceable(Catalog catalog, String name) {
        List<Edge> edges = new ArrayList<>();
        Set<String> reached = new LinkedHashSet<>();
        collect(catalog, name, reached, edges);
        List<String> blocking = reached.stream().filter(n -> catalog.kindOf(n)
                .filter(k -> k == ObjectKind.INDEX || k == ObjectKind.MATERIALIZED_VIEW).isPresent()).toList();
        if (blocking.isEmpty()) return;
        throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot replace view " + name + " because indexes or materialized views depend on it",
                String.join("\n", edges.stream().map(Edge::describe).toList()), "Drop them first, or DROP VIEW " + name + " CASCADE and create it again.");
    }

    /** 42P17 if {@code view} would read itself, directly or through other views. */
    public static void checkNoCycle(Catalog catalog, ViewDef view) {
        Deque<String> todo = new ArrayDeque<>(view.dependsOn());
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (n.equals(view.name())) {
                throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION,
                        "infinite recursion detected in rules for relation \"" + view.name() + "\"");
            }
            if (seen.add(n)) {
                catalog.view(n).ifPresent(v -> todo.addAll(v.dependsOn()));
                catalog.materializedView(n).ifPresent(m -> todo.addAll(m.dependsOn()));
            }
        }
    }

    /**
     * The names to remove, dependents before what they read, for dropping {@code targets}.
     * Dependents are views and materialized views reading an object and indexes on it.
     * Without {@code cascade}, 2BP01 if an object not among the targets depends on one of
     * them, with PostgreSQL's detail (one line per dependency) and hint. Unlike
     * PostgreSQL, and like Materialize, a table's indexes are dependents too: DROP TABLE
     * of an indexed table needs CASCADE.
     */
    public static List<String> dropOrder(Catalog catalog, List<String> targets, boolean cascade) {
        Set<String> order = new LinkedHashSet<>();
        for (String t : targets) {
            List<Edge> edges = new ArrayList<>();
            Set<String> reached = new LinkedHashSet<>();
            collect(catalog, t, reached, edges);
            if (!cascade) {
                // Like Materialize (and PostgreSQL), RESTRICT refuses only non-index
                // dependents: an object's own indexes are dropped with it.
                boolean outside = reached.stream().anyMatch(r -> !r.equals(t) && !targets.contains(r)
                        && !isIndexOnAny(catalog, r, targets));
                if (outside) {
                    List<String> blocking = edges.stream()
                            .filter(e -> !isIndexOnAny(catalog, e.dependent(), targets))
                            .map(Edge::describe).toList();
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop " + kindOf(catalog, t) + " " + t + " because other objects depend on it",
                            String.join("\n", blocking), "Use DROP ... CASCADE to drop the dependent objects too.");
                }
            }
        }
        Set<String> visited = new HashSet<>();
        for (String t : targets) postOrder(catalog, t, visited, order);
        return List.copyOf(order);
    }

    private static boolean isIndexOnAny(Catalog catalog, String name, List<String> objects) {
        return catalog.index(name).map(i -> objects.contains(i.onName())).orElse(false);
    }

    /** {@code dependent} reads {@code dependency}; described for error details. */
    private record Edge(String dependent, String dependency, String describe) {}

    private static void collect(Catalog catalog, String name, Set<String> reached, List<Edge> edges) {
        if (!reached.add(name)) return;
        for (String d : catalog.dependentNames(name)) {
            edges.add(new Edge(d, name, kindOf(catalog, d) + " " + d + " depends on " + kindOf(catalog, name) + " " + name));
            collect(catalog, d, reached, edges);
        }
    }

    private static void postOrder(Catalog catalog, String name, Set<String> visited, Set<String> order) {
        if (!visited.add(name)) return;
        for (String d : catalog.dependentNames(name)) postOrder(catalog, d, visited, order);
        order.add(name);
    }

    private static String kindOf(Catalog catalog, String name) {
        return catalog.kindOf(name).map(ObjectKind::word).orElse("relation");
    }
}
