package io.stillwater.engine.types;

/** The value of a {@link TypeKind#JSONB} datum (placeholder until jsonb is implemented). */
public final class Jsonb implements Comparable<Jsonb> {
    private final String text;

    private Jsonb(String text) { this.text = text; }

    @Override
    public int compareTo(Jsonb o) { return text.compareTo(o.text); }

    @Override
    public boolean equals(Object o) { return o instanceof Jsonb j && j.text.equals(text); }

    @Override
    public int hashCode() { return text.hashCode(); }

    @Override
    public String toString() { return text; }
}
