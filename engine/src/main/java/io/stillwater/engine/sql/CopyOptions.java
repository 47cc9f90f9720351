package io.stillwater.engine.sql;

import java.util.List;

/**
 * The options of one COPY statement, validated and with PostgreSQL's defaults filled in
 * (text: tab delimiter, {@code \N} for NULL; CSV: comma, empty string for NULL, {@code "}
 * as quote and escape). Column lists are the names as written; the planner checks that
 * they are among the copied columns.
 *
 * @param forceQuoteAll {@code FORCE_QUOTE *}: quote every non-NULL value (CSV, COPY TO)
 * @param freeze        {@code FREEZE}: accepted and ignored (a storage hint with no meaning here)
 */
public record CopyOptions(Format format, char delimiter, String nullString, Header header, char quote, char escape,
                          boolean forceQuoteAll, List<String> forceQuote, List<String> forceNotNull,
                          List<String> forceNull, boolean freeze) {
    public CopyOptions {
        forceQuote = List.copyOf(forceQuote);
        forceNotNull = List.copyOf(forceNotNull);
        forceNull = List.copyOf(forceNull);
    }

    /** The data format; BINARY is recognised only to be refused with a clear message. */
    public enum Format { TEXT, CSV, BINARY }

    /** HEADER: none, a header line (skipped on input, written on output), or MATCH (input checks the names). */
    public enum Header { NONE, PRESENT, MATCH }

    /** Text format with every default: what {@code COPY t FROM STDIN} means. */
    public static CopyOptions textDefaults() {
        return new CopyOptions(Format.TEXT, '\t', "\\N", Header.NONE, '"', '"', false, List.of(), List.of(), List.of(),
                false);
    }

    public boolean csv() { return format == Format.CSV; }
}
