package io.stillwater.engine.catalog;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A privilege GRANT gives on an object, with its letter in PostgreSQL's {@code aclitem}
 * text ({@code relacl}, psql's {@code \dp}). Tables take SELECT, INSERT, UPDATE and
 * DELETE; views and materialized views only SELECT (as in Materialize: they are not
 * writable); clusters USAGE and CREATE.
 */
public enum Privilege {
    INSERT('a'), SELECT('r'), UPDATE('w'), DELETE('d'), USAGE('U'), CREATE('C');

    private final char letter;

    Privilege(char letter) { this.letter = letter; }

    public char letter() { return letter; }

    /** The SQL keyword: SELECT, INSERT, ... */
    public String keyword() { return name(); }

    /** The privilege spelled {@code word} (any case), or null. */
    public static Privilege parse(String word) {
        for (Privilege p : values()) if (p.name().equals(word.toUpperCase(Locale.ROOT))) return p;
        return null;
    }

    /** What ALL [PRIVILEGES] means on an object of {@code kind} (tables, views, materialized views, clusters). */
    public static Set<Privilege> applicableTo(String kind) {
        return switch (kind) {
            case "table" -> EnumSet.of(INSERT, SELECT, UPDATE, DELETE);
            case "cluster" -> EnumSet.of(USAGE, CREATE);
            default -> EnumSet.of(SELECT);
        };
    }

    /** {@code privileges} as aclitem letters in PostgreSQL's order ({@code arwdUC}). */
    public static String letters(Set<Privilege> privileges) {
        StringBuilder b = new StringBuilder();
        for (Privilege p : values()) if (privileges.contains(p)) b.append(p.letter);
        return b.toString();
    }
}
