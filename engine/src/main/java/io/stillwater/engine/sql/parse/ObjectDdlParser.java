package io.stillwater.engine.sql.parse;

import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * CREATE VIEW, CREATE [DEFAULT] INDEX, CREATE MATERIALIZED VIEW, and DROP of tables,
 * views, materialized views and indexes (DROP CLUSTER goes to {@link ClusterDdlParser}).
 * Part of {@link UtilityParser}; stateless.
 */
final class ObjectDdlParser {
    private ObjectDdlParser() {}

    // ---- CREATE VIEW

    /**
     * {@code CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name [(column, ...)] AS query}, the
     * cursor at VIEW. The query is kept as text (everything after AS, without trailing
     * semicolons) and planned by the session.
     */
    static Statement createView(TokenCursor c, boolean orReplace) {
        c.next(); // VIEW
        boolean ifNotExists = ifNotExists(c, orReplace);
        String name = c.tableName();
        List<String> columns = columnNames(c);
        QueryText query = queryAfterAs(c);
        return new Statement.CreateView(name, columns, query.text(), query.offset(), orReplace, ifNotExists);
    }

    /** {@code [IF NOT EXISTS]}, which OR REPLACE excludes (42601 at IF). */
    private static boolean ifNotExists(TokenCursor c, boolean orReplace) {
        int ifAt = c.mark();
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        if (ifNotExists && orReplace) {
            c.reset(ifAt);
            throw new SqlException(SqlState.SYNTAX_ERROR, "cannot specify both OR REPLACE and IF NOT EXISTS");
        }
        return ifNotExists;
    }

