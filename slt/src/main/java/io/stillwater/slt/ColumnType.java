package io.stillwater.slt;

/**
 * The letters of a query's type string. They coerce how a value is rendered; they do not
 * assert the column's SQL type (as in both SQLite's and Materialize's runners).
 */
public enum ColumnType {
    /** {@code T}: text. */
    TEXT('T'),
    /** {@code I}: integer, {@code %d}. */
    INTEGER('I'),
    /** {@code R}: real, {@code %.3f} in standard mode. */
    REAL('R'),
    /** {@code B}: boolean (CockroachDB/Materialize extension). */
    BOOL('B'),
    /** {@code O}: oid (CockroachDB/Materialize extension). */
    OID('O');

    private final char letter;

    ColumnType(char letter) {
        this.letter = letter;
    }

    public char letter() {
        return letter;
    }

    /** Returns the type for a type-string letter, or null when the letter is not one. */
    static ColumnType ofLetter(char c) {
        for (ColumnType t : values()) {
            if (t.letter == c) {
                return t;
            }
        }
        return null;
    }
}
