package io.stillwater.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult.Status;

/** The Jupiter guard, run on fixture classes through a nested launcher. */
class SuiteGuardExtensionTest {
    /** Released by each test at its end, so no fixture thread outlives this class. */
    private static final Map<String, String> FAST = Map.of(ClassStart.WAIT_PROPERTY, "1");

    @AfterEach
    void endFixtureThreads() throws InterruptedException {
        FixtureThreads.releaseAll();
    }

    static class LeakingFixture {
        @Test
        void startsAThreadAndLeavesIt() {
            FixtureThreads.fixtureThread = Thread.ofPlatform().name("fixture-engine-worker").start(FixtureThreads::awaitRelease);
        }
    }

    @Test
    void aClassThatLeavesAThreadRunningFailsNamingItWithItsStack() {
        FixtureRun run = FixtureRun.of(LeakingFixture.class, "junit-jupiter", FAST);

        assertThat(run.test("startsAThreadAndLeavesIt").result().getStatus()).isEqualTo(Status.SUCCESSFUL);
        FixtureRun.Outcome container = run.container(LeakingFixture.class);
        assertThat(container.result().getStatus()).isEqualTo(Status.FAILED);
        assertThat(container.failure()).get().isInstanceOf(AssertionError.class);
        assertThat(container.failure().get().getMessage())
                .contains("LeakingFixture left 1 thread(s) [\"fixture-engine-worker\"] running 1 s after its last test")
                .contains("io.stillwater.testkit.FixtureThreads.awaitRelease(");
    }

    static class ProcessLeakingFixture {
        static volatile Process child;

        @Test
        void startsAProcessAndLeavesIt() throws Exception {
            child = new ProcessBuilder("sleep", "600").start();
        }
    }

    @Test
    void aClassThatLeavesAChildProcessRunningFailsAndTheProcessIsKilled() throws Exception {
        FixtureRun run = FixtureRun.of(ProcessLeakingFixture.class, "junit-jupiter", FAST);

        Process child = ProcessLeakingFixture.child;
        assertThat(run.container(ProcessLeakingFixture.class).failure()).get()
                .extracting(Throwable::getMessage).asString()
                .contains("left 1 child process(es) [pid " + child.pid() + ": ", "sleep 600", "(now killed)");
        child.onExit().get(); // killed by the guard; otherwise this waits until the test's timeout
        assertThat(child.isAlive()).isFalse();
    }

    static class TidyFixture {
        static Thread worker;

        @Test
        void startsAThreadThatAfterAllStops() {
            worker = Thread.ofPlatform().name("fixture-tidy-worker").start(FixtureThreads::awaitRelease);
        }

        @org.junit.jupiter.api.AfterAll
        static void stop() throws InterruptedException {
            FixtureThreads.release.countDown();
            worker.join();
        }
    }

    @Test
    void aClassThatStopsItsThreadsPasses() {
        FixtureRun run = FixtureRun.of(TidyFixture.class, "junit-jupiter", FAST);

        assertThat(run.container(TidyFixture.class).result().getStatus()).as("%s", run).isEqualTo(Status.SUCCESSFUL);
    }

    static class HangingFixture {
        @Test
        @Timeout(value = 1, unit = TimeUnit.SECONDS)
        void blocksPastItsTimeout() {
            FixtureThreads.fixtureThread = Thread.currentThread();
            FixtureThreads.awaitRelease();
        }
    }

    @Test
    void aTestStuckPastItsTimeoutFailsAndLeavesAFullThreadDump() throws Exception {
        Path dump = HangDumps.dir().resolve(HangingFixture.class.getName() + ".blocksPastItsTimeout.txt");
        Files.deleteIfExists(dump);

        // SEPARATE_THREAD as the poms configure it: the test fails at its limit even though its
        // thread ignores the interrupt; the stuck thread is then reported as a leak.
        FixtureRun run = FixtureRun.of(HangingFixture.class, "junit-jupiter",
                Map.of(ClassStart.WAIT_PROPERTY, "1",
                        "junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD"));

        FixtureRun.Outcome test = run.test("blocksPastItsTimeout");
        assertThat(test.result().getStatus()).isEqualTo(Status.FAILED);
        assertThat(test.failure()).get().isInstanceOf(TimeoutException.class);
        assertThat(run.container(HangingFixture.class).failure()).get()
                .extracting(Throwable::getMessage).asString().contains("left 1 thread(s) [\"" + FixtureThreads.fixtureThread.getName() + "\"]");

        // The dump names the test and holds the stuck thread's section. (Its frames at that moment
        // depend on how far the thread got within its 1 s on a loaded machine; that a dump shows
        // every frame and lock is ThreadDumpTest's subject.)
        String stuck = FixtureThreads.fixtureThread.getName();
        assertThat(Files.readString(dump))
                .contains("hang guard: " + HangingFixture.class.getName() + ".blocksPastItsTimeout exceeded its timeout")
                .contains("interrupting thread \"" + stuck + "\"")
                .contains("\n\"" + stuck + "\" prio=");
        assertThat(dump.resolveSibling(HangingFixture.class.getName() + ".blocksPastItsTimeout.all-threads.txt")).exists();
    }
}
