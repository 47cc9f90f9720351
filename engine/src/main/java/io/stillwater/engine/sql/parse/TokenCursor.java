package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.List;

/**
 * A parser's view of a {@link SqlLexer}: lookahead, marks and word matching. Tokens are
 * lexed on demand, so a statement the utility parser hands to Calcite is never lexed
 * past its first token. Owned by one parse, on one thread.
 */
final class TokenCursor {
    private final SqlLexer lexer;
    private final List<Token> tokens = new ArrayList<>();
    private int index;

    TokenCursor(String sql) { this.lexer = new SqlLexer(sql); }

    String sql() { return lexer.sql(); }

    /** The token {@code ahead} positions from the current one (0 = current). */
    Token peek(int ahead) {
        while (tokens.size() <= index + ahead) {
            if (!tokens.isEmpty() && tokens.getLast().kind() == TokenKind.EOF) return tokens.getLast();
            tokens.add(lexer.next());
        }
        return tokens.get(index + ahead);
    }

    Token peek() { return peek(0); }

    Token next() {
        Token t = peek();
        if (t.kind() != TokenKind.EOF) index++;
        return t;
    }

    int mark() { return index; }

    void reset(int mark) { index = mark; }

    boolean atWord(String word) { return peek().isWord(word); }

    boolean atWords(String... words) {
        for (int i = 0; i < words.length; i++) if (!peek(i).isWord(words[i])) return false;
        return true;
    }

    boolean atSymbol(String symbol) { return peek().isSymbol(symbol); }

    boolean acceptWord(String word) {
        if (!atWord(word)) return false;
        index++;
        return true;
    }

    boolean acceptWords(String... words) {
        if (!atWords(words)) return false;
        index += words.length;
        return true;
    }

    boolean acceptSymbol(String symbol) {
        if (!atSymbol(symbol)) return false;
        index++;
        return true;
    }

    void expectWord(String word) {
        if (!acceptWord(word)) throw syntaxError();
    }

    void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) throw syntaxError();
    }

    /** A syntax error at the current token. */
    SqlSyntaxException syntaxError() { return SqlSyntaxException.at(peek()); }

    /**
     * A column or table name (PostgreSQL's ColId): an identifier or quoted identifier;
     * reserved keywords are a syntax error unless quoted.
     */
    String name() {
        Token t = peek();
        if (t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.QUOTED_IDENTIFIER) {
            index++;
            return t.text();
        }
        throw syntaxError();
    }

    /** An integer constant that fits an int (type modifiers, precisions). */
    int smallInteger() {
        Token t = peek();
        if (t.kind() != TokenKind.INTEGER) throw syntaxError();
        index++;
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            throw SqlSyntaxException.at(t);
        }
    }

    /** After the statement: optional semicolons, then the end of input. */
    void expectEnd() {
        while (acceptSymbol(";")) { }
        if (peek().kind() != TokenKind.EOF) throw syntaxError();
    }

    /**
     * A table name. {@code public.t} is {@code t}: every table lives in the one schema
     * {@code public}, which is what PostgreSQL clients assume by default.
     */
    String tableName() {
        String name = name();
        if (acceptSymbol(".")) {
            String schema = name;
            name = name();
            if (atSymbol(".")) throw syntaxError();
            if (!schema.equals("public")) {
                throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "schema \"%s\" is not supported: tables live in schema \"public\"", schema);
            }
        }
        return name;
    }

    /** A cluster name: an identifier, or the reserved word {@code default} (Materialize's default cluster). */
    String clusterName() {
        if (acceptWord("default")) return "default";
        return name();
    }
}
