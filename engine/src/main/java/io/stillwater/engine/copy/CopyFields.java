package io.stillwater.engine.copy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CopyOptions;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits one COPY record into its fields, as PostgreSQL's CopyReadAttributesText and
 * CopyReadAttributesCSV do: the values are de-escaped, then decoded as UTF-8 (invalid
 * bytes, NUL included, are 22021), and a field equal to the NULL string is SQL NULL
 * (null in the result).
 *
 * <p>Text: fields are separated by the delimiter; a backslash escapes: {@code \b \f \n
 * \r \t \v}, {@code \}<i>octal</i> (1-3 digits), {@code \x}<i>hex</i> (1-2 digits), any
 * other character stands for itself; the NULL string is compared with the field before
 * de-escaping. CSV: a quoted part may hold delimiters, ends of line and, doubled (or
 * after the ESCAPE character), quotes; an unquoted field equal to the NULL string is NULL
 * unless FORCE_NOT_NULL, a quoted one only with FORCE_NULL.
 */
final class CopyFields {
    private final CopyOptions options;
    private final byte delimiter;
    private final byte[] nullBytes;
    /** By field position: FORCE_NOT_NULL / FORCE_NULL (CSV). */
    private final boolean[] forceNotNull;
    private final boolean[] forceNull;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    CopyFields(CopyOptions options, List<String> columnNames) {
        this.options = options;
        this.delimiter = (byte) options.delimiter();
        this.nullBytes = options.nullString().getBytes(StandardCharsets.UTF_8);
        this.forceNotNull = flags(columnNames, options.forceNotNull());
        this.forceNull = flags(columnNames, options.forceNull());
    }

    private static boolean[] flags(List<String> columns, List<String> named) {
        boolean[] out = new boolean[columns.size()];
        for (int i = 0; i < out.length; i++) out[i] = named.contains(columns.get(i));
        return out;
    }

    /** The fields of {@code record}; null entries are SQL NULL. */
    List<String> split(byte[] record) {
        return options.csv() ? csv(record) : text(record);
    }

    private List<String> text(byte[] r) {
        List<String> fields = new ArrayList<>();
        int i = 0;
        while (true) {
            int start = i;
            while (i < r.length && r[i] != delimiter) i += r[i] == '\\' ? 2 : 1;
            int end = Math.min(i, r.length);
            if (end - start == nullBytes.length && Arrays.equals(r, start, end, nullBytes, 0, nullBytes.length)) {
                fields.add(null);
            } else {
                fields.add(plainAscii(r, start, end) ? new String(r, start, end - start, StandardCharsets.ISO_8859_1)
                        : decode(unescapeText(r, start, end)));
            }
            if (i >= r.length) return fields;
            i++; // the delimiter
        }
    }

    /** The common case: printable ASCII without escapes, which needs no decoding. */
    private static boolean plainAscii(byte[] r, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = r[i];
            if (b < 0x20 || b == '\\' || b == 0x7F) return false; // negative: not ASCII
        }
        return true;
    }

    private static byte[] unescapeText(byte[] r, int start, int end) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(end - start);
        for (int i = start; i < end; i++) {
            byte b = r[i];
            if (b != '\\' || i + 1 >= end) {
                out.write(b);
                continue;
            }
            byte c = r[++i];
            switch (c) {
                case 'b' -> out.write(8);
                case 'f' -> out.write(12);
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case 'v' -> out.write(11);
                case 'x' -> {
                    int v = 0, n = 0;
                    while (n < 2 && i + 1 < end && Character.digit(r[i + 1], 16) >= 0) {
                        v = v * 16 + Character.digit(r[++i], 16);
                        n++;
                    }
                    out.write(n == 0 ? 'x' : v);
                }
                default -> {
                    if (c >= '0' && c <= '7') {
                        int v = c - '0', n = 1;
                        while (n < 3 && i + 1 < end && r[i + 1] >= '0' && r[i + 1] <= '7') {
                            v = v * 8 + (r[++i] - '0');
                            n++;
                        }
                        out.write(v & 0xFF);
                    } else {
                        out.write(c);
                    }
                }
            }
        }
        return out.toByteArray();
    }

    private List<String> csv(byte[] r) {
        byte quote = (byte) options.quote(), escape = (byte) options.escape();
        List<String> fields = new ArrayList<>();
        int i = 0;
        while (true) {
            ByteArrayOutputStream value = new ByteArrayOutputStream();
            boolean quoted = false;
            boolean inQuote = false;
            while (i < r.length) {
                byte b = r[i];
                if (inQuote) {
                    if (b == escape && i + 1 < r.length && (r[i + 1] == quote || r[i + 1] == escape)
                            && (escape != quote || r[i + 1] == quote)) {
                        value.write(r[i + 1]);
                        i += 2;
                        continue;
                    }
                    if (b == quote) inQuote = false;
                    else value.write(b);
                    i++;
                    continue;
                }
                if (b == delimiter) break;
                if (b == quote) {
                    inQuote = true;
                    quoted = true;
                } else {
                    value.write(b);
                }
                i++;
            }
            if (inQuote) throw new SqlException(SqlState.BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field");
            byte[] bytes = value.toByteArray();
            int position = fields.size();
            boolean matchesNull = Arrays.equals(bytes, nullBytes);
            boolean isNull = matchesNull && (quoted
                    ? position < forceNull.length && forceNull[position]
                    : !(position < forceNotNull.length && forceNotNull[position]));
            fields.add(isNull ? null : decode(bytes));
            if (i >= r.length) return fields;
            i++; // the delimiter
        }
    }

    /** Strict UTF-8 (no NUL), as PostgreSQL checks a server-encoding string. */
    private String decode(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) throw invalidBytes(bytes, i, 1);
        }
        try {
            return utf8.reset().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (MalformedInputException e) {
            int at = firstBad(bytes);
            throw invalidBytes(bytes, at, Math.max(1, e.getInputLength()));
        } catch (CharacterCodingException e) {
            throw invalidBytes(bytes, firstBad(bytes), 1);
        }
    }

    private static int firstBad(byte[] bytes) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        var out = java.nio.CharBuffer.allocate(bytes.length + 1);
        d.decode(in, out, true);
        return in.position();
    }

    private static SqlException invalidBytes(byte[] bytes, int at, int n) {
        StringBuilder hex = new StringBuilder();
        for (int k = at; k < Math.min(bytes.length, at + Math.max(n, 1)); k++) {
            if (hex.length() > 0) hex.append(' ');
            hex.append(String.format("0x%02x", bytes[k] & 0xFF));
        }
        return new SqlException(SqlState.CHARACTER_NOT_IN_REPERTOIRE,
                "invalid byte sequence for encoding \"UTF8\": " + hex);
    }
}
