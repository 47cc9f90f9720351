package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * PostgreSQL's scoping of JOIN ... ON against comma-separated FROM items: in
 * {@code FROM a1, b1 JOIN g ON a1.x = g.a} the ON clause sees only {@code b1} and {@code g}
 * (a comma binds looser than JOIN), and naming {@code a1} there is 42P01 "invalid reference
 * to FROM-clause entry". Calcite reports it as an unknown table; this check, run on the
 * parsed statement before validation, gives PostgreSQL's error and hint instead.
 */
final class FromClauseReferences {
    private FromClauseReferences() {}

    static void check(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) checkFrom(select.getFrom());
                return super.visit(call);
            }
        });
    }

    private static void checkFrom(SqlNode from) {
        List<SqlNode> items = new ArrayList<>();
        commaItems(from, items);
        if (items.size() < 2) return;
        for (int i = 0; i < items.size(); i++) {
            Set<String> before = new HashSet<>();
            Set<String> after = new HashSet<>();
            for (int k = 0; k < items.size(); k++) if (k != i) aliases(items.get(k), k < i ? before : after);
            Set<String> own = new HashSet<>();
            aliases(items.get(i), own);
            checkJoins(items.get(i), own, before, after);
        }
    }

    /** The items of a FROM list: the operands of its comma joins (which Calcite parses as joins). */
    private static void commaItems(SqlNode from, List<SqlNode> out) {
        if (from instanceof SqlJoin j && j.getJoinType() == JoinType.COMMA) {
            commaItems(j.getLeft(), out);
            commaItems(j.getRight(), out);
        } else {
            out.add(from);
        }
    }

    /**
     * @param before the names of the FROM items left of this one (in the query's namespace,
     *     but not visible here: "invalid reference")
     * @param after those right of it (not added yet when PostgreSQL reads this ON: "missing")
     */
    private static void checkJoins(SqlNode item, Set<String> visible, Set<String> before, Set<String> after) {
        if (!(item instanceof SqlJoin j)) return;
        checkJoins(j.getLeft(), visible, before, after);
        checkJoins(j.getRight(), visible, before, after);
        if (j.getCondition() == null) return;
        j.getCondition().accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.names.size() < 2) return null;
                String table = id.names.get(id.names.size() - 2);
                if (visible.contains(table)) return null;
                if (after.contains(table) && !before.contains(table)) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE, "missing FROM-clause entry for table \"" + table + "\"");
                }
                if (before.contains(table)) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE,
                            "invalid reference to FROM-clause entry for table \"" + table + "\"", null,
                            "There is an entry for table \"" + table
                                    + "\", but it cannot be referenced from this part of the query.");
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                // A subquery in ON has its own FROM; its names are checked where it is.
                if (call.getKind() == SqlKind.SELECT) return null;
                return super.visit(call);
            }
        });
    }

    /** The names an item makes visible: table names, aliases, and both sides of a join. */
    private static void aliases(SqlNode item, Set<String> out) {
        switch (item) {
            case SqlJoin j -> {
                aliases(j.getLeft(), out);
                aliases(j.getRight(), out);
            }
            case SqlIdentifier id -> out.add(id.names.get(id.names.size() - 1));
            case SqlCall c when c.getKind() == SqlKind.AS -> {
                if (c.operand(1) instanceof SqlIdentifier alias) out.add(alias.getSimple());
            }
            default -> { }
        }
    }
}
