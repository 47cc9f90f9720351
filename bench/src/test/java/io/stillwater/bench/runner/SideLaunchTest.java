package io.stillwater.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.runner.TargetLauncher.LaunchedTarget;
import io.stillwater.bench.scenario.Capability;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The launch frame both benches share: every way a launch or a close can end, and missing capabilities. */
class SideLaunchTest {
    private static final Target TARGET = Target.of("jdbc:postgresql://127.0.0.1:1/none", "bench",
            EnumSet.of(Capability.CLUSTERS));

    @Test
    void aLauncherThatSkipsIsASkipWithItsReason() {
        SideLaunch.Launch l = SideLaunch.launch(() -> {
            throw new TargetSkipException("no PostgreSQL installed");
        });
        assertThat(l).isEqualTo(new SideLaunch.Skipped("no PostgreSQL installed"));
    }

    @Test
    void anyOtherLaunchFailureIsAFailureNamingTheStartAndTheSqlState() {
        SideLaunch.Launch sql = SideLaunch.launch(() -> {
            throw new SQLException("FATAL: the database system is starting up", "57P03");
        });
        assertThat(sql).isEqualTo(new SideLaunch.Failed(
                "starting the target: 57P03: the database system is starting up"));
        // an Error too: one side that cannot start never ends the bench
        SideLaunch.Launch error = SideLaunch.launch(() -> {
            throw new OutOfMemoryError("Java heap space");
        });
        assertThat(error).isEqualTo(new SideLaunch.Failed("starting the target: OutOfMemoryError: Java heap space"));
    }

    @Test
    void aLaunchedTargetIsUpAndClosesQuietly() {
        SideLaunch.Launch l = SideLaunch.launch(TargetLauncher.existing(TARGET));
        assertThat(l).isInstanceOf(SideLaunch.Up.class);
        LaunchedTarget target = ((SideLaunch.Up) l).target();
        assertThat(target.jdbcUrl()).isEqualTo(TARGET.jdbcUrl());
        assertThat(SideLaunch.close(target)).isEmpty();
    }

    @Test
    void aTargetThatWillNotStopGivesTextNotAnException() {
        LaunchedTarget stubborn = new LaunchedTarget() {
            @Override
            public String jdbcUrl() {
                return TARGET.jdbcUrl();
            }

            @Override
            public String user() {
                return TARGET.user();
            }

            @Override
            public Set<Capability> capabilities() {
                return TARGET.capabilities();
            }

            @Override
            public void close() {
                throw new IllegalStateException("process 42 did not exit");
            }
        };
        assertThat(SideLaunch.close(stubborn)).contains("IllegalStateException: process 42 did not exit");
    }

    @Test
    void missingIsWhatIsRequiredAndNotAvailable() {
        assertThat(SideLaunch.missing(EnumSet.of(Capability.CLUSTERS), TARGET.capabilities())).isEmpty();
        Set<Capability> all = EnumSet.allOf(Capability.class);
        Set<Capability> expected = EnumSet.allOf(Capability.class);
        expected.remove(Capability.CLUSTERS);
        assertThat(SideLaunch.missing(all, TARGET.capabilities())).isEqualTo(expected);
        assertThat(SideLaunch.missing(Set.of(), Set.of())).isEmpty();
    }
}
