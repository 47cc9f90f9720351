package io.stillwater.engine.types;

/**
 * The closed set of SQL types the engine stores and computes with.
 *
 * <p>Each kind names its PostgreSQL type (for the wire protocol's OIDs and for error
 * messages) and the Java class that carries its values inside a {@link
 * io.stillwater.engine.data.Row}:
 *
 * <pre>
 * BOOLEAN     Boolean          SMALLINT   Short         INTEGER  Integer
 * BIGINT      Long             REAL       Float         DOUBLE   Double
 * NUMERIC     BigDecimal       TEXT, VARCHAR, CHAR       String
 * DATE        LocalDate        TIME       LocalTime     TIMESTAMP LocalDateTime
 * TIMESTAMPTZ Instant          INTERVAL   Interval      BYTEA    ByteString
 * </pre>
 *
 * SQL NULL is Java {@code null} for every kind. {@link #UNKNOWN} is the type of an
 * untyped literal (a bare NULL or a string literal before coercion); no column has it.
 */
public enum TypeKind {
    BOOLEAN("boolean", 16, 1),
    SMALLINT("smallint", 21, 2),
    INTEGER("integer", 23, 4),
    BIGINT("bigint", 20, 8),
    REAL("real", 700, 4),
    DOUBLE("double precision", 701, 8),
    NUMERIC("numeric", 1700, -1),
    TEXT("text", 25, -1),
    VARCHAR("character varying", 1043, -1),
    CHAR("character", 1042, -1),
    DATE("date", 1082, 4),
    TIME("time without time zone", 1083, 8),
    TIMESTAMP("timestamp without time zone", 1114, 8),
    TIMESTAMPTZ("timestamp with time zone", 1184, 8),
    INTERVAL("interval", 1186, 16),
    BYTEA("bytea", 17, -1),
    UNKNOWN("unknown", 705, -2);

    private final String pgName;
    private final int oid;
    private final int typeLength;

    TypeKind(String pgName, int oid, int typeLength) {
        this.pgName = pgName;
        this.oid = oid;
        this.typeLength = typeLength;
    }

    /** The name PostgreSQL prints for this type (e.g. in error messages, {@code pg_typeof}). */
    public String pgName() { return pgName; }

    /** PostgreSQL type OID, used in RowDescription and ParameterDescription. */
    public int oid() { return oid; }

    /** {@code pg_type.typlen}: fixed width in bytes, -1 for varlena, -2 for cstring-like. */
    public int typeLength() { return typeLength; }

    public boolean isInteger() { return this == SMALLINT || this == INTEGER || this == BIGINT; }

    public boolean isNumeric() { return isInteger() || this == REAL || this == DOUBLE || this == NUMERIC; }

    public boolean isString() { return this == TEXT || this == VARCHAR || this == CHAR; }

    public boolean isTemporal() {
        return this == DATE || this == TIME || this == TIMESTAMP || this == TIMESTAMPTZ || this == INTERVAL;
    }
}
