package io.stillwater.engine.sql.planner;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CopyOptions;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.parse.CopyParser.CopyCommand;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Resolves a parsed COPY against the catalog: COPY FROM names a table and its columns
 * (42P01, 42809, 42703, 42701 as PostgreSQL); COPY TO becomes a query, {@code SELECT
 * columns FROM table} or the statement's own {@code (query)}, planned like any SELECT.
 * The FORCE_* column lists must name copied columns (42P10). Also TRUNCATE, which is a
 * {@code DELETE FROM t} of each table named. Stateless.
 */
final class CopyPlanning {
    private CopyPlanning() {}

    /**
     * @param planQuery plans a SELECT's text (blank-padded so error positions point into
     *                  the COPY statement)
     */
    static Statement plan(String sql, CopyCommand copy, CatalogView catalog, Function<String, Statement> planQuery) {
        CopyOptions options = copy.options();
        if (copy.from()) {
            TableDef table = table(copy.table(), catalog, true);
            int[] columns = columnIndexes(table, copy.columns());
            List<String> names = new ArrayList<>();
            for (int c : columns) names.add(table.columns().get(c).name());
            checkForced(options.forceNotNull(), names, "FORCE_NOT_NULL");
            checkForced(options.forceNull(), names, "FORCE_NULL");
            return new Statement.CopyFrom(table, columns, options);
        }
        String querySql;
        if (copy.ofQuery()) {
            querySql = " ".repeat(copy.queryStart()) + sql.substring(copy.queryStart(), copy.queryEnd());
        } else {
            TableDef table = table(copy.table(), catalog, false);
            int[] columns = columnIndexes(table, copy.columns());
            StringBuilder select = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.length; i++) {
                if (i > 0) select.append(", ");
                select.append(quote(table.columns().get(columns[i]).name()));
            }
            querySql = select.append(" FROM ").append(quote(table.name())).toString();
        }
        Statement planned = planQuery.apply(querySql);
        if (!(planned instanceof Statement.Query q)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "COPY (" + planned.commandVerb() + " ...) TO is not supported", null,
                    "COPY TO copies the rows of a table or of a SELECT.");
        }
        List<String> names = q.plan().columnNames();
        checkForced(options.forceQuote(), names, "FORCE_QUOTE");
        return new Statement.CopyTo(q, names, options);
    }

    private static TableDef table(String name, CatalogView catalog, boolean from) {
        var table = catalog.table(name);
        if (table.isPresent()) return table.get();
        if (catalog.view(name).isPresent() || catalog.materializedView(name).isPresent()) {
            String kind = catalog.view(name).isPresent() ? "view" : "materialized view";
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE,
                    "cannot copy " + (from ? "to " : "from ") + kind + " \"" + name + "\"", null,
                    from ? null : "Try the COPY (SELECT ...) TO variant.");
        }
        throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
    }

    private static int[] columnIndexes(TableDef table, List<String> names) {
        if (names.isEmpty()) {
            int[] all = new int[table.columns().size()];
            for (int i = 0; i < all.length; i++) all[i] = i;
            return all;
        }
        int[] out = new int[names.size()];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            int idx = table.columnIndex(n).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_COLUMN,
                    "column \"" + n + "\" of relation \"" + table.name() + "\" does not exist"));
            if (!seen.add(idx)) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + n + "\" specified more than once");
            }
            out[i] = idx;
        }
        return out;
    }

    private static void checkForced(List<String> forced, List<String> copied, String option) {
        for (String f : forced) {
            if (!copied.contains(f)) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE,
                        option + " column \"" + f + "\" not referenced by COPY");
            }
        }
    }

    private static String quote(String identifier) { return "\"" + identifier.replace("\"", "\"\"") + "\""; }

    /** TRUNCATE a, b: {@code DELETE FROM} each (42P01 for a missing table, 42809 for a view). */
    static Statement truncate(List<String> names, CatalogView catalog, Function<String, Statement> planDelete) {
        List<Statement.Delete> deletes = new ArrayList<>();
        for (String name : names) {
            if (catalog.table(name).isEmpty()) {
                if (catalog.view(name).isPresent() || catalog.materializedView(name).isPresent()) {
                    throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table");
                }
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
            }
            deletes.add((Statement.Delete) planDelete.apply("DELETE FROM " + quote(name)));
        }
        return new Statement.Truncate(deletes);
    }
}
