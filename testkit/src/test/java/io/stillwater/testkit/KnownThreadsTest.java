package io.stillwater.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KnownThreadsTest {
    @ParameterizedTest
    @ValueSource(strings = {"Reference Handler", "ForkJoinPool.commonPool-worker-3", "process reaper", "process reaper (pid 4242)",
            "junit-jupiter-timeout-watcher", "globalEventExecutor-1-1", "PostgreSQL-JDBC-Cleaner",
            "testkit-hang-watchdog", "surefire-forkedjvm-command-thread"})
    void jvmAndLibraryGlobalThreadsMayOutliveAClass(String name) {
        assertThat(KnownThreads.mayOutliveClass(named(name))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pgwire-conn-12", "stillwater-compute-0", "stillwater-idle-tick", "wal-committer data",
            "cluster-quickstart-offload-0", "multiThreadIoEventLoopGroup-2-1", "junit-timeout-thread-4",
            "pool-3-thread-1", "Thread-7", "progress-bar", "measure-ticker"})
    void engineServerAndTestThreadsMayNot(String name) {
        assertThat(KnownThreads.mayOutliveClass(named(name))).isFalse();
    }

    private static Thread named(String name) { return Thread.ofPlatform().name(name).unstarted(() -> {}); }
}
