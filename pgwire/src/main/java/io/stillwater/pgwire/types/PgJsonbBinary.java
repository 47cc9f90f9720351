package io.stillwater.pgwire.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/** jsonb's binary wire form (placeholder until jsonb is implemented). */
final class PgJsonbBinary {
    private PgJsonbBinary() {}

    static byte[] encode(Object value) {
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "type jsonb is not supported");
    }

    static Object decode(byte[] bytes) {
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "type jsonb is not supported");
    }
}
