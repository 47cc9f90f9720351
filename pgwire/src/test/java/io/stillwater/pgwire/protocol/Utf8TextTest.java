package io.stillwater.pgwire.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The ASCII fast path and the strict decoder give the same strings and the same errors. */
class Utf8TextTest {
    @Test
    void asciiAndMultiByteTextDecode() {
        assertThat(Utf8Text.decode("SELECT b FROM t WHERE a = $1".getBytes(StandardCharsets.UTF_8), true))
                .isEqualTo("SELECT b FROM t WHERE a = $1");
        assertThat(Utf8Text.decode(new byte[0], true)).isEmpty();
        assertThat(Utf8Text.decode("grüße, 東京 😀".getBytes(StandardCharsets.UTF_8), true)).isEqualTo("grüße, 東京 😀");
        // A slice of a larger buffer: only its own bytes.
        ByteBuffer slice = ByteBuffer.wrap("xxabcxx".getBytes(StandardCharsets.US_ASCII)).position(2).limit(5);
        assertThat(Utf8Text.decode(slice, true)).isEqualTo("abc");
        assertThat(slice.position()).isEqualTo(2);
    }

    @Test
    void aNulIsRefusedOnlyWhereTextCannotHoldIt() {
        byte[] withNul = {'a', 0, 'b'};
        assertThat(Utf8Text.decode(withNul, false)).isEqualTo("a\0b");
        assertThatThrownBy(() -> Utf8Text.decode(withNul, true)).isInstanceOf(SqlException.class)
                .hasMessage("invalid byte sequence for encoding \"UTF8\": 0x00");
    }

    @Test
    void bytesThatAreNotUtf8FailWithPostgresqlsError() {
        byte[] bad = {'a', (byte) 0xc3, 0x27};
        assertThatThrownBy(() -> Utf8Text.decode(bad, false)).isInstanceOf(SqlException.class)
                .hasMessage("invalid byte sequence for encoding \"UTF8\": 0xc3 0x27");
    }
}