    /** {@code [(column, ...)]}: the names, empty when there is no list. */
    private static List<String> columnNames(TokenCursor c) {
        List<String> columns = new ArrayList<>();
        if (c.acceptSymbol("(")) {
            do {
                columns.add(c.name());
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        return columns;
    }

    /** A view's query as text (without trailing semicolons) and the offset where it starts in the statement. */
    private record QueryText(String text, int offset) {}

    /** {@code AS query}: the query is the rest of the statement, all of it consumed here. */
    private static QueryText queryAfterAs(TokenCursor c) {
        c.expectWord("as");
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        String query = c.sql().substring(first.offset()).strip();
        while (query.endsWith(";")) query = query.substring(0, query.length() - 1).strip();
        while (c.peek().kind() != TokenKind.EOF) c.next();
        return new QueryText(query, first.offset());
    }

    // ---- CREATE INDEX / CREATE MATERIALIZED VIEW

    /**
     * Materialize's {@code CREATE [DEFAULT] INDEX [IF NOT EXISTS] [name] [IN CLUSTER c] ON
     * obj [USING arrangement] [(expr, ...)]}, the cursor at INDEX. A DEFAULT index has
     * neither a name nor a key list (its key is every column). Each key expression is
     * kept as SQL text, planned by the coordinator against the object's columns; a
     * trailing ASC/DESC/NULLS FIRST/LAST (PostgreSQL and SQLite scripts) is accepted and
     * dropped, since an arrangement's order does not change any result. A missing key
     * list means every column, as for DEFAULT.
     */
    static Statement createIndex(TokenCursor c, boolean isDefault) {
        c.next(); // INDEX
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        String name = null;
        if (!c.atWord("on") && !c.atWords("in", "cluster")) {
            if (isDefault) throw c.syntaxError();
            name = c.name();
        } else if (ifNotExists && !isDefault) {
            throw c.syntaxError(); // PostgreSQL: IF NOT EXISTS needs an index name
        }
        String cluster = null;
        if (c.acceptWords("in", "cluster")) cluster = c.clusterName();
        c.expectWord("on");
        String on = c.tableName();
        if (c.acceptWord("using")) {
            String m = c.name();
            if (!m.equals("arrangement")) {
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "access method \"" + m + "\" does not exist", null,
                        "Stillwater indexes are arrangements: USING arrangement, or omit USING.");
            }
        }
        List<String> keys = new ArrayList<>();
        if (c.atSymbol("(")) {
            if (isDefault) throw c.syntaxError();
            c.next();
            do {
                keys.add(keyExpression(c));
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        if (c.atWord("where")) throw Unsupported.named("CREATE INDEX ... WHERE");
        if (c.atWord("include")) throw Unsupported.named("CREATE INDEX ... INCLUDE");
        if (c.atWord("with")) throw Unsupported.named("CREATE INDEX ... WITH");
        return new Statement.CreateIndex(name, isDefault || keys.isEmpty(), cluster, on, keys, ifNotExists);
    }

    /** One key expression's text, up to a {@code ,} or {@code )} outside parentheses; ordering words dropped. */
    private static String keyExpression(TokenCursor c) {
        List<Token> tokens = new ArrayList<>();
        int depth = 0;
        while (true) {
            Token t = c.peek();
            if (t.kind() == TokenKind.EOF) throw c.syntaxError();
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) break;
            if (t.isSymbol("(") || t.isSymbol("[")) depth++;
            if (t.isSymbol(")") || t.isSymbol("]")) depth--;
            tokens.add(c.next());
        }
        int n = tokens.size();
        if (n >= 2 && tokens.get(n - 2).isWord("nulls") && (tokens.get(n - 1).isWord("first") || tokens.get(n - 1).isWord("last"))) {
            n -= 2;
        }
        if (n >= 1 && (tokens.get(n - 1).isWord("asc") || tokens.get(n - 1).isWord("desc"))) n--;
        if (n == 0) throw SqlSyntaxException.at(tokens.isEmpty() ? c.peek() : tokens.get(0));
        return c.sql().substring(tokens.get(0).offset(), tokens.get(n - 1).end());
    }

    /**
     * {@code CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(column, ...)] [IN
     * CLUSTER c] AS query}, the cursor at MATERIALIZED. The query is kept as text, as for
     * {@link #createView}.
     */
    static Statement createMaterializedView(TokenCursor c, boolean orReplace) {
        c.next(); // MATERIALIZED
        c.next(); // VIEW
        boolean ifNotExists = ifNotExists(c, orReplace);
        String name = c.tableName();
        List<String> columns = columnNames(c);
        String cluster = null;
        if (c.acceptWords("in", "cluster")) cluster = c.clusterName();
        if (c.atWord("with")) throw Unsupported.named("CREATE MATERIALIZED VIEW ... WITH");
        QueryText query = queryAfterAs(c);
        return new Statement.CreateMaterializedView(name, columns, cluster, query.text(), query.offset(), orReplace,
                ifNotExists);
    }

    // ---- DROP TABLE / VIEW / MATERIALIZED VIEW / INDEX

    static Statement drop(TokenCursor c) {
        int start = c.mark();
        c.next(); // DROP
        if (c.atWord("cluster")) return ClusterDdlParser.dropCluster(c);
        ObjectKind kind;
        if (c.atWord("table")) kind = ObjectKind.TABLE;
        else if (c.atWord("view")) kind = ObjectKind.VIEW;
        else if (c.atWord("index")) kind = ObjectKind.INDEX;
        else if (c.atWords("materialized", "view")) {
            kind = ObjectKind.MATERIALIZED_VIEW;
            c.next();
        } else {
            c.reset(start);
            throw Unsupported.statementAt(c);
        }
        c.next();
        if (kind == ObjectKind.INDEX && c.atWord("concurrently")) throw Unsupported.named("DROP INDEX CONCURRENTLY");
        boolean ifExists = c.acceptWords("if", "exists");
        List<String> names = new ArrayList<>();
        do {
            names.add(c.tableName());
        } while (c.acceptSymbol(","));
        boolean cascade = c.acceptWord("cascade");
        if (!cascade) c.acceptWord("restrict");
        return switch (kind) {
            case VIEW -> new Statement.DropView(List.copyOf(names), ifExists, cascade);
            case TABLE -> new Statement.DropTable(List.copyOf(names), ifExists, cascade);
            default -> new Statement.DropObjects(kind, names, ifExists, cascade);
        };
    }
}
