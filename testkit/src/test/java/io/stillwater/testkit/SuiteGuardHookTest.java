package io.stillwater.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Example;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/** The jqwik guard, run on jqwik fixture classes through a nested launcher. */
class SuiteGuardHookTest {
    @AfterEach
    void endFixtureThreads() throws InterruptedException {
        FixtureThreads.releaseAll();
    }

    static class LeakingProperties {
        @Example
        void startsAThreadAndLeavesIt() {
            FixtureThreads.fixtureThread = Thread.ofPlatform().name("fixture-jqwik-worker").start(FixtureThreads::awaitRelease);
        }
    }

    @Test
    void aPropertyClassThatLeavesAThreadRunningFails() {
        // the jqwik hook reads the wait from the system property (jqwik hooks see no JUnit configuration)
        String old = System.setProperty(ClassStart.WAIT_PROPERTY, "1");
        FixtureRun run;
        try {
            run = FixtureRun.of(LeakingProperties.class, "jqwik", Map.of());
        } finally {
            if (old == null) System.clearProperty(ClassStart.WAIT_PROPERTY);
            else System.setProperty(ClassStart.WAIT_PROPERTY, old);
        }

        assertThat(run.test("startsAThreadAndLeavesIt").result().getStatus()).isEqualTo(Status.SUCCESSFUL);
        FixtureRun.Outcome container = run.container(LeakingProperties.class);
        assertThat(container.result().getStatus()).isEqualTo(Status.FAILED);
        assertThat(container.failure().get().getMessage())
                .contains("LeakingProperties left 1 thread(s) [\"fixture-jqwik-worker\"] running");
    }

    static class SlowProperties {
        @Example
        @PropertyTimeout(value = 1, unit = TimeUnit.SECONDS)
        void waitsPastItsTimeout() throws InterruptedException {
            new CountDownLatch(1).await(); // only the watchdog's interrupt ends this
        }
    }

    @Test
    void aPropertyPastItsTimeoutIsInterruptedFailsAndLeavesADump() throws Exception {
        Path dump = HangDumps.dir().resolve(SlowProperties.class.getName() + ".waitsPastItsTimeout.txt");
        Files.deleteIfExists(dump);

        FixtureRun run = FixtureRun.of(SlowProperties.class, "jqwik", Map.of());

        FixtureRun.Outcome test = run.test("waitsPastItsTimeout");
        assertThat(test.result().getStatus()).as("%s", test).isEqualTo(Status.FAILED);
        assertThat(test.failure()).get().isInstanceOf(TimeoutException.class)
                .extracting(Throwable::getMessage).asString().contains("timed out after PT1S");
        // the property runs on this thread (the nested launcher runs synchronously)
        String propertyThread = Thread.currentThread().getName();
        assertThat(Files.readString(dump))
                .contains("hang guard: " + SlowProperties.class.getName() + ".waitsPastItsTimeout ran longer than PT1S")
                .contains("interrupting thread \"" + propertyThread + "\"")
                .contains("\n\"" + propertyThread + "\" prio=");
        assertThat(Thread.currentThread().isInterrupted()).as("the watchdog's interrupt does not leak out").isFalse();
    }
}
