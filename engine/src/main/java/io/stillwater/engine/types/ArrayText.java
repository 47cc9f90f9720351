package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's text form of arrays ({@code array_out}/{@code array_in}):
 * {@code {1,2,NULL}}, {@code {{1,2},{3,4}}}, {@code {"a b","x\"y",""}}.
 *
 * <p>Output quotes an element when it is empty, spells {@code NULL} in any case, or
 * contains a brace, comma, double quote, backslash or white space; inside quotes a double
 * quote or backslash is escaped by a backslash. Input accepts what PostgreSQL does: white
 * space around elements, quoted or backslash-escaped elements, unquoted {@code NULL} for
 * SQL NULL, nested braces for more dimensions (rectangular), and an optional leading
 * dimension decoration {@code [1:3]=} whose lower bounds must be 1 (Stillwater keeps no
 * other lower bounds). Malformed input is 22P02 {@code malformed array literal}.
 */
public final class ArrayText {
    private ArrayText() {}

    /** The text form of {@code array} whose elements are of {@code element} type. */
    public static String format(SqlType element, PgArray array, ZoneId zone) {
        StringBuilder sb = new StringBuilder();
        append(sb, element, array, zone);
        return sb.toString();
    }

    private static void append(StringBuilder sb, SqlType element, PgArray array, ZoneId zone) {
        sb.append('{');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) sb.append(',');
            Object e = array.get(i);
            if (e == null) sb.append("NULL");
            else if (e instanceof PgArray nested) append(sb, element, nested, zone);
            else appendElement(sb, DatumText.format(element, e, zone));
        }
        sb.append('}');
    }

    private static void appendElement(StringBuilder sb, String text) {
        if (!needsQuotes(text)) {
            sb.append(text);
            return;
        }
        sb.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') sb.append('\\');
            sb.append(c);
        }
        sb.append('"');
    }

    private static boolean needsQuotes(String text) {
        if (text.isEmpty() || text.equalsIgnoreCase("NULL")) return true;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || isSpace(c)) return true;
        }
        return false;
    }

    /** PostgreSQL's {@code scanner_isspace}. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** Reads the text form of an array of {@code element}s; elements are read with the element type's input. */
    public static PgArray parse(SqlType element, String text, ZoneId zone, Instant now) {
        return new Reader(element, text, zone, now).read();
    }

    private static final class Reader {
        private final SqlType element;
        private final String text;
        private final ZoneId zone;
        private final Instant now;
        private int pos;

        Reader(SqlType element, String text, ZoneId zone, Instant now) {
            this.element = element;
            this.text = text;
            this.zone = zone;
            this.now = now;
        }

        PgArray read() {
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == '[') skipDimensions();
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != '{') {
                throw malformed("Array value must start with \"{\" or dimension information.");
            }
            PgArray a = readArray();
            skipSpace();
            if (pos < text.length()) throw malformed("Junk after closing right brace.");
            checkRectangular(a);
            return a;
        }

        /** {@code [lo:hi][lo:hi]=}: accepted when every lower bound is 1. */
        private void skipDimensions() {
            while (pos < text.length() && text.charAt(pos) == '[') {
                int close = text.indexOf(']', pos);
                if (close < 0) throw malformed("Missing \"]\" in array dimensions.");
                String dim = text.substring(pos + 1, close).strip();
                int colon = dim.indexOf(':');
                if (colon >= 0 && !dim.substring(0, colon).strip().equals("1")) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                            "arrays with lower bounds other than 1 are not supported");
                }
                pos = close + 1;
            }
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != '=') {
                throw malformed("Missing \"=\" after array dimensions.");
            }
            pos++;
        }

        /** At '{': reads to the matching '}'. */
        private PgArray readArray() {
            pos++; // '{'
            List<Object> out = new ArrayList<>();
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == '}') {
                pos++;
                return PgArray.of(out);
            }
            while (true) {
                skipSpace();
                if (pos >= text.length()) throw malformed("Unexpected end of input.");
                char c = text.charAt(pos);
                if (c == '{') out.add(readArray());
                else if (c == '}' || c == ',') throw malformed("Unexpected \"" + c + "\" character.");
                else out.add(readElement());
                skipSpace();
                if (pos >= text.length()) throw malformed("Unexpected end of input.");
                c = text.charAt(pos++);
                if (c == '}') return PgArray.of(out);
                if (c != ',') throw malformed("Unexpected array element.");
            }
        }

        private Object readElement() {
            StringBuilder sb = new StringBuilder();
            boolean quoted = false;
            boolean escaped = false;
            int lastSignificant = 0; // length of sb up to its last escaped or quoted char
            if (text.charAt(pos) == '"') {
                quoted = true;
                pos++;
                while (true) {
                    if (pos >= text.length()) throw malformed("Unexpected end of input.");
                    char c = text.charAt(pos++);
                    if (c == '"') break;
                    if (c == '\\') {
                        if (pos >= text.length()) throw malformed("Unexpected end of input.");
                        c = text.charAt(pos++);
                    }
                    sb.append(c);
                }
                skipSpace();
                if (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != '}') {
                    throw malformed("Incorrectly quoted array element.");
                }
            } else {
                while (pos < text.length()) {
                    char c = text.charAt(pos);
                    if (c == ',' || c == '}') break;
                    if (c == '{' || c == '"') throw malformed("Unexpected \"" + c + "\" character.");
                    pos++;
                    if (c == '\\') {
                        if (pos >= text.length()) throw malformed("Unexpected end of input.");
                        sb.append(text.charAt(pos++));
                        lastSignificant = sb.length();
                        escaped = true;
                    } else {
                        sb.append(c);
                        if (!isSpace(c)) lastSignificant = sb.length();
                    }
                }
                sb.setLength(lastSignificant);
            }
            String s = sb.toString();
            // Only a bare NULL is SQL NULL; "NULL" and N\ULL are the string.
            if (!quoted && !escaped && s.equalsIgnoreCase("NULL")) return null;
            return DatumText.parse(element, s, zone, now);
        }

        private void skipSpace() {
            while (pos < text.length() && isSpace(text.charAt(pos))) pos++;
        }

        private void checkRectangular(PgArray a) {
            if (!a.isNested() && a.elements().stream().noneMatch(e -> e instanceof PgArray)) return;
            int len = -1;
            for (Object e : a.elements()) {
                if (!(e instanceof PgArray sub)) {
                    throw malformed("Multidimensional arrays must have sub-arrays with matching dimensions.");
                }
                if (len >= 0 && (sub.size() != len || sub.isNested() != ((PgArray) a.get(0)).isNested())) {
                    throw malformed("Multidimensional arrays must have sub-arrays with matching dimensions.");
                }
                len = sub.size();
                checkRectangular(sub);
            }
        }

        private SqlException malformed(String detail) {
            return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                    "malformed array literal: \"" + text + "\"", detail, null);
        }
    }
}
