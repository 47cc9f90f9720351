package io.stillwater.pgwire.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import io.stillwater.pgwire.protocol.FormatCode;
import io.stillwater.pgwire.protocol.Utf8Text;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * How engine types meet the wire: OIDs in both directions, and values in text or
 * binary format.
 */
public final class PgTypes {
    private PgTypes() {}

    private static final Map<Integer, SqlType> BY_OID = new HashMap<>();

    static {
        for (TypeKind k : TypeKind.values()) {
            if (k == TypeKind.ARRAY) continue;
            BY_OID.put(k.oid(), SqlType.of(k));
            if (k.arrayOid() != 0) BY_OID.put(k.arrayOid(), SqlType.arrayOf(SqlType.of(k)));
        }
    }

    /**
     * The parameter type hint for a type OID from Parse: null (infer) for 0, for
     * {@code unknown} and for OIDs we have no type for, so that the engine decides.
     */
    public static SqlType hintForOid(int oid) {
        SqlType t = BY_OID.get(oid);
        return t == null || t.kind() == TypeKind.UNKNOWN ? null : t;
    }

    /**
     * The type the client is told about. An {@code unknown} result column or parameter
     * is reported as text, as PostgreSQL resolves unknown outputs.
     */
    public static SqlType wireType(SqlType type) {
        return type.kind() == TypeKind.UNKNOWN ? SqlType.TEXT : type;
    }

    /** {@code value} (not null) of {@code type} in {@code format}. */
    public static byte[] encode(SqlType type, Object value, FormatCode format) {
        SqlType wire = wireType(type);
        return switch (format) {
            case TEXT -> (wire.kind() == TypeKind.TEXT && value instanceof String s ? s : DatumText.format(wire, value))
                    .getBytes(StandardCharsets.UTF_8);
            case BINARY -> PgBinaryCodec.encode(wire, value);
        };
    }

    /**
     * Decodes a parameter value (not null) sent in {@code format} into a datum of
     * {@code type}. Text and varchar need no parsing; other types parse through
     * {@link DatumText#parse}, so text parameters accept exactly what a SQL literal does.
     */
    public static Object decode(SqlType type, byte[] bytes, FormatCode format) {
        SqlType wire = wireType(type);
        return switch (format) {
            case BINARY -> PgBinaryCodec.decode(wire, bytes);
            case TEXT -> {
                String text = Utf8Text.decode(bytes, true); // 22021 for bad UTF-8 or a NUL
                boolean plainString = wire.kind() == TypeKind.TEXT
                        || (wire.kind() == TypeKind.VARCHAR && wire.precision() == SqlType.UNSPECIFIED);
                yield plainString ? text : DatumText.parse(wire, text);
            }
        };
    }
}
