package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.Set;

/**
 * PostgreSQL type names, with their aliases and modifiers, to {@link SqlType}s:
 * {@code boolean/bool}, {@code smallint/int2}, {@code integer/int/int4}, {@code bigint/int8},
 * {@code real/float4}, {@code double precision/float8/float[(p)]},
 * {@code numeric/decimal/dec[(p[,s])]}, {@code text}, {@code varchar[(n)]/character varying[(n)]},
 * {@code char[(n)]/character[(n)]/bpchar}, {@code date}, {@code time [without time zone]},
 * {@code timestamp [without time zone]}, {@code timestamptz/timestamp with time zone},
 * {@code interval}, {@code bytea}, and arrays of these ({@code int[]}, {@code text[][]},
 * {@code integer ARRAY}; PostgreSQL ignores declared sizes, and so does Stillwater). Unquoted names are case-insensitive ({@code VARCHAR(30)},
 * {@code INTEGER}); quoted names match the internal spellings ({@code "int4"}, {@code "bpchar"}).
 *
 * <p>Errors mirror PostgreSQL: an unknown name is 42704 {@code type "foo" does not exist};
 * a bad modifier is 22023. Types PostgreSQL has but Stillwater does not store are 0A000.
 */
public final class TypeNames {
    private TypeNames() {}

    /** PostgreSQL's limits: numeric precision 1..1000, varchar/char length 1..10485760. */
    static final int NUMERIC_MAX_PRECISION = 1000;
    static final int MAX_CHAR_LENGTH = 10485760;

    /** Real PostgreSQL types (and the serial pseudo-types) that Stillwater does not support. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "json", "uuid", "oid", "money", "bit", "varbit", "inet", "cidr", "macaddr", "macaddr8",
            "xml", "point", "line", "lseg", "box", "path", "polygon", "circle", "tsvector", "tsquery",
            "timetz", "serial", "serial2", "serial4", "serial8", "smallserial", "bigserial", "regclass",
            "regtype", "regproc", "name", "record", "int4range", "int8range", "numrange", "daterange",
            "tsrange", "tstzrange", "jsonpath", "pg_lsn", "txid_snapshot", "char_varying");

    /** Parses a complete type name such as {@code numeric(10,2)} or {@code timestamp with time zone}. */
    public static SqlType parse(String typeName) {
        TokenCursor cursor = new TokenCursor(typeName);
        SqlType type = parse(cursor);
        if (cursor.peek().kind() != TokenKind.EOF) throw cursor.syntaxError();
        return type;
    }

    /** Parses a type name at the cursor, leaving the cursor after it. */
    static SqlType parse(TokenCursor c) {
        Token t = c.peek();
        if (t.kind() != TokenKind.IDENTIFIER && t.kind() != TokenKind.QUOTED_IDENTIFIER) throw c.syntaxError();
        c.next();
        boolean quoted = t.kind() == TokenKind.QUOTED_IDENTIFIER;
        String name = t.text();
        SqlType type = quoted ? quotedName(name, c) : unquotedName(name, c);
        // type[], type[3][], type ARRAY, type ARRAY[3]: sizes are ignored, as in PostgreSQL.
        boolean array = false;
        while (c.acceptSymbol("[")) {
            if (!c.atSymbol("]")) c.smallInteger();
            c.expectSymbol("]");
            array = true;
        }
        if (!array && c.acceptWord("array")) {
            array = true;
            if (c.acceptSymbol("[")) {
                c.smallInteger();
                c.expectSymbol("]");
            }
        }
        return array ? SqlType.arrayOf(type) : type;
    }

    private static SqlType unquotedName(String name, TokenCursor c) {
        return switch (name) {
            case "double" -> {
                c.expectWord("precision");
                yield SqlType.DOUBLE;
            }
            case "float" -> floatType(c);
            case "decimal", "dec" -> numeric(c);
            case "int", "integer" -> SqlType.INTEGER;
            case "character", "char" -> {
                if (c.acceptWord("varying")) yield varchar(c);
                yield character(c);
            }
            case "national" -> {
                if (!(c.acceptWord("character") || c.acceptWord("char"))) throw c.syntaxError();
                if (c.acceptWord("varying")) yield varchar(c);
                yield character(c);
            }
            case "nchar" -> character(c);
            case "time" -> time(c);
            case "timestamp" -> timestamp(c);
            default -> quotedName(name, c);
        };
    }

