package io.stillwater.engine.sql.planner;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.sql.parse.TokenKind;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;

/**
 * A literal {@link LiteralLifter} replaced by a parameter: its token kind ({@code INTEGER},
 * {@code DECIMAL} or {@code STRING}) and its value as written (strings unescaped).
 *
 * <p>{@link #valueAs} decides whether binding it to the parameter's inferred type means
 * exactly what the literal meant in place. That holds when the literal's own type converts
 * to the parameter's type without change of value or comparison semantics: an integer into
 * an integer type whose range holds it, into unconstrained {@code numeric} or into {@code
 * double precision}; a decimal into unconstrained {@code numeric} or {@code double
 * precision}; a string into {@code text} or unconstrained {@code varchar}. Anything else
 * ({@code int_col = 1.5}, {@code smallint_col = 100000}, {@code varchar(3)_col = 'abcd'},
 * a string compared with a date) is planned with the literal in place instead, so the
 * cached plan never changes what a statement means.
 */
public record LiftedLiteral(TokenKind kind, String text) {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** The literal as a datum of {@code type}, or empty when that would change its meaning. */
    public Optional<Object> valueAs(SqlType type) {
        if (type == null) return Optional.empty();
        TypeKind k = type.kind();
        boolean unconstrained = type.precision() == SqlType.UNSPECIFIED;
        try {
            return switch (kind) {
                case INTEGER -> switch (k) {
                    case SMALLINT, INTEGER, BIGINT -> fitsLong() ? Optional.of(parse(type)) : Optional.empty();
                    case NUMERIC -> unconstrained ? Optional.of(parse(type)) : Optional.empty();
                    case DOUBLE -> Optional.of(parse(type));
                    default -> Optional.empty();
                };
                case DECIMAL -> switch (k) {
                    case NUMERIC -> unconstrained ? Optional.of(parse(type)) : Optional.empty();
                    case DOUBLE -> Optional.of(parse(type));
                    default -> Optional.empty();
                };
                case STRING -> k == TypeKind.TEXT || k == TypeKind.VARCHAR && unconstrained
                        ? Optional.of(text) : Optional.empty();
                default -> Optional.empty();
            };
        } catch (SqlException | NumberFormatException e) {
            // Out of the type's range (22003) or unreadable: the literal in place says what PostgreSQL says.
            return Optional.empty();
        }
    }

    private boolean fitsLong() {
        BigInteger v = new BigDecimal(text).toBigIntegerExact();
        return v.compareTo(LONG_MIN) >= 0 && v.compareTo(LONG_MAX) <= 0;
    }

    private Object parse(SqlType type) {
        return DatumText.parse(type, text);
    }
}
