package io.stillwater.engine.arrange;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random histories of inserts, empty steps, compaction requests, idle merging, holds and
 * snapshots; after every step the spine must read like the naive model at every readable
 * time, and so must every snapshot taken earlier.
 */
class SpinePropertiesTest {
    sealed interface Action {}

    record Upd(int key, int val, int offset, int diff) {}

    /** Updates at times upper + offset % span; the new upper is upper + span. */
    record Insert(List<Upd> updates, int span) implements Action {}

    record Advance(int by) implements Action {}

    /** Request since = upper - back. */
    record Compact(int back) implements Action {}

    record Exert(int fuel) implements Action {}

    record Snap() implements Action {}

    /** Hold at upper - back (may be refused when already compacted). */
    record Hold(int back) implements Action {}

    record Release(int which) implements Action {}

    @Provide
    Arbitrary<List<Action>> histories() {
        Arbitrary<Upd> upd = Combinators.combine(
                Arbitraries.integers().between(0, 6),
                Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 20),
                Arbitraries.integers().between(-2, 2)).as(Upd::new);
        Arbitrary<Action> small = Combinators.combine(upd.list().ofMaxSize(12), Arbitraries.integers().between(1, 4))
                .as(Insert::new);
        Arbitrary<Action> large = Combinators.combine(upd.list().ofMinSize(20).ofMaxSize(120), Arbitraries.integers().between(1, 6))
                .as(Insert::new);
        Arbitrary<Action> advance = Arbitraries.integers().between(1, 3).map(Advance::new);
        Arbitrary<Action> compact = Arbitraries.integers().between(-2, 8).map(Compact::new);
        Arbitrary<Action> exert = Arbitraries.integers().between(1, 200).map(Exert::new);
        Arbitrary<Action> hold = Arbitraries.integers().between(-1, 6).map(Hold::new);
        Arbitrary<Action> release = Arbitraries.integers().between(0, 5).map(Release::new);
        Arbitrary<Action> snap = Arbitraries.just(new Snap());
        return Arbitraries.frequencyOf(
                        Tuple.of(10, small), Tuple.of(3, large), Tuple.of(2, advance), Tuple.of(3, compact),
                        Tuple.of(3, exert), Tuple.of(2, snap), Tuple.of(2, hold), Tuple.of(2, release))
                .list().ofMinSize(1).ofMaxSize(40);
    }

    private static final List<Row> PROBE_KEYS = List.of(
            Row.of(-1L), Row.of(0L), Row.of(2L), Row.of(3L), Row.of(5L), Row.of(6L), Row.of(9L));
    private static final List<Row> PROBE_VALS = List.of(Row.of(0L, "v"), Row.of(2L, "v"), Row.of(3L, "v"));

    @Property(tries = 200)
    void spineReadsLikeTheModelAtEveryReadableTime(@ForAll("histories") List<Action> history) {
        long start = 1_000;
        Spine spine = new Spine(start);
        TraceModel model = new TraceModel();
        List<TraceSnapshot> oldSnapshots = new ArrayList<>();
        List<ReadHold> holds = new ArrayList<>();
        long requested = start;

        for (Action action : history) {
            long upper = spine.upper();
            switch (action) {
                case Insert ins -> {
                    List<KeyValUpdate> us = new ArrayList<>();
                    for (Upd u : ins.updates()) {
                        us.add(new KeyValUpdate(Row.of((long) u.key()), Row.of((long) u.val(), "v"),
                                upper + u.offset() % ins.span(), u.diff()));
                    }
                    model.addAll(us);
                    spine.insert(Batch.of(us, upper, upper + ins.span()));
                }
                case Advance a -> spine.advanceUpper(upper + a.by());
                case Compact c -> {
                    requested = Math.max(requested, upper - c.back());
                    spine.setLogicalCompaction(upper - c.back());
                }
                case Exert e -> spine.exert(e.fuel());
                case Snap s -> oldSnapshots.add(spine.snapshot());
                case Hold h -> {
                    long t = upper - h.back();
                    long sinceBefore = spine.since();
                    Optional<ReadHold> got = spine.tryAcquireHold(t);
                    assertThat(got.isPresent()).as("hold at %d with since %d", t, sinceBefore).isEqualTo(t >= sinceBefore);
                    got.ifPresent(holds::add);
                }
                case Release r -> {
                    if (!holds.isEmpty()) holds.remove(r.which() % holds.size()).close();
                }
            }

            // since: never past a hold, and at min(requested, least hold) once the writer acted.
            long minHold = holds.stream().mapToLong(ReadHold::time).min().orElse(Long.MAX_VALUE);
            TraceSnapshot snap = spine.snapshot();
            assertThat(snap.since()).isLessThanOrEqualTo(minHold);
            if (!(action instanceof Hold) && !(action instanceof Release) && !(action instanceof Snap)) {
                assertThat(snap.since()).isGreaterThanOrEqualTo(Math.min(requested, minHold));
            }
            TraceModel.checkBatches(snap);
            checkAllTimes(snap, model);
        }
        for (TraceSnapshot old : oldSnapshots) checkAllTimes(old, model);
        for (ReadHold h : holds) h.close();
    }

    private static void checkAllTimes(TraceSnapshot snap, TraceModel model) {
        for (long t = snap.since(); t < snap.upper(); t++) {
            TraceModel.check(snap, t, model.at(t), PROBE_KEYS, PROBE_VALS);
        }
    }
}
