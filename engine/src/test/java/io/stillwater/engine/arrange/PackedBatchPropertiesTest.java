package io.stillwater.engine.arrange;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Packed batches ({@link PrimitiveRows}, {@link EmptyRows}) must be indistinguishable from the
 * boxed layout ({@link BoxedRows}, one {@code Row} per position) through every batch, cursor
 * and snapshot operation: the same rows with the same datum classes, the same order
 * ({@code Row.compareTo}, i.e. {@code Datums.ORDER}), the same times and diffs, seeks,
 * lookups, multi-batch cursors and merges with compaction.
 *
 * <p>Rows come from families: two int columns (NULLs, negatives, int extremes), one or two
 * bigint columns (long extremes), and mixed rows that must fall back to boxed storage (an int
 * and a bigint in one column, text, numeric, double, another arity, the empty row). A value's
 * datum class is a function of the value, so equal rows always carry the same classes and the
 * reference's choice of representative is unambiguous.
 */
class PackedBatchPropertiesTest {
    private static final long T_END = 6; // updates of one batch at times [0, 6)

    enum Family { INTS, LONGS, MIXED }

    // ---- generators

    private static final List<Integer> INT_EDGES = List.of(Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -2, -1, 0, 1, 2,
            Integer.MAX_VALUE - 1, Integer.MAX_VALUE);
    private static final List<Long> LONG_EDGES = List.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, (long) Integer.MIN_VALUE - 1,
            -1L, 0L, 1L, (long) Integer.MAX_VALUE + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE);

    private static Arbitrary<Integer> anInt() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(-3, 3)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(INT_EDGES)));
    }

    private static Arbitrary<Long> aLong() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.longs().between(-3, 3)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(LONG_EDGES)));
    }

    private static <T> Arbitrary<T> nullable(Arbitrary<T> a) { return a.injectNull(0.15); }

    private static Arbitrary<Row> intRows() {
        return Combinators.combine(nullable(anInt()), nullable(anInt())).as((a, b) -> Row.of(a, b));
    }

    private static Arbitrary<Row> longRows(int arity) {
        return arity == 1 ? nullable(aLong()).map(a -> Row.of(a))
                : Combinators.combine(nullable(aLong()), nullable(aLong())).as((a, b) -> Row.of(a, b));
    }

    /**
     * A datum whose class is a function of v: even as Integer, odd as Long (mixes a column).
     * Called with values no other family produces, and the numeric and double datums are never
     * integral, so equal datums always have one class.
     */
    private static Object evenIntOddLong(int v) { return (v & 1) == 0 ? (Object) v : (Object) (long) v; }

    private static Arbitrary<Row> mixedRows() {
        Arbitrary<Integer> small = Arbitraries.integers().between(-3, 3);
        return Arbitraries.oneOf(
                intRows(),
                Combinators.combine(small, nullable(anInt())).as((a, b) -> Row.of(evenIntOddLong(a + 100), b)),
                Combinators.combine(small, small).as((a, b) -> Row.of(a, "s" + b)),
                small.map(a -> Row.of(a)),
                small.map(a -> Row.of(BigDecimal.valueOf(a * 10L + 5, 2), a)),
                small.map(a -> Row.of(a + 0.5, a)),
                Arbitraries.just(Row.EMPTY));
    }

    static Arbitrary<Row> rows(Family f) {
        return switch (f) {
            case INTS -> intRows();
            case LONGS -> Arbitraries.integers().between(1, 2).flatMap(PackedBatchPropertiesTest::longRows);
            case MIXED -> mixedRows();
        };
    }

    /** Values: the empty row (table and default index), small int rows, or anything. */
    static Arbitrary<Row> vals(int kind) {
        return switch (kind) {
            case 0 -> Arbitraries.just(Row.EMPTY);
            case 1 -> nullable(Arbitraries.integers().between(-2, 2)).map(v -> Row.of(v));
            default -> mixedRows();
        };
    }

    record Updates(Family family, int valKind, List<KeyValUpdate> list) {}

    @Provide
    Arbitrary<Updates> updates() {
        return Combinators.combine(Arbitraries.of(Family.class), Arbitraries.integers().between(0, 2))
                .flatAs((f, vk) -> updateList(f, vk, 0).map(l -> new Updates(f, vk, l)));
    }

    private static Arbitrary<List<KeyValUpdate>> updateList(Family f, int valKind, long timeBase) {
        Arbitrary<KeyValUpdate> u = Combinators.combine(rows(f), vals(valKind),
                        Arbitraries.longs().between(0, T_END - 1), Arbitraries.integers().between(-2, 2))
                .as((k, v, t, d) -> new KeyValUpdate(k, v, timeBase + t, d));
        return u.list().ofMaxSize(60);
    }

    @Provide
    Arbitrary<List<Updates>> twoBatches() {
        return Combinators.combine(Arbitraries.of(Family.class), Arbitraries.integers().between(0, 2))
                .flatAs((f, vk) -> Combinators.combine(updateList(f, vk, 0), updateList(f, vk, T_END))
                        .as((a, b) -> List.of(new Updates(f, vk, a), new Updates(f, vk, b))));
    }

    @Provide
    Arbitrary<Row> anyRow() {
        return Arbitraries.oneOf(rows(Family.INTS), rows(Family.LONGS), rows(Family.MIXED), vals(1));
    }

    // ---- properties

    @Property(tries = 300)
    void aPackedBatchReadsLikeTheBoxedOne(@ForAll("updates") Updates in, @ForAll("anyRow") Row probe) {
        Batch packed = Batch.of(in.list(), 0, T_END);
        assertThat(strict(packed.updates())).as("sorted, consolidated, classes kept").isEqualTo(strict(reference(in.list(), Long.MIN_VALUE)));
        checkLayout(packed, in.list());
        Batch boxed = boxedCopy(packed);

        assertThat(walk(packed.cursor())).isEqualTo(walk(boxed.cursor()));
        List<Row> probes = probes(packed, probe);
        assertThat(seeks(packed.cursor(), probes)).isEqualTo(seeks(boxed.cursor(), probes));
        TraceSnapshot ps = new TraceSnapshot(new Batch[] {packed}, T_END, 0);
        TraceSnapshot bs = new TraceSnapshot(new Batch[] {boxed}, T_END, 0);
        assertThat(lookups(ps, probes)).isEqualTo(lookups(bs, probes));
        for (long t = 0; t < T_END; t++) assertThat(scan(ps, t)).isEqualTo(scan(bs, t));
    }

    @Property(tries = 200)
    void mergesAndMultiBatchCursorsOfPackedBatchesMatchBoxed(@ForAll("twoBatches") List<Updates> in,
            @ForAll @IntRange(min = 0, max = 12) int compactTo, @ForAll("anyRow") Row probe) {
        Batch pa = Batch.of(in.get(0).list(), 0, T_END);
        Batch pb = Batch.of(in.get(1).list(), T_END, 2 * T_END);
        Batch ba = boxedCopy(pa);
        Batch bb = boxedCopy(pb);

        // Two batches through a CursorList and a snapshot's multi-batch lookup.
        TraceSnapshot ps = new TraceSnapshot(new Batch[] {pa, pb}, 2 * T_END, 0);
        TraceSnapshot bs = new TraceSnapshot(new Batch[] {ba, bb}, 2 * T_END, 0);
        assertThat(walk(ps.cursor())).isEqualTo(walk(bs.cursor()));
        List<Row> probes = probes(pa, probe);
        probes.addAll(probes(pb, probe));
        probes.sort(Row::compareTo);
        assertThat(seeks(ps.cursor(), probes)).isEqualTo(seeks(bs.cursor(), probes));
        assertThat(lookups(ps, probes)).isEqualTo(lookups(bs, probes));
        for (long t = 0; t < 2 * T_END; t++) assertThat(scan(ps, t)).isEqualTo(scan(bs, t));

        // Merging with compaction: every pairing of layouts gives the reference's updates.
        List<KeyValUpdate> all = new ArrayList<>(in.get(0).list());
        all.addAll(in.get(1).list());
        long advanceTo = Math.max(0, Math.min(compactTo, 2 * T_END - 1));
        List<String> want = strict(reference(all, advanceTo));
        for (Batch[] pair : new Batch[][] {{pa, pb}, {ba, bb}, {pa, bb}, {ba, pb}}) {
            Merger m = new Merger(pair[0], pair[1], compactTo);
            m.work(Long.MAX_VALUE);
            Batch merged = m.result();
            assertThat(strict(merged.updates())).isEqualTo(want);
            checkLayout(merged, all);
        }
    }

    @Property(tries = 500)
    void columnComparisonsAgreeWithRowOrder(@ForAll("anyRow") Row x, @ForAll("anyRow") Row y) {
        int want = Integer.signum(x.compareTo(y));
        for (RowColumn cx : columnsOf(x)) {
            assertThat(strictRow(cx.row(0))).isEqualTo(strictRow(x));
            assertThat(Integer.signum(cx.compareTo(0, y))).as("%s vs %s", x, y).isEqualTo(want);
            for (RowColumn cy : columnsOf(y)) {
                assertThat(Integer.signum(RowColumn.compare(cx, 0, cy, 0)))
                        .as("%s (%s) vs %s (%s)", x, cx.getClass().getSimpleName(), y, cy.getClass().getSimpleName())
                        .isEqualTo(want);
            }
        }
    }

    @Property(tries = 100)
    void aColumnBuiltFromTooSmallACapacityReadsBackEveryRow(@ForAll("rowRuns") List<Row> rows) {
        // Capacity 1: every growth path (columns, NULL bitmaps past 64 rows, the fallback's copy) runs.
        RowColumnBuilder fromRows = new RowColumnBuilder(1);
        for (Row r : rows) fromRows.append(r);
        RowColumn built = fromRows.build();
        // The same rows appended from the built column (a merge's path), again from capacity 1.
        RowColumnBuilder fromColumn = new RowColumnBuilder(1);
        for (int i = 0; i < rows.size(); i++) fromColumn.append(built, i);
        RowColumn copied = fromColumn.build();
        if (!rows.isEmpty()) {
            assertThat(built.getClass()).isEqualTo(expectedLayout(rows));
            assertThat(copied.getClass()).isEqualTo(built.getClass());
        }
        for (int i = 0; i < rows.size(); i++) {
            assertThat(strictRow(built.row(i))).isEqualTo(strictRow(rows.get(i)));
            assertThat(strictRow(copied.row(i))).isEqualTo(strictRow(rows.get(i)));
            assertThat(built.compareTo(i, rows.get(i))).isZero();
        }
    }

    /** Up to 300 rows of one family, sometimes ending in rows of another (a late fallback). */
    @Provide
    Arbitrary<List<Row>> rowRuns() {
        return Combinators.combine(Arbitraries.of(Family.class), Arbitraries.of(Family.class))
                .flatAs((f, g) -> Combinators.combine(rows(f).list().ofMaxSize(300), rows(g).list().ofMaxSize(3))
                        .as((a, b) -> {
                            List<Row> out = new ArrayList<>(a);
                            out.addAll(b);
                            return out;
                        }));
    }

    // ---- helpers

    /** The row as a one-row column in each layout that can hold it. */
    private static List<RowColumn> columnsOf(Row r) {
        RowColumnBuilder b = new RowColumnBuilder(1);
        b.append(r);
        return List.of(b.build(), new BoxedRows(new Row[] {r}));
    }

    /** Sorted, consolidated (key, val, time) with times advanced to at least advanceTo. */
    private static List<KeyValUpdate> reference(List<KeyValUpdate> in, long advanceTo) {
        record KVT(Row key, Row val, long time) implements Comparable<KVT> {
            @Override
            public int compareTo(KVT o) {
                int c = key.compareTo(o.key);
                if (c == 0) c = val.compareTo(o.val);
                return c != 0 ? c : Long.compare(time, o.time);
            }
        }
        TreeMap<KVT, Long> m = new TreeMap<>();
        for (KeyValUpdate u : in) m.merge(new KVT(u.key(), u.val(), Math.max(u.time(), advanceTo)), u.diff(), Long::sum);
        List<KeyValUpdate> out = new ArrayList<>();
        m.forEach((k, d) -> {
            if (d != 0) out.add(new KeyValUpdate(k.key(), k.val(), k.time(), d));
        });
        return out;
    }

    /** The compact forms are chosen exactly when every row fits them. */
    private static void checkLayout(Batch b, List<KeyValUpdate> in) {
        if (b.keyCount() == 0) return;
        List<Row> keys = new ArrayList<>();
        List<Row> vals = new ArrayList<>();
        for (KeyValUpdate u : b.updates()) {
            keys.add(u.key());
            vals.add(u.val());
        }
        assertThat(b.keys.getClass()).as("keys of %s", keys).isEqualTo(expectedLayout(keys));
        assertThat(b.vals.getClass()).as("vals of %s", vals).isEqualTo(expectedLayout(vals));
        // Columns without information are dropped, and only those.
        assertThat(b.keyOffs == null).isEqualTo(b.keyCount == b.valCount);
        assertThat(b.valOffs == null).isEqualTo(b.valCount == b.updateCount);
        List<KeyValUpdate> us = b.updates();
        assertThat(b.times == null).isEqualTo(us.stream().map(KeyValUpdate::time).distinct().count() == 1);
        assertThat(b.diffs == null).isEqualTo(us.stream().map(KeyValUpdate::diff).distinct().count() == 1);
    }

    @Example
    void aCompactedTablesBatchStoresOnlyItsKeyColumns() {
        List<KeyValUpdate> us = new ArrayList<>();
        for (int g = 0; g < 1000; g++) us.add(new KeyValUpdate(Row.of(g, g + 1), Row.EMPTY, 0, 1));
        Batch b = Batch.of(us, 0, 1);
        assertThat(b.keys).isInstanceOf(PrimitiveRows.class);
        assertThat(b.vals).isSameAs(EmptyRows.INSTANCE);
        assertThat(b.keyOffs).isNull();
        assertThat(b.valOffs).isNull();
        assertThat(b.times).isNull();
        assertThat(b.diffs).isNull();
        assertThat(strict(b.updates())).isEqualTo(strict(us));
        TraceSnapshot s = new TraceSnapshot(new Batch[] {b}, 1, 0);
        Row probe = Row.of(500, 501);
        assertThat(s.lookup(probe, 0)).containsExactly(new TraceSnapshot.Entry(probe, Row.EMPTY, 1));
        assertThat(s.lookup(probe, 0).get(0).key()).as("a hit returns the probe, no copy").isSameAs(probe);
        assertThat(strictRow(s.lookup(Row.of(500L, 501L), 0).get(0).key()))
                .as("a probe of other classes gets the stored classes").isEqualTo("(Integer:500, Integer:501)");
        assertThat(s.lookup(Row.of(500, 502), 0)).isEmpty();
    }

    private static Class<?> expectedLayout(List<Row> rows) {
        if (rows.stream().allMatch(r -> r.arity() == 0)) return EmptyRows.class;
        int arity = rows.get(0).arity();
        if (arity == 0) return BoxedRows.class;
        for (int c = 0; c < arity; c++) {
            Class<?> seen = null;
            for (Row r : rows) {
                if (r.arity() != arity) return BoxedRows.class;
                Object d = r.get(c);
                if (d == null) continue;
                if (!(d instanceof Integer) && !(d instanceof Long)) return BoxedRows.class;
                if (seen != null && seen != d.getClass()) return BoxedRows.class;
                seen = d.getClass();
            }
        }
        return PrimitiveRows.class;
    }

    /** The same batch in the layout before packing: boxed rows, and every offset, time and diff stored. */
    static Batch boxedCopy(Batch p) {
        Row[] keys = new Row[p.keyCount];
        int[] keyOffs = new int[p.keyCount + 1];
        for (int k = 0; k <= p.keyCount; k++) {
            if (k < p.keyCount) keys[k] = p.keys.row(k);
            keyOffs[k] = p.valStart(k);
        }
        Row[] vals = new Row[p.valCount];
        int[] valOffs = new int[p.valCount + 1];
        for (int v = 0; v <= p.valCount; v++) {
            if (v < p.valCount) vals[v] = p.vals.row(v);
            valOffs[v] = p.updStart(v);
        }
        long[] times = new long[p.updateCount];
        long[] diffs = new long[p.updateCount];
        for (int u = 0; u < p.updateCount; u++) {
            times[u] = p.time(u);
            diffs[u] = p.diff(u);
        }
        return new Batch(new BoxedRows(keys), keyOffs, p.keyCount, new BoxedRows(vals), valOffs, p.valCount,
                times, 0, diffs, 0, p.updateCount, p.lower(), p.upper(), p.since());
    }

    /** Keys and values of the batch, the probe, and neighbours that are absent or differ in class. */
    private static List<Row> probes(Batch b, Row probe) {
        List<Row> out = new ArrayList<>();
        out.add(probe);
        out.add(Row.EMPTY);
        for (KeyValUpdate u : b.updates()) {
            out.add(u.key());
            out.add(u.val());
            if (u.key().arity() > 0 && u.key().get(0) instanceof Integer i) {
                Object[] asLong = u.key().toArray();
                asLong[0] = (long) i; // equal value, other class: must still be found
                out.add(Row.wrap(asLong));
                Object[] next = u.key().toArray();
                next[0] = i == Integer.MAX_VALUE ? (Object) ((long) i + 1) : (Object) (i + 1);
                out.add(Row.wrap(next));
            }
        }
        out.sort(Row::compareTo);
        return out;
    }

    /** Everything a full cursor walk shows, datum classes included. */
    private static List<String> walk(Cursor c) {
        List<String> out = new ArrayList<>();
        while (c.keyValid()) {
            Row key = c.key();
            assertThat(c.key()).as("key() cached per position").isSameAs(key);
            out.add("K" + strictRow(key));
            while (c.valValid()) {
                Row val = c.val();
                assertThat(c.val()).as("val() cached per position").isSameAs(val);
                StringBuilder s = new StringBuilder("V" + strictRow(val));
                for (long t = 0; t <= 2 * T_END; t++) s.append(' ').append(c.diffAt(t));
                List<Long> times = new ArrayList<>();
                c.forEachTime((t, d) -> times.add(t * 1000 + d));
                times.sort(Long::compare);
                out.add(s + " " + times);
                c.stepVal();
            }
            c.stepKey();
        }
        return out;
    }

    /** Seeks in ascending probe order on one cursor (forward only), then each from a rewind. */
    private static List<String> seeks(Cursor c, List<Row> probes) {
        List<String> out = new ArrayList<>();
        for (Row p : probes) {
            c.seekKey(p);
            out.add(c.keyValid() ? strictRow(c.key()) : "end");
        }
        for (Row p : probes) {
            c.rewindKeys();
            c.seekKey(p);
            if (!c.keyValid()) {
                out.add("end");
                continue;
            }
            for (Row v : probes) {
                c.seekVal(v);
                out.add(c.valValid() ? strictRow(c.val()) : "vend");
            }
            c.rewindVals();
            out.add(c.valValid() ? strictRow(c.val()) : "vend");
        }
        return out;
    }

    private static List<String> lookups(TraceSnapshot s, List<Row> probes) {
        List<String> out = new ArrayList<>();
        for (long t = s.since(); t < s.upper(); t++) {
            for (Row p : probes) {
                for (TraceSnapshot.Entry e : s.lookup(p, t)) {
                    out.add(t + " " + strictRow(p) + " -> " + strictRow(e.key()) + strictRow(e.val()) + " " + e.diff());
                }
            }
        }
        return out;
    }

    private static List<String> scan(TraceSnapshot s, long t) {
        List<String> out = new ArrayList<>();
        s.forEachAt(t, (k, v, d) -> out.add(strictRow(k) + strictRow(v) + d));
        return out;
    }

    private static List<String> strict(List<KeyValUpdate> us) {
        return us.stream().map(u -> strictRow(u.key()) + strictRow(u.val()) + "@" + u.time() + "x" + u.diff()).toList();
    }

    /** A row with each datum's class, so an Integer never passes for an equal Long. */
    static String strictRow(Row r) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < r.arity(); i++) {
            Object d = r.get(i);
            if (i > 0) s.append(", ");
            s.append(d == null ? "NULL" : d.getClass().getSimpleName() + ":" + d);
        }
        return s.append(')').toString();
    }
}
