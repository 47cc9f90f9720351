package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The 0A000 errors for statements PostgreSQL, Materialize or SQLite know and Stillwater
 * does not implement, named by their leading words. Part of {@link UtilityParser}.
 */
final class Unsupported {
    private Unsupported() {}

    /** Words between CREATE/DROP/ALTER and the object kind ({@code CREATE OR REPLACE VIEW}). */
    private static final Set<String> OBJECT_MODIFIERS = Set.of(
            "or", "replace", "unique", "default", "temp", "temporary", "unlogged", "materialized", "global",
            "local", "recursive", "foreign", "event", "constraint", "trusted", "procedural");

    /** Object kinds after CREATE/DROP/ALTER. */
    private static final Set<String> OBJECT_KINDS = Set.of(
            "table", "view", "index", "sequence", "schema", "database", "function", "procedure", "trigger",
            "type", "domain", "role", "user", "extension", "cluster", "source", "sink", "connection", "secret",
            "rule", "policy", "aggregate", "operator", "collation", "server", "publication", "subscription",
            "statistics", "language", "cast", "conversion", "tablespace", "group", "transform", "system",
            "owned", "default", "routine", "access", "text", "webhook", "network");

    /**
     * 0A000 naming the statement at the cursor by its leading words, e.g. {@code CREATE
     * TRIGGER}, {@code CREATE MATERIALIZED VIEW}, {@code DROP INDEX}, {@code REPLACE INTO}.
     * An unknown object kind after CREATE/DROP/ALTER is a syntax error at that word.
     */
    static SqlException statementAt(TokenCursor c) {
        Token verb = c.next();
        List<String> words = new ArrayList<>();
        words.add(verb.text());
        switch (verb.text()) {
            case "create", "drop", "alter" -> {
                while (c.peek().kind() == TokenKind.IDENTIFIER || c.peek().kind() == TokenKind.KEYWORD) {
                    String w = c.peek().text();
                    if (OBJECT_MODIFIERS.contains(w) && !OBJECT_KINDS.contains(w)) {
                        words.add(w);
                        c.next();
                    } else if (OBJECT_KINDS.contains(w)) {
                        words.add(w);
                        c.next();
                        // two-word kinds: CLUSTER REPLICA, TEXT SEARCH, ACCESS METHOD, DEFAULT PRIVILEGES
                        if (w.equals("cluster") && c.atWord("replica")
                                || w.equals("text") && c.atWord("search")
                                || w.equals("access") && c.atWord("method")
                                || w.equals("default") && (c.atWord("privileges") || c.atWord("index"))) {
                            words.add(c.next().text());
                        }
                        return named(String.join(" ", words).toUpperCase(Locale.ROOT));
                    } else {
                        break;
                    }
                }
                throw c.syntaxError();
            }
            case "replace" -> {
                if (c.atWord("into")) words.add(c.next().text());
            }
            default -> { }
        }
        return named(String.join(" ", words).toUpperCase(Locale.ROOT));
    }

    static SqlException named(String statement) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, statement + " is not supported");
    }
}
