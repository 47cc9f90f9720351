package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Casts;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Set;

/**
 * Reads the constant after {@code DEFAULT} in a column definition and coerces it to the
 * column's type. Stillwater column defaults are constants, evaluated once at CREATE
 * TABLE: a number (optionally signed), a string, TRUE/FALSE/NULL, a typed literal
 * ({@code DATE '2024-01-01'}, {@code '1 day'::interval}, {@code CAST(1 AS bigint)}),
 * possibly parenthesised. Anything else (functions, {@code CURRENT_TIMESTAMP},
 * operators) is 0A000, because a default that must be re-evaluated per row is not
 * implemented.
 *
 * <p>Literal typing follows PostgreSQL: an integer is {@code integer}, {@code bigint} or
 * {@code numeric} by size; a number with a point or exponent is {@code numeric}; a quoted
 * string is of unknown type until the context (a cast or the column) gives it one, when
 * it is read with that type's input function.
 */
final class DefaultConstant {
    private DefaultConstant() {}

    static final String NOT_CONSTANT = "DEFAULT expressions that are not constants are not supported";

    /** Words that may continue an expression after a constant (b_expr operators spelled as words). */
    private static final Set<String> EXPRESSION_WORDS = Set.of(
            "and", "or", "is", "isnull", "notnull", "between", "like", "ilike", "similar", "in", "at", "overlaps");

    /** A constant value and its type; {@link SqlType#UNKNOWN} for NULL and for an unresolved string. */
    private record Typed(Object value, SqlType type) {}

    /** Parses the DEFAULT constant at the cursor and returns it coerced to {@code columnType}. */
    static Object parse(TokenCursor c, SqlType columnType) {
        Typed constant = expression(c);
        return assign(constant, columnType);
    }

    private static Typed expression(TokenCursor c) {
        Typed value = primary(c);
        while (c.acceptSymbol("::")) value = cast(value, TypeNames.parse(c));
        Token next = c.peek();
        if (next.kind() == TokenKind.OPERATOR || next.isSymbol("[") || next.isSymbol("(") || next.isSymbol(".")
                || ((next.kind() == TokenKind.IDENTIFIER || next.kind() == TokenKind.KEYWORD)
                        && EXPRESSION_WORDS.contains(next.text()))) {
            throw notConstant();
        }
        return value;
    }

    private static Typed primary(TokenCursor c) {
        boolean negate = false;
        boolean signed = false;
        while (c.peek().isSymbol("-") || c.peek().isSymbol("+")) {
            if (c.next().text().equals("-")) negate = !negate;
            signed = true;
        }
        Token t = c.peek();
        switch (t.kind()) {
            case INTEGER, DECIMAL -> {
                c.next();
                return number(t, negate);
            }
            case STRING -> {
                if (signed) throw notConstant();
                c.next();
                return new Typed(t.text(), SqlType.UNKNOWN);
            }
            case BIT_STRING -> throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "bit string constants are not supported");
            case PARAMETER -> throw notConstant();
            case EOF -> throw c.syntaxError();
            default -> { }
        }
        if (signed) throw notConstant();
        if (c.acceptSymbol("(")) {
            Typed inner = expression(c);
            c.expectSymbol(")");
            return inner;
        }
        if (c.acceptWord("true")) return new Typed(Boolean.TRUE, SqlType.BOOLEAN);
        if (c.acceptWord("false")) return new Typed(Boolean.FALSE, SqlType.BOOLEAN);
        if (c.acceptWord("null")) return new Typed(null, SqlType.UNKNOWN);
        if (c.atWord("cast") && c.peek(1).isSymbol("(")) {
            c.next();
            c.next();
            Typed inner = expression(c);
            c.expectWord("as");
            SqlType type = TypeNames.parse(c);
            c.expectSymbol(")");
            return cast(inner, type);
        }
        if (t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.QUOTED_IDENTIFIER) {
            // A typed literal: type 'string' (DATE '2024-01-01', timestamp with time zone '...').
            int mark = c.mark();
            try {
                SqlType type = TypeNames.parse(c);
                if (c.peek().kind() == TokenKind.STRING) {
                    return cast(new Typed(c.next().text(), SqlType.UNKNOWN), type);
                }
            } catch (SqlException notAType) {
                // Not a type name: a function call or column reference, reported below.
            }
            c.reset(mark);
            throw notConstant();
        }
        if (t.kind() == TokenKind.KEYWORD && !t.text().equals("not")) {
            // CURRENT_TIMESTAMP, CURRENT_DATE, LOCALTIME, USER, CASE ..., ARRAY[...]
            if (!Set.of("default", "primary", "unique", "check", "constraint", "references", "collate")
                    .contains(t.text())) {
                throw notConstant();
            }
        }
        throw c.syntaxError();
    }

    /** An integer constant is int4, int8 or numeric by size; one with a point or exponent is numeric. */
    private static Typed number(Token t, boolean negate) {
        if (t.kind() == TokenKind.INTEGER) {
            BigInteger v = new BigInteger(t.text());
            if (negate) v = v.negate();
            if (v.bitLength() < 32) return new Typed(v.intValue(), SqlType.INTEGER);
            if (v.bitLength() < 64) return new Typed(v.longValue(), SqlType.BIGINT);
            return new Typed(new BigDecimal(v), SqlType.NUMERIC);
        }
        BigDecimal d = new BigDecimal(t.text());
        if (d.scale() < 0) d = d.setScale(0); // 1e3 is 1000, not 1E+3
        return new Typed(negate ? d.negate() : d, SqlType.NUMERIC);
    }

    /** An explicit cast ({@code ::}, CAST, typed literal): strings go through the input function. */
    private static Typed cast(Typed value, SqlType to) {
        if (value.value() == null) return new Typed(null, to);
        if (value.type().kind() == TypeKind.UNKNOWN) {
            SqlType base = SqlType.of(to.kind());
            Object read = input(base, (String) value.value());
            return new Typed(sameType(base, to) ? read : Casts.cast(read, base, to), to);
        }
        if (sameType(value.type(), to)) return new Typed(value.value(), to);
        return new Typed(Casts.cast(value.value(), value.type(), to), to);
    }

    /** The assignment of the constant to the column: PostgreSQL's assignment-cast rules. */
    private static Object assign(Typed value, SqlType column) {
        if (value.value() == null) return null;
        if (value.type().kind() == TypeKind.UNKNOWN) {
            SqlType base = SqlType.of(column.kind());
            Object read = input(base, (String) value.value());
            return sameType(base, column) ? read : Casts.assign(read, base, column);
        }
        if (sameType(value.type(), column)) return value.value();
        return Casts.assign(value.value(), value.type(), column);
    }

    /** A type's input function; text types take the string as it is. */
    private static Object input(SqlType type, String text) {
        if (type.kind().isString()) return text;
        return DatumText.parse(type, text);
    }

    private static boolean sameType(SqlType a, SqlType b) { return a.equals(b); }

    private static SqlException notConstant() {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, NOT_CONSTANT);
    }
}
