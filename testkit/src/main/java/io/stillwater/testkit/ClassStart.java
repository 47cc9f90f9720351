package io.stillwater.testkit;

import java.time.Duration;
import java.util.List;

/** What was running when a test class started: its threads and child processes. */
record ClassStart(ThreadSnapshot threads, ProcessSnapshot processes) {
    /** How long to wait, in seconds, for a class's threads and processes to end after it. */
    static final String WAIT_PROPERTY = "stillwater.test.threadLeakWaitSeconds";

    static ClassStart now() { return new ClassStart(ThreadSnapshot.take(), ProcessSnapshot.take()); }

    /** {@value #WAIT_PROPERTY} as a system property, else 10 s. */
    static Duration defaultWait() { return Duration.ofSeconds(Long.getLong(WAIT_PROPERTY, 10)); }

    /**
     * The failure message for the threads and child processes started since this snapshot
     * that are still running after waiting {@code wait} for them, or null if there are none.
     * Such processes are killed (a thread cannot be), so they do not burden the next classes.
     */
    String leaksAfter(String testClass, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        List<Thread> leakedThreads = threads.stillRunningAfter(wait);
        List<ProcessHandle> leakedProcesses = processes.stillRunningAt(deadline);
        if (leakedThreads.isEmpty() && leakedProcesses.isEmpty()) return null;
        StringBuilder out = new StringBuilder(testClass).append(" left");
        if (!leakedThreads.isEmpty()) {
            out.append(' ').append(leakedThreads.size()).append(" thread(s) ")
                    .append(leakedThreads.stream().map(t -> '"' + t.getName() + '"').toList());
        }
        if (!leakedProcesses.isEmpty()) {
            out.append(leakedThreads.isEmpty() ? " " : " and ").append(leakedProcesses.size()).append(" child process(es) ")
                    .append(leakedProcesses.stream().map(ProcessSnapshot::describe).toList()).append(" (now killed)");
        }
        out.append(" running ").append(wait.toSeconds()).append(" s after its last test.")
                .append(" Close every engine, server, connection, executor and process the class starts")
                .append(" (try-with-resources, @AfterEach, @AfterAll); threads that may outlive a class are listed in")
                .append(" io.stillwater.testkit.KnownThreads.\n\n").append(ThreadDump.of(leakedThreads));
        for (ProcessHandle p : leakedProcesses) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return out.toString();
    }
}
