package io.stillwater.testkit;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.PreInterruptCallback;
import org.junit.jupiter.api.extension.PreInterruptContext;

/**
 * Guards every JUnit Jupiter test class of every module, registered by JUnit's extension
 * auto-detection ({@code META-INF/services/org.junit.jupiter.api.extension.Extension}; the
 * root pom turns auto-detection on for Surefire), so no test needs an annotation:
 *
 * <ul>
 *   <li><b>Thread leaks.</b> Before the class, the live threads (and child processes) are
 *       noted; after it (after its own {@code @AfterAll} methods and its other extensions),
 *       every thread and process started meanwhile must end within {@value #LEAK_WAIT_PROPERTY} seconds (a configuration parameter
 *       or system property, default 10; the
 *       threads are joined, nothing polls). The class fails naming each one still running,
 *       with its full stack, so an engine, server or executor left open cannot slow down or
 *       break the classes after it. {@link KnownThreads} lists the JVM-wide threads exempt.
 *       Leaked processes are killed after the report.
 *   <li><b>Hangs.</b> Jupiter's own timeout enforces the limit (the poms set {@code
 *       junit.jupiter.execution.timeout.default}, 5 minutes, for every test and lifecycle
 *       method; {@code @Timeout} on a class or method overrides it). Just before Jupiter
 *       interrupts the overrunning method this extension writes a full thread dump (every
 *       frame, held and awaited locks) to stderr, which Surefire puts into the report, and
 *       to {@code target/hang-dumps/<class>.<method>.txt}.
 *   <li>It starts the {@link ForkWatchdog} of this JVM.
 * </ul>
 */
public final class SuiteGuardExtension implements BeforeAllCallback, AfterAllCallback, PreInterruptCallback {
    static final String LEAK_WAIT_PROPERTY = "stillwater.test.threadLeakWaitSeconds";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SuiteGuardExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        ForkWatchdog.ensureStarted();
        context.getStore(NAMESPACE).put(context.getUniqueId(), ClassStart.now());
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        ClassStart before = context.getStore(NAMESPACE).remove(context.getUniqueId(), ClassStart.class);
        if (before == null) return; // beforeAll did not run (another extension's beforeAll failed first)
        Duration wait = context.getConfigurationParameter(LEAK_WAIT_PROPERTY, Long::parseLong)
                .map(Duration::ofSeconds).orElseGet(SuiteGuardExtension::leakWait);
        String leaks = leakReport(context.getRequiredTestClass().getName(), before, wait);
        if (leaks != null) throw new AssertionError(leaks);
    }

    @Override
    public void beforeThreadInterrupt(PreInterruptContext preInterrupt, ExtensionContext context) {
        String where = context.getRequiredTestClass().getName() + "."
                + context.getTestMethod().map(Method::getName).orElse("lifecycle");
        Thread target = preInterrupt.getThreadToInterrupt();
        HangDumps.write(where, "hang guard: " + where + " exceeded its timeout (" + Timeouts.DEFAULT_PROPERTY
                + " or @Timeout); interrupting thread \"" + target.getName() + "\"");
    }

    /** What was running when a class started. */
    record ClassStart(ThreadSnapshot threads, ProcessSnapshot processes) {
        static ClassStart now() { return new ClassStart(ThreadSnapshot.take(), ProcessSnapshot.take()); }
    }

    /**
     * The failure message for the threads and child processes started since {@code before}
     * that are still running after waiting {@code wait} for them, or null if there are none.
     * Such processes are killed (a thread cannot be), so they do not burden the next classes.
     */
    static String leakReport(String testClass, ClassStart before, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        List<Thread> threads = before.threads().stillRunningAfter(wait);
        List<ProcessHandle> processes = before.processes().stillRunningAt(deadline);
        if (threads.isEmpty() && processes.isEmpty()) return null;
        StringBuilder out = new StringBuilder(testClass).append(" left");
        if (!threads.isEmpty()) {
            out.append(' ').append(threads.size()).append(" thread(s) ")
                    .append(threads.stream().map(t -> '"' + t.getName() + '"').toList());
        }
        if (!processes.isEmpty()) {
            out.append(threads.isEmpty() ? " " : " and ").append(processes.size()).append(" child process(es) ")
                    .append(processes.stream().map(ProcessSnapshot::describe).toList()).append(" (now killed)");
        }
        out.append(" running ").append(wait.toSeconds()).append(" s after its last test.")
                .append(" Close every engine, server, connection, executor and process the class starts")
                .append(" (try-with-resources, @AfterEach, @AfterAll); threads that may outlive a class are listed in")
                .append(" io.stillwater.testkit.KnownThreads.\n\n").append(ThreadDump.of(threads));
        processes.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        return out.toString();
    }

    /** {@value #LEAK_WAIT_PROPERTY} as a system property, else 10 s. */
    static Duration leakWait() { return Duration.ofSeconds(Long.getLong(LEAK_WAIT_PROPERTY, 10)); }
}
