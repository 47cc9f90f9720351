package io.stillwater.engine.sql.planner;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A lossy memory of texts seen lately: a fixed table of their hash codes, one slot per
 * hash bucket, each new text overwriting its slot. {@link #seenBefore} answers whether the
 * text's hash was in its slot, and leaves it there; a collision (two texts with one hash)
 * or an overwrite between two sightings only makes the answer wrong in a harmless way
 * (an exact-text cache entry made once too early, or not at all).
 *
 * <p>Thread-safe without locks: slots are read and written atomically, and races between
 * sessions lose at most a sighting.
 */
final class RecentTexts {
    private final AtomicIntegerArray hashes;
    private final int mask;

    /** @param slots a power of two */
    RecentTexts(int slots) {
        if (Integer.bitCount(slots) != 1) throw new IllegalArgumentException("slots must be a power of two: " + slots);
        this.hashes = new AtomicIntegerArray(slots);
        this.mask = slots - 1;
    }

    /** Whether {@code text} was seen lately; remembers it either way. */
    boolean seenBefore(String text) {
        int h = text.hashCode();
        // Spread the high bits into the slot index; 0 marks an empty slot, so a hash of 0 is never "seen".
        int slot = (h ^ (h >>> 16)) & mask;
        if (h != 0 && hashes.get(slot) == h) return true;
        hashes.set(slot, h);
        return false;
    }
}
