package io.stillwater.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The live child processes of this JVM (and theirs) at one moment, so that a {@code
 * stillwater serve}, {@code psql} or browser a test started and did not stop can be found
 * after the class. (A daemon that detaches, as {@code pg_ctl start} makes PostgreSQL do, is
 * no longer a descendant and is not seen.)
 */
record ProcessSnapshot(Set<Long> pids) {
    static ProcessSnapshot take() {
        return new ProcessSnapshot(ProcessHandle.current().descendants().map(ProcessHandle::pid)
                .collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * The processes started since this snapshot that are still alive at {@code deadline}
     * ({@link System#nanoTime()}), waiting for each to exit until then; ordered by pid.
     */
    List<ProcessHandle> stillRunningAt(long deadline) throws InterruptedException {
        List<ProcessHandle> running = new ArrayList<>();
        for (ProcessHandle p : ProcessHandle.current().descendants().filter(p -> !pids.contains(p.pid())).toList()) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // still running: reported below
            }
            if (p.isAlive()) running.add(p);
        }
        running.sort(Comparator.comparingLong(ProcessHandle::pid));
        return running;
    }

    /** "pid 123: /usr/bin/java -jar ..." as far as the OS tells. */
    static String describe(ProcessHandle p) {
        ProcessHandle.Info info = p.info();
        return "pid " + p.pid() + ": " + info.commandLine().or(info::command).orElse("(command unknown)");
    }
}
