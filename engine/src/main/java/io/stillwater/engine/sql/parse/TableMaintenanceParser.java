package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * TRUNCATE, VACUUM and ANALYZE, and the storage parameters of {@code CREATE TABLE ...
 * WITH (...)}; part of {@link UtilityParser}.
 * <pre>
 * TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]
 * VACUUM [(option [value], ...)] [FULL] [FREEZE] [VERBOSE] [ANALYZE] [table [(columns)], ...]
 * ANALYZE [(option [value], ...)] [VERBOSE] [table [(columns)], ...]
 * </pre>
 * TRUNCATE's tables are resolved by {@code sql.planner}; VACUUM and ANALYZE do nothing.
 */
public final class TableMaintenanceParser {
    private TableMaintenanceParser() {}

    /** The tables of a TRUNCATE, or empty when {@code sql} is not one. */
    public static Optional<List<String>> truncatedTables(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        if (!c.acceptWord("truncate")) return Optional.empty();
        c.acceptWord("table");
        List<String> names = new ArrayList<>();
        do {
            c.acceptWord("only");
            names.add(c.tableName());
            c.acceptSymbol("*");
        } while (c.acceptSymbol(","));
        if (c.acceptWord("restart") || c.acceptWord("continue")) c.expectWord("identity");
        if (c.atWord("cascade")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "TRUNCATE ... CASCADE is not supported", null,
                    "Stillwater has no foreign keys, so RESTRICT (the default) already truncates everything named.");
        }
        c.acceptWord("restrict");
        c.expectEnd();
        return Optional.of(names);
    }

    /** At VACUUM or ANALYZE (or ANALYSE). */
    static Statement maintenance(TokenCursor c) {
        String verb = c.next().text().equals("vacuum") ? "VACUUM" : "ANALYZE";
        if (c.acceptSymbol("(")) {
            do {
                Token option = c.next(); // a word, reserved ones (ANALYZE) included
                if (option.kind() != TokenKind.IDENTIFIER && option.kind() != TokenKind.KEYWORD) {
                    throw SqlSyntaxException.at(option);
                }
                if (!c.atSymbol(",") && !c.atSymbol(")")) c.next(); // the option's value
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        while (c.acceptWord("full") || c.acceptWord("freeze") || c.acceptWord("verbose") || c.acceptWord("analyze")
                || c.acceptWord("analyse")) { }
        List<String> tables = new ArrayList<>();
        if (c.peek().kind() != TokenKind.EOF && !c.atSymbol(";")) {
            do {
                tables.add(c.tableName());
                if (c.acceptSymbol("(")) {
                    do {
                        c.name();
                    } while (c.acceptSymbol(","));
                    c.expectSymbol(")");
                }
            } while (c.acceptSymbol(","));
        }
        return new Statement.Maintenance(verb, tables);
    }

    /** Storage parameters PostgreSQL 15 knows for tables; they mean nothing here and are ignored. */
    private static final Set<String> STORAGE_PARAMETERS = Set.of("fillfactor", "toast_tuple_target",
            "parallel_workers", "autovacuum_enabled", "vacuum_index_cleanup", "vacuum_truncate",
            "log_autovacuum_min_duration", "user_catalog_table");

    /**
     * At {@code WITH} after CREATE TABLE's columns: skips {@code WITH (name [= value], ...)}
     * of known storage parameters (22023 {@code unrecognized parameter} for others, as
     * PostgreSQL). {@code WITH OIDS} is 0A000.
     */
    static void storageParameters(TokenCursor c) {
        c.expectWord("with");
        if (!c.atSymbol("(")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "CREATE TABLE ... WITH " + c.peek().source().toUpperCase(Locale.ROOT) + " is not supported");
        }
        c.next();
        do {
            String name = c.name();
            if (c.acceptSymbol(".")) name = name + "." + c.name();
            if (!STORAGE_PARAMETERS.contains(name) && !name.startsWith("autovacuum_") && !name.startsWith("toast.")) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + name + "\"");
            }
            if (c.acceptSymbol("=")) c.next(); // the value (none: true)
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
    }
}
