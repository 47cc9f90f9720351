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
 * ARRAY       PgArray          JSONB      Jsonb
 * </pre>
 *
 * An ARRAY's element type is {@link SqlType#element()}; its OID is the element kind's
 * {@link #arrayOid()}.
 *
 * SQL NULL is Java {@code null} for every kind. {@link #UNKNOWN} is the type of an
 * untyped literal (a bare NULL or a string literal before coercion); no column has it.
 */
public enum TypeKind {
    BOOLEAN("boolean", 16, 1, 1000),
    SMALLINT("smallint", 21, 2, 1005),
    INTEGER("integer", 23, 4, 1007),
    BIGINT("bigint", 20, 8, 1016),
    REAL("real", 700, 4, 1021),
    DOUBLE("double precision", 701, 8, 1022),
    NUMERIC("numeric", 1700, -1, 1231),
    TEXT("text", 25, -1, 1009),
    VARCHAR("character varying", 1043, -1, 1015),
    CHAR("character", 1042, -1, 1014),
    DATE("date", 1082, 4, 1182),
    TIME("time without time zone", 1083, 8, 1183),
    TIMESTAMP("timestamp without time zone", 1114, 8, 1115),
    TIMESTAMPTZ("timestamp with time zone", 1184, 8, 1185),
    INTERVAL("interval", 1186, 16, 1187),
    BYTEA("bytea", 17, -1, 1001),
    /** A one-dimensional (or nested, multi-dimensional) array; the element type is in {@link SqlType}. */
    ARRAY("array", 2277, -1, 0),
    JSONB("jsonb", 3802, -1, 3807),
    UNKNOWN("unknown", 705, -2, 0);

    private final String pgName;
    private final int oid;
    private final int typeLength;
    private final int arrayOid;

    TypeKind(String pgName, int oid, int typeLength, int arrayOid) {
        this.pgName = pgName;
        this.oid = oid;
        this.typeLength = typeLength;
        this.arrayOid = arrayOid;
    }

    /** The OID of PostgreSQL's array type over this kind ({@code int4} → 1007 {@code _int4}); 0 if none. */
    public int arrayOid() { return arrayOid; }

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
