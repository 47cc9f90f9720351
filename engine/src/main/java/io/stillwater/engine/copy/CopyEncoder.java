package io.stillwater.engine.copy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.sql.CopyOptions;
import io.stillwater.engine.sql.CopyOptions.Header;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;

/**
 * Writes the lines of {@code COPY ... TO STDOUT}, one per row, each ending in {@code \n},
 * as PostgreSQL's CopyAttributeOutText and CopyAttributeOutCSV do. Values are in their
 * PostgreSQL text form (timestamptz in the session's time zone).
 *
 * <p>Text: NULL is the NULL string; backslash, the delimiter and the control characters
 * {@code \b \f \n \r \t \v} are backslash-escaped. CSV: NULL is the NULL string unquoted;
 * a value is quoted when FORCE_QUOTE names its column, when it contains the delimiter,
 * the quote, {@code \r} or {@code \n}, when it equals the NULL string, or when it is
 * {@code \.} alone on its line; inside quotes the quote and escape characters are escaped.
 * Stateless after construction; one COPY's thread.
 */
public final class CopyEncoder {
    private final CopyOptions options;
    private final List<String> names;
    private final List<SqlType> types;
    private final ZoneId zone;
    private final boolean[] forceQuote;

    public CopyEncoder(CopyOptions options, List<String> columnNames, List<SqlType> types, ZoneId zone) {
        this.options = options;
        this.names = List.copyOf(columnNames);
        this.types = List.copyOf(types);
        this.zone = zone;
        this.forceQuote = new boolean[names.size()];
        for (int i = 0; i < forceQuote.length; i++) {
            forceQuote[i] = options.forceQuoteAll() || options.forceQuote().contains(names.get(i));
        }
    }

    /** The header line (the column names), or null without HEADER. */
    public byte[] header() {
        if (options.header() == Header.NONE) return null;
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) line.append(options.delimiter());
            if (options.csv()) csv(line, names.get(i), false);
            else text(line, names.get(i));
        }
        return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line of one row (its first {@code names.size()} columns). */
    public byte[] row(Row row) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) line.append(options.delimiter());
            Object v = row.get(i);
            if (v == null) {
                line.append(options.nullString());
            } else if (options.csv()) {
                csv(line, DatumText.format(types.get(i), v, zone), forceQuote[i]);
            } else {
                text(line, DatumText.format(types.get(i), v, zone));
            }
        }
        return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    private void text(StringBuilder out, String value) {
        char delimiter = options.delimiter();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x0B -> out.append("\\v");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c == delimiter) out.append('\\');
                    out.append(c);
                }
            }
        }
    }

    private void csv(StringBuilder out, String value, boolean force) {
        char quote = options.quote(), escape = options.escape(), delimiter = options.delimiter();
        boolean quoteIt = force || value.equals(options.nullString())
                || names.size() == 1 && value.equals("\\.");
        for (int i = 0; !quoteIt && i < value.length(); i++) {
            char c = value.charAt(i);
            quoteIt = c == delimiter || c == quote || c == '\n' || c == '\r';
        }
        if (!quoteIt) {
            out.append(value);
            return;
        }
        out.append(quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == quote || c == escape) out.append(escape);
            out.append(c);
        }
        out.append(quote);
    }
}
