package io.stillwater.pgwire.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Jsonb;
import io.stillwater.engine.types.JsonbText;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** jsonb's binary wire form ({@code jsonb_send}/{@code jsonb_recv}): version byte 1, then the text form in UTF-8. */
final class PgJsonbBinary {
    private PgJsonbBinary() {}

    static byte[] encode(Object value) {
        byte[] text = JsonbText.format((Jsonb) value).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[text.length + 1];
        out[0] = 1;
        System.arraycopy(text, 0, out, 1, text.length);
        return out;
    }

    static Object decode(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] != 1) {
            throw new SqlException(SqlState.INVALID_BINARY_REPRESENTATION,
                    "unsupported jsonb version number " + (bytes.length == 0 ? "(none)" : bytes[0]));
        }
        return JsonbText.parse(PgBinaryCodec.utf8Text(Arrays.copyOfRange(bytes, 1, bytes.length)));
    }
}