    /** The names PostgreSQL knows as plain type names (pg_type.typname and its own aliases). */
    private static SqlType quotedName(String name, TokenCursor c) {
        return switch (name) {
            case "bool", "boolean" -> SqlType.BOOLEAN;
            case "int2", "smallint" -> SqlType.SMALLINT;
            case "int4" -> SqlType.INTEGER;
            case "int8", "bigint" -> SqlType.BIGINT;
            case "float4", "real" -> SqlType.REAL;
            case "float8" -> SqlType.DOUBLE;
            case "numeric" -> numeric(c);
            case "text" -> SqlType.TEXT;
            case "varchar" -> varchar(c);
            case "bpchar" -> {
                if (!c.atSymbol("(")) yield SqlType.of(TypeKind.CHAR);
                yield character(c);
            }
            case "date" -> SqlType.DATE;
            case "timestamptz" -> {
                timePrecision(c, "TIMESTAMP");
                yield SqlType.TIMESTAMPTZ;
            }
            case "interval" -> interval(c);
            case "bytea" -> SqlType.BYTEA;
            case "jsonb" -> SqlType.JSONB;
            default -> {
                if (UNSUPPORTED.contains(name)) {
                    throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED, "type \"%s\" is not supported", name);
                }
                throw SqlException.of(SqlState.UNDEFINED_OBJECT, "type \"%s\" does not exist", name);
            }
        };
    }

    private static SqlType floatType(TokenCursor c) {
        if (!c.acceptSymbol("(")) return SqlType.DOUBLE;
        int p = c.smallInteger();
        c.expectSymbol(")");
        if (p < 1) throw invalid("precision for type float must be at least 1 bit");
        if (p > 53) throw invalid("precision for type float must be less than 54 bits");
        return p <= 24 ? SqlType.REAL : SqlType.DOUBLE;
    }

    private static SqlType numeric(TokenCursor c) {
        if (!c.acceptSymbol("(")) return SqlType.NUMERIC;
        int precision = c.smallInteger();
        int scale = 0;
        if (c.acceptSymbol(",")) scale = c.smallInteger();
        if (c.atSymbol(",")) throw invalid("invalid NUMERIC type modifier");
        c.expectSymbol(")");
        if (precision < 1 || precision > NUMERIC_MAX_PRECISION) {
            throw invalid("NUMERIC precision " + precision + " must be between 1 and " + NUMERIC_MAX_PRECISION);
        }
        // PostgreSQL 15 also allows negative scales and scales above the precision; SqlType
        // reserves -1 for "unspecified", so Stillwater keeps the classic rule 0 <= s <= p.
        if (scale < 0 || scale > precision) {
            throw invalid("NUMERIC scale " + scale + " must be between 0 and precision " + precision);
        }
        return SqlType.numeric(precision, scale);
    }

    private static SqlType varchar(TokenCursor c) {
        if (!c.acceptSymbol("(")) return SqlType.VARCHAR;
        int n = length(c, "varchar");
        return SqlType.varchar(n);
    }

    private static SqlType character(TokenCursor c) {
        // char without a length is char(1), as in the SQL standard and PostgreSQL.
        if (!c.acceptSymbol("(")) return SqlType.character(1);
        return SqlType.character(length(c, "char"));
    }

    private static int length(TokenCursor c, String typeName) {
        int n = c.smallInteger();
        c.expectSymbol(")");
        if (n < 1) throw invalid("length for type " + typeName + " must be at least 1");
        if (n > MAX_CHAR_LENGTH) throw invalid("length for type " + typeName + " cannot exceed " + MAX_CHAR_LENGTH);
        return n;
    }

    private static SqlType time(TokenCursor c) {
        timePrecision(c, "TIME");
        if (c.acceptWords("with", "time", "zone")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "type \"time with time zone\" is not supported");
        }
        c.acceptWords("without", "time", "zone");
        return SqlType.TIME;
    }

    private static SqlType timestamp(TokenCursor c) {
        timePrecision(c, "TIMESTAMP");
        if (c.acceptWords("with", "time", "zone")) return SqlType.TIMESTAMPTZ;
        c.acceptWords("without", "time", "zone");
        return SqlType.TIMESTAMP;
    }

    /**
     * Fractional-seconds precision. Stillwater stores microseconds, i.e. precision 6 (the
     * default); PostgreSQL reduces larger precisions to 6 with a warning, so those are
     * accepted. Smaller precisions would round every stored value, which is not
     * implemented: 0A000 rather than silently keeping more digits.
     */
    private static void timePrecision(TokenCursor c, String typeName) {
        if (!c.acceptSymbol("(")) return;
        int p = c.smallInteger();
        c.expectSymbol(")");
        if (p < 0) throw invalid(typeName + "(" + p + ") precision must not be negative");
        if (p < 6) {
            throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "%s(%d) is not supported: only microsecond precision (6) is", typeName, p);
        }
    }

    private static final Set<String> INTERVAL_FIELDS = Set.of("year", "month", "day", "hour", "minute", "second");

    private static SqlType interval(TokenCursor c) {
        if (INTERVAL_FIELDS.contains(c.peek().text()) && c.peek().kind() == TokenKind.IDENTIFIER) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "interval fields are not supported");
        }
        if (c.atSymbol("(")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "interval precision is not supported");
        }
        return SqlType.INTERVAL;
    }

    private static SqlException invalid(String message) {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, message);
    }
}
