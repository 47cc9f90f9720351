package io.stillwater.testkit;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The threads a test class may leave running: the JVM's own, the test harness's, and
 * process-wide helpers of libraries that live as long as the JVM (or end on their own after
 * an idle period the test cannot shorten). Everything else a class starts (the engine's
 * workers, ticker, WAL committer, offload pools, a PgServer's event loops and
 * {@code pgwire-conn-*} threads, a test's own executors) must be gone when the class ends.
 *
 * <p>The list is explicit and each entry says why it is harmless; add to it only for a
 * thread that no test can stop.
 */
final class KnownThreads {
    /** A name pattern (matched against the whole name) and why such a thread may outlive a class. */
    record Rule(Pattern name, String why) {
        Rule(String regex, String why) { this(Pattern.compile(regex), why); }

        boolean matches(Thread t) { return name.matcher(t.getName()).matches(); }
    }

    static final List<Rule> RULES = List.of(
            // --- the JVM
            new Rule("Reference Handler|Finalizer|Signal Dispatcher|Attach Listener|Common-Cleaner"
                    + "|Notification Thread|Service Thread|Monitor Deflation Thread|Sweeper thread",
                    "JVM service threads"),
            new Rule("C[12] CompilerThread\\d+|JVMCI.*", "JIT compiler threads"),
            new Rule("DestroyJavaVM", "the JVM's shutdown thread"),
            new Rule("process reaper( \\(pid \\d+\\))?",
                    "the JDK's shared pool that waits for child processes (ProcessBuilder); idles out after 60 s."
                    + " While it waits for a child its name has the pid; a child left running is reported as a process"),
            new Rule("ForkJoinPool\\.commonPool-worker-\\d+", "the common fork-join pool (parallel streams, CompletableFuture)"),
            new Rule("ForkJoinPool-\\d+-worker-\\d+|ForkJoinPool-\\d+-delayScheduler|VirtualThread-un(parker|blocker)"
                    + "|MasterPoller|(Read|Write)-Poller(-\\d+)?",
                    "the JDK's virtual-thread scheduler (the first one the JVM creates is ForkJoinPool-1): carriers,"
                    + " timers and I/O pollers; a test's own new ForkJoinPool() matches too, a known blind spot"),
            new Rule("Keep-Alive-Timer|Keep-Alive-SocketCleaner", "the JDK's shared HTTP keep-alive cache"),
            new Rule("JFR .*|JFR: .*", "Java Flight Recorder"),
            new Rule("RMI .*|JMX server connection timeout.*", "JMX/RMI (jcmd, VisualVM attached by a developer)"),
            new Rule("Monitor Ctrl-Break", "IntelliJ's test runner"),
            // --- the test harness
            new Rule("surefire-forkedjvm-.*", "Maven Surefire's command reader and pinger in the fork"),
            new Rule("junit-jupiter-timeout-watcher",
                    "JUnit's scheduler for @Timeout, created on first use and kept for the whole run"),
            new Rule(HangWatchdog.THREAD_NAME + "|" + ForkWatchdog.THREAD_NAME, "this testkit's own watchdogs"),
            // --- libraries' process-wide helpers
            new Rule("globalEventExecutor-\\d+-\\d+",
                    "Netty's GlobalEventExecutor (ChannelGroup futures); ends by itself after 1 s idle"),
            new Rule("ObjectCleanerThread", "Netty's cleaner of thread-local pooled buffers"),
            new Rule("PostgreSQL-JDBC-Cleaner|PostgreSQL-JDBC-SharedTimer-\\d+",
                    "pgjdbc's process-wide cleaner and statement-timeout timer; end by themselves when idle"),
            new Rule("Cleaner-\\d+", "the thread of a static java.lang.ref.Cleaner: pgjdbc's LazyCleanerImpl makes one"
                    + " on the first connection and keeps it for the JVM's life"));

    private KnownThreads() {}

    /** True if {@code t} may outlive the test class that started it. */
    static boolean mayOutliveClass(Thread t) {
        for (Rule r : RULES) {
            if (r.matches(t)) return true;
        }
        return false;
    }
}
