package io.stillwater.engine.types;

/**
 * A SQL type: a {@link TypeKind} plus its modifiers.
 *
 * <p>{@code precision} is the numeric precision for NUMERIC, the maximum length for
 * VARCHAR and the fixed length for CHAR; {@code scale} is the numeric scale. Either is
 * {@link #UNSPECIFIED} when the type has no modifier ({@code numeric}, {@code varchar},
 * {@code text}). Nullability is a property of columns, not of types.
 *
 * <p>{@code element} is the element type of an {@link TypeKind#ARRAY} (never itself an
 * array: as in PostgreSQL, {@code int[][]} is the same type as {@code int[]}) and null
 * for every other kind.
 */
public record SqlType(TypeKind kind, int precision, int scale, SqlType element) {
    public static final int UNSPECIFIED = -1;

    public static final SqlType BOOLEAN = of(TypeKind.BOOLEAN);
    public static final SqlType SMALLINT = of(TypeKind.SMALLINT);
    public static final SqlType INTEGER = of(TypeKind.INTEGER);
    public static final SqlType BIGINT = of(TypeKind.BIGINT);
    public static final SqlType REAL = of(TypeKind.REAL);
    public static final SqlType DOUBLE = of(TypeKind.DOUBLE);
    public static final SqlType NUMERIC = of(TypeKind.NUMERIC);
    public static final SqlType TEXT = of(TypeKind.TEXT);
    public static final SqlType VARCHAR = of(TypeKind.VARCHAR);
    public static final SqlType DATE = of(TypeKind.DATE);
    public static final SqlType TIME = of(TypeKind.TIME);
    public static final SqlType TIMESTAMP = of(TypeKind.TIMESTAMP);
    public static final SqlType TIMESTAMPTZ = of(TypeKind.TIMESTAMPTZ);
    public static final SqlType INTERVAL = of(TypeKind.INTERVAL);
    public static final SqlType BYTEA = of(TypeKind.BYTEA);
    public static final SqlType UNKNOWN = of(TypeKind.UNKNOWN);

    public static final SqlType JSONB = of(TypeKind.JSONB);

    public SqlType {
        if (kind == null) throw new IllegalArgumentException("kind");
        if ((kind == TypeKind.ARRAY) != (element != null)) throw new IllegalArgumentException("element of " + kind);
        if (element != null && element.kind() == TypeKind.ARRAY) throw new IllegalArgumentException("array of arrays");
    }

    /** A scalar type (not an array). */
    public SqlType(TypeKind kind, int precision, int scale) {
        this(kind, precision, scale, null);
    }

    /** The array type over {@code element}; an array of an array is the same array type. */
    public static SqlType arrayOf(SqlType element) {
        SqlType e = element.kind() == TypeKind.ARRAY ? element.element() : element;
        return new SqlType(TypeKind.ARRAY, UNSPECIFIED, UNSPECIFIED, e);
    }

    public boolean isArray() { return kind == TypeKind.ARRAY; }

    public static SqlType of(TypeKind kind) { return new SqlType(kind, UNSPECIFIED, UNSPECIFIED); }

    public static SqlType numeric(int precision, int scale) { return new SqlType(TypeKind.NUMERIC, precision, scale); }

    public static SqlType varchar(int length) { return new SqlType(TypeKind.VARCHAR, length, UNSPECIFIED); }

    public static SqlType character(int length) { return new SqlType(TypeKind.CHAR, length, UNSPECIFIED); }

    /** The PostgreSQL type OID; for an array, the element kind's array type ({@code integer[]} is 1007). */
    public int oid() {
        if (kind == TypeKind.ARRAY) {
            int oid = element.kind().arrayOid();
            return oid == 0 ? TypeKind.TEXT.arrayOid() : oid;
        }
        return kind.oid();
    }

    /**
     * The PostgreSQL type modifier ({@code atttypmod}) as sent in RowDescription:
     * -1 when unspecified; {@code length + 4} for varchar/char;
     * {@code ((precision << 16) | scale) + 4} for numeric.
     */
    public int typmod() {
        return switch (kind) {
            case VARCHAR, CHAR -> precision == UNSPECIFIED ? -1 : precision + 4;
            case NUMERIC -> precision == UNSPECIFIED ? -1 : ((precision << 16) | Math.max(scale, 0)) + 4;
            default -> -1;
        };
    }

    /** The type as PostgreSQL spells it, with modifiers: {@code numeric(10,2)}, {@code character varying(5)}. */
    public String displayName() {
        return switch (kind) {
            case VARCHAR, CHAR -> precision == UNSPECIFIED ? kind.pgName() : kind.pgName() + "(" + precision + ")";
            case NUMERIC -> precision == UNSPECIFIED ? "numeric"
                    : "numeric(" + precision + "," + Math.max(scale, 0) + ")";
            case ARRAY -> element.displayName() + "[]";
            default -> kind.pgName();
        };
    }

    @Override
    public String toString() { return displayName(); }
}
