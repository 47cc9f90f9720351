package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement.ObjectKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** PostgreSQL's rules for replacing and dropping views, over an immutable {@link Catalog}. */
public final class ViewRules {
    private ViewRules() {}

    /** 42809 for a name that exists as the other kind of relation ({@code DROP VIEW t} on a table). */
    public static SqlException wrongKind(String name, ObjectKind wanted) {
        String other = wanted == ObjectKind.VIEW ? "TABLE" : "VIEW";
        String otherWord = wanted == ObjectKind.VIEW ? "a table" : "a view";
        return new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a " + wanted.word(), null,
                "Use DROP " + other + " to remove " + otherWord + ".");
    }

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
            if (seen.add(n)) catalog.view(n).ifPresent(v -> todo.addAll(v.dependsOn()));
        }
    }

    /**
     * The names to remove, dependents before what they read, for dropping {@code targets}.
     * Without {@code cascade}, 2BP01 if a view not among the targets depends on one of
     * them, with PostgreSQL's detail (one line per dependency) and hint.
     */
    public static List<String> dropOrder(Catalog catalog, List<String> targets, boolean cascade) {
        Set<String> order = new LinkedHashSet<>();
        for (String t : targets) {
            List<String> edges = new ArrayList<>();
            Set<String> reached = new LinkedHashSet<>();
            collect(catalog, t, reached, edges);
            if (!cascade) {
                boolean outside = reached.stream().anyMatch(r -> !r.equals(t) && !targets.contains(r));
                if (outside) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop " + kindOf(catalog, t) + " " + t + " because other objects depend on it",
                            String.join("\n", edges), "Use DROP ... CASCADE to drop the dependent objects too.");
                }
            }
        }
        Set<String> visited = new HashSet<>();
        for (String t : targets) postOrder(catalog, t, visited, order);
        return List.copyOf(order);
    }

    private static void collect(Catalog catalog, String name, Set<String> reached, List<String> edges) {
        if (!reached.add(name)) return;
        for (ViewDef d : catalog.directDependents(name)) {
            edges.add("view " + d.name() + " depends on " + kindOf(catalog, name) + " " + name);
            collect(catalog, d.name(), reached, edges);
        }
    }

    private static void postOrder(Catalog catalog, String name, Set<String> visited, Set<String> order) {
        if (!visited.add(name)) return;
        for (ViewDef d : catalog.directDependents(name)) postOrder(catalog, d.name(), visited, order);
        order.add(name);
    }

    private static String kindOf(Catalog catalog, String name) {
        return catalog.table(name).isPresent() ? "table" : "view";
    }
}
