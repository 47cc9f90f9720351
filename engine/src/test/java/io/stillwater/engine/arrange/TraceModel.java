package io.stillwater.engine.arrange;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The naive reference: a multiset of (key, val) summed over updates at times <= t. */
final class TraceModel {
    /** A (key, val) pair ordered like storage order. */
    record KV(Row key, Row val) implements Comparable<KV> {
        @Override
        public int compareTo(KV o) {
            int c = key.compareTo(o.key);
            return c != 0 ? c : val.compareTo(o.val);
        }
    }

    final List<KeyValUpdate> updates = new ArrayList<>();

    void add(KeyValUpdate u) { updates.add(u); }

    void addAll(List<KeyValUpdate> us) { updates.addAll(us); }

    /** The contents at t, in storage order, zero diffs dropped. */
    TreeMap<KV, Long> at(long t) {
        TreeMap<KV, Long> m = new TreeMap<>();
        for (KeyValUpdate u : updates) {
            if (u.time() <= t) m.merge(new KV(u.key(), u.val()), u.diff(), Long::sum);
        }
        m.values().removeIf(d -> d == 0);
        return m;
    }

    static Map<KV, Long> read(TraceSnapshot s, long t) {
        Map<KV, Long> out = new LinkedHashMap<>();
        s.forEachAt(t, (k, v, d) -> {
            KV kv = new KV(k, v);
            assertThat(out).as("each (key, val) visited once").doesNotContainKey(kv);
            out.put(kv, d);
        });
        return out;
    }

    /** Checks a snapshot at t against the model: full scan (in order), lookups, seeks. */
    static void check(TraceSnapshot s, long t, TreeMap<KV, Long> expected, List<Row> probeKeys, List<Row> probeVals) {
        Map<KV, Long> actual = read(s, t);
        assertThat(new ArrayList<>(actual.entrySet()))
                .as("contents of %s at %d", s, t)
                .containsExactlyElementsOf(new ArrayList<>(expected.entrySet()));

        // A walk in slices (1, 2, 3, ... visits per advance) visits what forEachAt does, in order.
        List<String> whole = new ArrayList<>();
        s.forEachAt(t, (k, v, d) -> whole.add(k + "/" + v + "/" + d));
        for (int slice = 1; slice <= 3; slice++) {
            List<String> sliced = new ArrayList<>();
            TraceSnapshot.Walk w = s.walk(t);
            int calls = 0;
            int[] visits = new int[1];
            boolean done = false;
            while (!done) {
                visits[0] = 0;
                done = w.advance(slice, (k, v, d) -> {
                    visits[0]++;
                    sliced.add(k + "/" + v + "/" + d);
                });
                assertThat(visits[0]).as("visits per advance of %d", slice).isLessThanOrEqualTo(slice);
                assertThat((long) ++calls).as("advances of %d over %d entries", slice, whole.size())
                        .isLessThanOrEqualTo(2 * s.updateCount() + 2);
            }
            assertThat(w.advance(slice, (k, v, d) -> sliced.add("after the end"))).isTrue();
            assertThat(sliced).as("walk of %s at %d in slices of %d", s, t, slice).containsExactlyElementsOf(whole);
        }

        for (Row key : probeKeys) {
            Map<Row, Long> want = new LinkedHashMap<>();
            expected.forEach((kv, d) -> {
                if (kv.key().equals(key)) want.put(kv.val(), d);
            });
            Map<Row, Long> got = new LinkedHashMap<>();
            s.lookup(key, t, (k, v, d) -> {
                assertThat(k).isEqualTo(key);
                got.put(v, d);
            });
            assertThat(got).as("lookup %s at %d", key, t).containsExactlyEntriesOf(want);
        }

        // Forward seeks on one cursor: every probe key in order, then probe values in order.
        Cursor c = s.cursor();
        for (Row key : probeKeys) {
            c.seekKey(key);
            Row wantKey = null;
            for (KV kv : s.batches().isEmpty() ? List.<KV>of() : allKeys(s)) {
                if (kv.key().compareTo(key) >= 0) {
                    wantKey = kv.key();
                    break;
                }
            }
            if (wantKey == null) {
                assertThat(c.keyValid()).as("no key at or after %s", key).isFalse();
                break;
            }
            assertThat(c.keyValid()).isTrue();
            assertThat(c.key()).isEqualTo(wantKey);
            for (Row val : probeVals) {
                c.seekVal(val);
                if (!c.valValid()) break;
                assertThat(c.val().compareTo(val)).isGreaterThanOrEqualTo(0);
                Long want = expected.get(new KV(c.key(), c.val()));
                assertThat(c.diffAt(t)).as("diff of %s/%s at %d", c.key(), c.val(), t).isEqualTo(want == null ? 0L : want);
            }
        }
        assertThat(c.positions()).isPositive();
    }

    /** Every stored (key, val) of the snapshot (any time), sorted. */
    private static List<KV> allKeys(TraceSnapshot s) {
        TreeMap<KV, Boolean> all = new TreeMap<>();
        for (Batch b : s.batches()) for (KeyValUpdate u : b.updates()) all.put(new KV(u.key(), u.val()), true);
        return new ArrayList<>(all.keySet());
    }

    /** Structural invariants of every batch: sorted, consolidated, inside its description. */
    static void checkBatches(TraceSnapshot s) {
        long prevUpper = Long.MIN_VALUE;
        for (Batch b : s.batches()) {
            assertThat(b.lower()).as("batches in time order").isGreaterThanOrEqualTo(prevUpper);
            prevUpper = b.upper();
            assertThat(b.isEmpty()).as("snapshots list no empty batch").isFalse();
            KeyValUpdate prev = null;
            for (KeyValUpdate u : b.updates()) {
                assertThat(u.diff()).isNotZero();
                assertThat(u.time()).isBetween(b.lower(), b.upper() - 1);
                assertThat(u.time()).isGreaterThanOrEqualTo(b.since());
                if (prev != null) {
                    int c = prev.key().compareTo(u.key());
                    if (c == 0) c = prev.val().compareTo(u.val());
                    if (c == 0) c = Long.compare(prev.time(), u.time());
                    assertThat(c).as("strictly increasing (key, val, time) in %s", b).isNegative();
                }
                prev = u;
            }
            long distinctKeys = b.updates().stream().map(KeyValUpdate::key).distinct().count();
            assertThat(b.keyCount()).as("each key stored once in %s", b).isEqualTo((int) distinctKeys);
        }
        assertThat(prevUpper).isLessThanOrEqualTo(s.upper());
    }
}
