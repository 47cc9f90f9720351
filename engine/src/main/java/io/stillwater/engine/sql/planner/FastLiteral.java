package io.stillwater.engine.sql.planner;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;

/**
 * The typing rules {@link FastPathPlanner} shares with the Calcite path for the few
 * literal forms it accepts: unsigned integer and decimal constants and plain {@code '...'}
 * strings. Each method answers null when the fast path is unsure; the statement is then
 * planned by Calcite, which is the reference for every rule here (and the property test
 * {@code FastPathEquivalencePropertyTest} checks they agree):
 * <ul>
 *   <li>an integer constant is {@code integer} when it fits 32 bits, else {@code bigint}
 *       when it fits 64, else {@code numeric};</li>
 *   <li>a decimal constant is {@code numeric} with its scale as written (one written with an
 *       exponent, {@code 1e3}, is left to Calcite);</li>
 *   <li>a string constant is {@code text};</li>
 *   <li>compared with a column ({@code col = 1}), an integer constant takes the column's
 *       type when the column is {@code integer} or {@code bigint} and the value fits it,
 *       and a string the type {@code text} against a {@code text} or {@code varchar}
 *       column; other pairs (smallint columns, which Calcite widens, decimals, strings
 *       compared with numbers or dates) are left to Calcite.</li>
 * </ul>
 */
final class FastLiteral {
    private FastLiteral() {}

    /** Whether {@code t} is one of the accepted literal forms (a string only as a plain {@code '...'}). */
    static boolean accepted(Token t) {
        return switch (t.kind()) {
            // As written in decimal: Calcite reads 0x10 as 0 named x10 (PostgreSQL 15 does too), and 1_000 its own way.
            case INTEGER -> onlyChars(t.source(), "0123456789");
            // No exponent form: 1e3 is numeric in PostgreSQL, which the front end spells as a cast (PgTokens).
            case DECIMAL -> onlyChars(t.source(), "0123456789.");
            case STRING -> t.source().startsWith("'");
            default -> false;
        };
    }

    private static boolean onlyChars(String source, String allowed) {
        for (int i = 0; i < source.length(); i++) {
            if (allowed.indexOf(source.charAt(i)) < 0) return false;
        }
        return true;
    }

    /** The literal in a select list or a VALUES row, typed as Calcite types it; null if unsure. */
    static Expr.Literal standalone(Token t) {
        if (!accepted(t)) return null;
        return switch (t.kind()) {
            case INTEGER -> integer(t.text());
            case DECIMAL -> decimal(t.text());
            case STRING -> new Expr.Literal(t.text(), SqlType.TEXT);
            default -> null;
        };
    }

    /** The literal compared with a column of type {@code column}, typed as Calcite types it; null if unsure. */
    static Expr.Literal comparedWith(Token t, SqlType column) {
        if (!accepted(t)) return null;
        TypeKind k = column.kind();
        if (t.kind() == TokenKind.INTEGER) {
            Expr.Literal own = integer(t.text());
            if (k == TypeKind.INTEGER && own.type().equals(SqlType.INTEGER)) return own;
            if (k == TypeKind.BIGINT && !own.type().equals(SqlType.NUMERIC)) {
                return new Expr.Literal(((Number) own.value()).longValue(), SqlType.BIGINT);
            }
            return null;
        }
        if (t.kind() == TokenKind.STRING && (k == TypeKind.TEXT || k == TypeKind.VARCHAR)) {
            return new Expr.Literal(t.text(), SqlType.TEXT);
        }
        return null;
    }

    /**
     * The type Calcite gives a parameter {@code $n} compared with or inserted into a column
     * of type {@code column}, for the column types the fast path handles; null otherwise.
     */
    static SqlType parameterFor(SqlType column) {
        return switch (column.kind()) {
            case INTEGER -> SqlType.INTEGER;
            case BIGINT -> SqlType.BIGINT;
            case TEXT, VARCHAR -> SqlType.TEXT;
            default -> null;
        };
    }

    private static Expr.Literal integer(String digits) {
        // Integer constants of any length: the lexer has already removed underscores and converted hex/octal.
        if (digits.length() <= 18) {
            long v = Long.parseLong(digits);
            return v <= Integer.MAX_VALUE ? new Expr.Literal((int) v, SqlType.INTEGER) : new Expr.Literal(v, SqlType.BIGINT);
        }
        BigDecimal v = new BigDecimal(digits);
        if (v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) return new Expr.Literal(v.longValueExact(), SqlType.BIGINT);
        return new Expr.Literal(v, SqlType.NUMERIC);
    }

    private static Expr.Literal decimal(String text) {
        // Only digits on both sides of the point ("1." and ".5" are left to Calcite's own scale rules).
        int point = text.indexOf('.');
        if (point == 0 || point == text.length() - 1) return null;
        if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
            return new Expr.Literal(Double.parseDouble(text), SqlType.DOUBLE);
        }
        return new Expr.Literal(new BigDecimal(text), SqlType.NUMERIC);
    }
}
