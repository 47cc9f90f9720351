package io.stillwater.pgwire.protocol;

import java.util.List;

/** A value's wire format: 0 = text, 1 = binary. */
public enum FormatCode {
    TEXT, BINARY;

    public short code() { return (short) ordinal(); }

    /**
     * The format of item {@code index} of {@code count} under the protocol's convention
     * for format lists: none = all text, one = all the same, otherwise one per item
     * (the caller has checked that the sizes match).
     */
    public static FormatCode of(List<FormatCode> formats, int index) {
        if (formats.isEmpty()) return TEXT;
        if (formats.size() == 1) return formats.get(0);
        return formats.get(index);
    }
}
