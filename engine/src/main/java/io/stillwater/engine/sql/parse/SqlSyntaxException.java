package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/**
 * A lexical or syntax error (SQLSTATE 42601) with the place it was found, for the
 * ErrorResponse position field.
 */
public final class SqlSyntaxException extends SqlException {
    private final int offset;

    public SqlSyntaxException(String message, int offset) {
        super(SqlState.SYNTAX_ERROR, message);
        this.offset = offset;
    }

    /** 0-based char offset of the offending token in the statement text. */
    public int offset() { return offset; }

    /** 1-based character position, as PostgreSQL reports it in the ErrorResponse 'P' field. */
    public int position() { return offset + 1; }

    /** {@code syntax error at or near "source"}, or {@code at end of input} for the EOF token. */
    static SqlSyntaxException at(Token token) {
        if (token.kind() == TokenKind.EOF) return new SqlSyntaxException("syntax error at end of input", token.offset());
        return new SqlSyntaxException("syntax error at or near \"" + token.source() + "\"", token.offset());
    }
}
