package io.stillwater.engine.sql.parse;

/** The lexical classes of PostgreSQL's SQL lexer that {@link SqlLexer} produces. */
public enum TokenKind {
    /** An unquoted identifier or non-reserved keyword; its text is folded to lower case. */
    IDENTIFIER,
    /** A PostgreSQL reserved keyword ({@code select}, {@code table}, {@code null}, ...), lower case. */
    KEYWORD,
    /** A {@code "quoted"} or {@code U&"quoted"} identifier; its text is kept exactly, escapes resolved. */
    QUOTED_IDENTIFIER,
    /** An integer constant; its text is the decimal value (hex/octal/binary converted, underscores removed). */
    INTEGER,
    /** A decimal constant with a point and/or an exponent; its text has underscores removed. */
    DECIMAL,
    /** A string constant ({@code '..'}, {@code E'..'}, {@code U&'..'}, {@code N'..'}, {@code $tag$..$tag$}); text is its value. */
    STRING,
    /** A bit-string constant {@code B'0101'} or {@code X'1F'}; text is {@code b0101} / {@code x1F} as in PostgreSQL. */
    BIT_STRING,
    /** A positional parameter {@code $n}; text is the digits. */
    PARAMETER,
    /** An operator made of {@code + - * / < > = ~ ! @ # % ^ & | ` ?}. */
    OPERATOR,
    /** {@code , ( ) [ ] ; . : :: .. :=}. */
    PUNCTUATION,
    /** Any other single character (e.g. a stray {@code $} or {@code \}); the grammar never accepts it. */
    OTHER,
    /** End of input. */
    EOF
}
