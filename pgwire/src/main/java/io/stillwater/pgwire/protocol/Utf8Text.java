package io.stillwater.pgwire.protocol;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 decoding of what a client sends (query text, names, text-format
 * parameters), with PostgreSQL's error: 22021, {@code invalid byte sequence for encoding
 * "UTF8": 0xc3 0x27}, naming the bytes from the first bad one (as many as its lead byte
 * announces). Never substitutes U+FFFD. Stateless.
 */
public final class Utf8Text {
    private Utf8Text() {}

    /** Decodes {@code bytes}; NUL is rejected too when {@code noNul} (a text value cannot hold it). */
    public static String decode(ByteBuffer bytes, boolean noNul) {
        String ascii = ascii(bytes, noNul);
        if (ascii != null) return ascii;
        ByteBuffer copy = bytes.duplicate();
        try {
            String s = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes.duplicate()).toString();
            if (noNul && s.indexOf('\0') >= 0) throw invalid(copy, firstBad(copy, true));
            return s;
        } catch (CharacterCodingException e) {
            throw invalid(copy, firstBad(copy, noNul));
        }
    }

    public static String decode(byte[] bytes, boolean noNul) { return decode(ByteBuffer.wrap(bytes), noNul); }

    /**
     * The common case without a decoder: statement and portal names, parameters and most
     * SQL are plain ASCII, which is valid UTF-8 as it is (a decoder and its char buffer
     * per string were a tenth of a point read's allocation). Null when a byte is not
     * ASCII, or is a NUL that {@code noNul} refuses: the strict decoder then decides.
     */
    private static String ascii(ByteBuffer bytes, boolean noNul) {
        byte[] raw = new byte[bytes.remaining()];
        bytes.duplicate().get(raw);
        for (byte b : raw) {
            if (b < 0 || (b == 0 && noNul)) return null; // b < 0: 0x80 and above
        }
        return new String(raw, StandardCharsets.ISO_8859_1); // ASCII bytes are the same characters
    }

    private static SqlException invalid(ByteBuffer b, int at) {
        StringBuilder shown = new StringBuilder();
        int lead = at < b.limit() ? b.get(at) & 0xFF : 0;
        // PostgreSQL's pg_utf_mblen: the length the lead byte announces, 1 for a non-lead byte.
        int length = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 1;
        for (int i = at; i < Math.min(b.limit(), at + length); i++) {
            if (shown.length() > 0) shown.append(' ');
            shown.append(String.format("0x%02x", b.get(i) & 0xFF));
        }
        return new SqlException(SqlState.CHARACTER_NOT_IN_REPERTOIRE,
                "invalid byte sequence for encoding \"UTF8\": " + shown);
    }

    /** Index of the first byte that does not start a valid UTF-8 sequence (or of a NUL). */
    private static int firstBad(ByteBuffer b, boolean nulIsBad) {
        int i = b.position();
        while (i < b.limit()) {
            int c = b.get(i) & 0xFF;
            if (c == 0 && nulIsBad) return i;
            int n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            if (n == 0 || i + n > b.limit()) return i;
            for (int k = 1; k < n; k++) if ((b.get(i + k) & 0xC0) != 0x80) return i;
            // one decoder call on just this sequence catches overlongs and surrogates
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(b.duplicate().position(i).limit(i + n));
            } catch (CharacterCodingException e) {
                return i;
            }
            i += n;
        }
        return b.position();
    }
}
