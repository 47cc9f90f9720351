package io.stillwater.engine.sql.parse;

/**
 * One lexical token. {@code text} is its value (folded identifier, unescaped string,
 * normalised number); {@code source} is the exact input it was read from, used in
 * error messages ({@code syntax error at or near "source"}); {@code offset} is the
 * 0-based char offset of its first character in the lexed string.
 */
public record Token(TokenKind kind, String text, String source, int offset) {
    /** Offset just past the token's last character. */
    public int end() { return offset + source.length(); }

    /** True for an unquoted word (identifier or reserved keyword) spelled {@code word} (lower case). */
    public boolean isWord(String word) {
        return (kind == TokenKind.IDENTIFIER || kind == TokenKind.KEYWORD) && text.equals(word);
    }

    /** True for punctuation or an operator spelled {@code symbol}. */
    public boolean isSymbol(String symbol) {
        return (kind == TokenKind.PUNCTUATION || kind == TokenKind.OPERATOR) && text.equals(symbol);
    }
}
