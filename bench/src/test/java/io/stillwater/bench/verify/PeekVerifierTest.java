package io.stillwater.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.verify.PeekExpectation.Runtime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The matching logic of self-verification on fabricated peek-history rows. */
class PeekVerifierTest {
    private static final String LOOKUP = "SELECT v FROM hot WHERE k = 42 (pooled)";
    private static final String WALK = "SELECT v FROM hot WHERE v = -1 (reuse connection)";
    private static final Map<String, String> SQL = Map.of(
            LOOKUP, "SELECT v FROM hot WHERE k = 42",
            WALK, "SELECT v FROM hot WHERE v = -1");

    private static List<PeekRecord> rows(int n, String sql, String runtime, Boolean fastPath, Boolean offloaded) {
        List<PeekRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new PeekRecord(sql, runtime, fastPath, offloaded, "success"));
        }
        return out;
    }

    @Test
    void everyPeekOnTheExpectedRuntimeAndPathHolds() {
        List<PeekRecord> history = new ArrayList<>();
        history.addAll(rows(100, "SELECT v FROM hot WHERE k = 42", "interactive", true, false));
        // whitespace and a trailing semicolon do not hide a peek; other statements are ignored
        history.addAll(rows(3, "SELECT v\n  FROM hot WHERE k = 42;", "interactive", true, false));
        history.addAll(rows(50, "SELECT count(*) FROM hot", "maintenance", false, false));
        Map<String, PeekExpectation> expected = Map.of(LOOKUP,
                PeekExpectation.on(Runtime.INTERACTIVE).fastPath().notOffloaded());
        assertThat(PeekVerifier.check(expected, SQL, history)).isEmpty();
    }

    @Test
    void peeksOnAnotherRuntimeMakeTheScenarioInvalidCountingThem() {
        List<PeekRecord> history = new ArrayList<>();
        history.addAll(rows(97, "SELECT v FROM hot WHERE k = 42", "interactive", true, false));
        history.addAll(rows(3, "SELECT v FROM hot WHERE k = 42", "solo", true, false));
        List<String> reasons = PeekVerifier.check(Map.of(LOOKUP, PeekExpectation.on(Runtime.INTERACTIVE)), SQL, history);
        assertThat(reasons).singleElement().asString()
                .isEqualTo("\"" + LOOKUP + "\" expected runtime interactive, but 3 of 100 peeks in "
                        + "mz_introspection.mz_peek_history did not: 3 runtime solo");
    }

    @Test
    void pathAndOffloadAreCheckedAndUnknownValuesNeverPass() {
        List<PeekRecord> history = new ArrayList<>();
        history.addAll(rows(2, "SELECT v FROM hot WHERE v = -1", "maintenance", false, true));
        history.addAll(rows(1, "SELECT v FROM hot WHERE v = -1", "maintenance", null, null));
        history.addAll(rows(5, "SELECT v FROM hot WHERE v = -1", "maintenance", true, true));
        List<String> reasons = PeekVerifier.check(Map.of(WALK,
                PeekExpectation.on(Runtime.MAINTENANCE).fastPath().offloaded()), SQL, history);
        assertThat(reasons).singleElement().asString()
                .contains("expected runtime maintenance, fast path, offloaded")
                .contains("3 of 8 peeks").contains("2 dataflow").contains("1 path unknown, offload unknown");
    }

    @Test
    void anActionWithoutAnyRecordedPeekCannotBeVerified() {
        Map<String, PeekExpectation> expected = new LinkedHashMap<>();
        expected.put(LOOKUP, PeekExpectation.ANYWHERE);
        expected.put(WALK, PeekExpectation.on(Runtime.SOLO));
        List<String> reasons = PeekVerifier.check(expected, SQL,
                rows(10, "SELECT v FROM hot WHERE k = 42", "solo", true, false));
        assertThat(reasons).containsExactly("cannot verify \"" + WALK + "\": no peek of it in "
                + "mz_introspection.mz_peek_history (expected runtime solo)");
    }

    /**
     * The read runtime is resolved per side: one declaration holds on a two-runtime replica (peeks on
     * the interactive runtime) and on a solo one (peeks on the solo runtime), and fails where the peeks
     * ran on another runtime than the side's flag provisions (the flag did not reach the replica).
     */
    @Test
    void theReadRuntimeIsInteractiveOnATwoRuntimeSideAndSoloOnASoloSide() {
        PeekExpectation read = PeekExpectation.onReadRuntime().fastPath();
        assertThat(read.resolve(Runtime.INTERACTIVE)).isEqualTo(PeekExpectation.on(Runtime.INTERACTIVE).fastPath());
        assertThat(read.resolve(Runtime.SOLO)).isEqualTo(PeekExpectation.on(Runtime.SOLO).fastPath());
        // a pinned runtime stays pinned
        assertThat(PeekExpectation.on(Runtime.SOLO).resolve(Runtime.INTERACTIVE)).isEqualTo(PeekExpectation.on(Runtime.SOLO));
        assertThat(read).hasToString("the read runtime, fast path");

        List<PeekRecord> twoRuntimes = rows(10, "SELECT v FROM hot WHERE k = 42", "interactive", true, false);
        List<PeekRecord> solo = rows(10, "SELECT v FROM hot WHERE k = 42", "solo", true, false);
        assertThat(PeekVerifier.check(Map.of(LOOKUP, read.resolve(Runtime.INTERACTIVE)), SQL, twoRuntimes)).isEmpty();
        assertThat(PeekVerifier.check(Map.of(LOOKUP, read.resolve(Runtime.SOLO)), SQL, solo)).isEmpty();
        assertThat(PeekVerifier.check(Map.of(LOOKUP, read.resolve(Runtime.INTERACTIVE)), SQL, solo)).singleElement()
                .asString().contains("10 of 10 peeks").contains("10 runtime solo");
        // never checked unresolved: the read runtime depends on the side
        Assertions.assertThatThrownBy(() -> PeekVerifier.check(Map.of(LOOKUP, read), SQL, solo))
                .isInstanceOf(IllegalStateException.class);
        Assertions.assertThatThrownBy(() -> read.resolve(Runtime.MAINTENANCE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void findingsSayWhereEachActionsPeeksRan() {
        List<PeekRecord> history = new ArrayList<>();
        history.addAll(rows(7, "SELECT v FROM hot WHERE k = 42", "interactive", true, false));
        history.addAll(rows(2, "SELECT v FROM hot WHERE k = 42", "solo", false, null));
        Map<String, PeekExpectation> expected = new LinkedHashMap<>();
        expected.put(LOOKUP, PeekExpectation.on(Runtime.INTERACTIVE).fastPath());
        expected.put(WALK, PeekExpectation.on(Runtime.SOLO)); // no peek: no finding (check reports it)
        assertThat(PeekVerifier.findings(expected, SQL, history)).containsExactly("where \"" + LOOKUP + "\" ran: 9 peeks in "
                + "mz_introspection.mz_peek_history; runtime interactive 7; runtime solo 2; fast path 7; dataflow 2; "
                + "not offloaded 7 (expected runtime interactive, fast path)");
    }
}
