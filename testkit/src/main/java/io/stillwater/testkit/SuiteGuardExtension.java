package io.stillwater.testkit;

import java.lang.reflect.Method;
import java.time.Duration;
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
 *   <li><b>Thread and process leaks.</b> Before the class, the live threads and child
 *       processes are noted ({@link ClassStart}); after it (after its own {@code @AfterAll}
 *       methods and its other extensions), every thread and process started meanwhile must
 *       end within {@value ClassStart#WAIT_PROPERTY} seconds (a configuration parameter or
 *       system property, default 10; they are joined, nothing polls). The class fails naming
 *       each one still running, with its full stack, so an engine, server or executor left
 *       open cannot slow down or break the classes after it. {@link KnownThreads} lists the
 *       JVM-wide threads exempt. Leaked processes are killed after the report.
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
        Duration wait = context.getConfigurationParameter(ClassStart.WAIT_PROPERTY, Long::parseLong)
                .map(Duration::ofSeconds).orElseGet(ClassStart::defaultWait);
        String leaks = before.leaksAfter(context.getRequiredTestClass().getName(), wait);
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

}
