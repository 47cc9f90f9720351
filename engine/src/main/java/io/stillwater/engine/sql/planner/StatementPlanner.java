package io.stillwater.engine.sql.planner;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.calcite.CalciteFrontEnd;
import io.stillwater.engine.sql.parse.CursorParser;
import io.stillwater.engine.sql.parse.CopyParser;
import io.stillwater.engine.sql.parse.TableMaintenanceParser;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns SQL text into a {@link Statement}: the commonest point lookups, literal SELECTs
 * and INSERTs through {@link FastPathPlanner} (when enabled), utility statements (DDL,
 * transaction control, SET/SHOW/RESET) through the utility parser, everything else
 * (SELECT, VALUES, WITH, INSERT, UPDATE, DELETE) through Calcite.
 *
 * <p>Thread-safety: the Calcite configuration is immutable and built once per instance (on first use),
 * and each call plans with its own per-statement objects, so an instance may be shared;
 * one per session is the intended use. Every failure is an
 * {@link io.stillwater.engine.error.SqlException} with a PostgreSQL SQLSTATE.
 */
public final class StatementPlanner {
    private final Function<String, Optional<Statement>> utilityParser;
    private final Supplier<SecurityCatalog> security;
    /**
     * Built on first use (see {@link #calcite()}): a session whose statements all come from
     * the plan cache or the fast path never pays for Calcite's operator tables and rules.
     */
    private volatile CalciteFrontEnd calcite;
    /** Whether {@link FastPathPlanner} is tried first (system parameter {@code enable_fast_path_planning}). */
    private final BooleanSupplier fastPath;

    /** @param utilityParser returns the statement if it is a utility statement, else empty. */
    public StatementPlanner(Function<String, Optional<Statement>> utilityParser) {
        this(utilityParser, SecurityCatalog::empty);
    }

    /**
     * @param security the role catalog now: catalog functions such as pg_get_userbyid and
     *     has_table_privilege answer from it
     */
    public StatementPlanner(Function<String, Optional<Statement>> utilityParser, Supplier<SecurityCatalog> security) {
        this(utilityParser, security, () -> false);
    }

    /**
     * @param fastPath read at every statement: whether the commonest shapes are planned by
     *     {@link FastPathPlanner} without Calcite
     */
    public StatementPlanner(Function<String, Optional<Statement>> utilityParser, Supplier<SecurityCatalog> security,
                            BooleanSupplier fastPath) {
        this.utilityParser = utilityParser;
        this.security = security;
        this.fastPath = fastPath;
    }

    /**
     * Plans one statement (no trailing statements).
     *
     * @param paramHints the client's types for {@code $1..$n} (null or UNKNOWN entries mean
     *     "infer"); parameters no hint and no context determine are text
     */
    public Statement plan(String sql, List<SqlType> paramHints, CatalogView catalog) {
        if (fastPath.getAsBoolean()) {
            Optional<Statement> fast = FastPathPlanner.plan(sql, paramHints == null ? List.of() : paramHints, catalog);
            if (fast.isPresent()) return fast.get();
        }
        OptionalInt explained = UtilityParser.explainedQuery(sql);
        if (explained.isPresent()) return explain(sql, explained.getAsInt(), paramHints, catalog);
        Optional<CursorParser.Declared> declared = CursorParser.declared(sql);
        if (declared.isPresent()) return declareCursor(sql, declared.get(), paramHints, catalog);
        Optional<CopyParser.CopyCommand> copy = CopyParser.parse(sql);
        if (copy.isPresent()) return CopyPlanning.plan(sql, copy.get(), catalog, q -> plan(q, paramHints, catalog));
        Optional<List<String>> truncated = TableMaintenanceParser.truncatedTables(sql);
        if (truncated.isPresent()) return CopyPlanning.truncate(truncated.get(), catalog, q -> plan(q, List.of(), catalog));
        Optional<Statement> utility = utilityParser.apply(sql);
        if (utility.isPresent()) return utility.get();
        if (isBlank(sql)) return new Statement.Empty();
        try {
            String query = stripTrailingSemicolons(sql);
            return DeepStack.plan(() -> calcite().plan(query, paramHints, catalog));
        } catch (SqlException e) {
            if (e.state() != SqlState.SYNTAX_ERROR || DeepStack.overflowed(e)) throw e;
            throw SqliteExtensions.explain(sql).orElse(e);
        }
    }

    /** The Calcite front end, built once by whichever thread needs it first. */
    private CalciteFrontEnd calcite() {
        CalciteFrontEnd c = calcite;
        if (c == null) {
            synchronized (this) {
                c = calcite;
                if (c == null) calcite = c = new CalciteFrontEnd(security);
            }
        }
        return c;
    }

    /**
     * Plans the query of a view being created ({@link Statement.CreateView#query()}) as a
     * SELECT: errors are those of the SELECT. Also returns the tables and views the query
     * names directly, the view's dependencies.
     */
    public CalciteFrontEnd.PlannedView planView(String query, CatalogView catalog) {
        return DeepStack.plan(() -> calcite().planView(query, catalog));
    }

    /**
     * EXPLAIN: plans the query starting at {@code offset} (blank padding keeps error
     * positions pointing into the statement as sent).
     */
    private Statement explain(String sql, int offset, List<SqlType> paramHints, CatalogView catalog) {
        Statement inner = plan(" ".repeat(offset) + sql.substring(offset), paramHints, catalog);
        if (inner instanceof Statement.Query q) return new Statement.Explain(q);
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN of " + inner.commandVerb() + " is not supported");
    }

    /** DECLARE name CURSOR FOR query: plans the query as a SELECT, as {@link #explain} does. */
    private Statement declareCursor(String sql, CursorParser.Declared d, List<SqlType> paramHints, CatalogView catalog) {
        int offset = d.queryOffset();
        Statement inner = plan(" ".repeat(offset) + sql.substring(offset), paramHints, catalog);
        if (inner instanceof Statement.Query q) return new Statement.DeclareCursor(d.name(), d.hold(), q);
        throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: DECLARE CURSOR needs a query, not " + inner.commandVerb());
    }

    /** Only whitespace, semicolons and comments. */
    private static boolean isBlank(String sql) {
        String noComments = sql.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ");
        return stripTrailingSemicolons(noComments).replace(";", " ").isBlank();
    }

    private static String stripTrailingSemicolons(String sql) {
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) end--;
        return sql.substring(0, end);
    }
}
