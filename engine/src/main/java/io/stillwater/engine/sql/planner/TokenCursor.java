package io.stillwater.engine.sql.planner;

import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.util.List;

/**
 * A read position in one statement's tokens, for {@link FastPathPlanner}'s matchers:
 * each {@code accept...} consumes the next token only when it is what was asked for, so
 * a matcher reads like the grammar it accepts and gives up (returns empty) at the first
 * token it does not expect.
 *
 * <p>Not thread-safe: one per statement, on the planning thread.
 */
final class TokenCursor {
    private final List<Token> tokens;
    private int at;

    TokenCursor(List<Token> tokens) { this.tokens = tokens; }

    Token peek() { return tokens.get(at); }

    /** The next token, consumed (the lexer's list ends with EOF, which is never passed). */
    Token next() {
        Token t = tokens.get(at);
        if (t.kind() != TokenKind.EOF) at++;
        return t;
    }

    boolean acceptWord(String word) {
        if (!peek().isWord(word)) return false;
        at++;
        return true;
    }

    boolean acceptSymbol(String symbol) {
        if (!peek().isSymbol(symbol)) return false;
        at++;
        return true;
    }

    /** An unquoted identifier (folded to lower case by the lexer), or null. */
    String acceptIdentifier() {
        Token t = peek();
        if (t.kind() != TokenKind.IDENTIFIER) return null;
        at++;
        return t.text();
    }

    /** Whether only semicolons remain: the statement is over. */
    boolean atEnd() {
        int i = at;
        while (tokens.get(i).isSymbol(";")) i++;
        return tokens.get(i).kind() == TokenKind.EOF;
    }
}
