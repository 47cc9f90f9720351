package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.util.List;

/**
 * The spellings psql and drivers use around PostgreSQL's catalog that Calcite's grammar
 * lacks, recognised on tokens for {@link PgTokens}:
 * <ul>
 *   <li>{@code OPERATOR(pg_catalog.~)} (any schema, any operator) is the bare operator;
 *   <li>{@code COLLATE pg_catalog.default} and {@code COLLATE "default"} ask for the
 *       default collation, which is the only one: they are dropped;
 *   <li>a {@code pg_catalog.} qualifier of a function, type or relation is dropped:
 *       {@code pg_catalog} is searched before the user's schema (as in PostgreSQL), and
 *       function and type names are global, so the name means the same without it.
 * </ul>
 * Stateless.
 */
final class PgCatalogSyntax {
    private PgCatalogSyntax() {}

    /** The index of the last token of such a spelling starting at token {@code i}, or -1 when none starts there. */
    static int match(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        if (t.isWord("operator") && symbol(tokens, i + 1, "(")) {
            int j = i + 2;
            if (word(tokens, j) && symbol(tokens, j + 1, ".")) j += 2;
            int close = j;
            while (close < tokens.size() && tokens.get(close).kind() == TokenKind.OPERATOR) close++;
            if (close > j && symbol(tokens, close, ")")) return close;
            return -1;
        }
        if (t.isWord("collate")) {
            if (isPgCatalog(tokens, i + 1) && symbol(tokens, i + 2, ".") && isDefault(tokens, i + 3)) return i + 3;
            if (isDefault(tokens, i + 1)) return i + 1;
            return -1;
        }
        if (isPgCatalog(tokens, i) && symbol(tokens, i + 1, ".") && word(tokens, i + 2)
                && !(i > 0 && tokens.get(i - 1).isSymbol("."))) {
            return i + 1;
        }
        return -1;
    }

    /** The text that replaces tokens {@code [i, last]}. */
    static String replacement(List<Token> tokens, int i, int last) {
        Token t = tokens.get(i);
        if (t.isWord("operator")) {
            StringBuilder op = new StringBuilder();
            int j = last - 1;
            while (j > i && tokens.get(j).kind() == TokenKind.OPERATOR) j--;
            for (int k = j + 1; k < last; k++) op.append(tokens.get(k).source());
            return " " + op + " ";
        }
        return t.isWord("collate") ? " " : "";
    }

    private static boolean isPgCatalog(List<Token> tokens, int i) {
        return word(tokens, i) && tokens.get(i).text().equals("pg_catalog");
    }

    private static boolean isDefault(List<Token> tokens, int i) {
        return word(tokens, i) && tokens.get(i).text().equals("default");
    }

    private static boolean word(List<Token> tokens, int i) {
        if (i >= tokens.size()) return false;
        TokenKind k = tokens.get(i).kind();
        return k == TokenKind.IDENTIFIER || k == TokenKind.KEYWORD || k == TokenKind.QUOTED_IDENTIFIER;
    }

    private static boolean symbol(List<Token> tokens, int i, String s) {
        return i < tokens.size() && tokens.get(i).isSymbol(s);
    }
}
