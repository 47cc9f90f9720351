package io.stillwater.testkit;

import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.lifecycle.AroundContainerHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.ContainerLifecycleContext;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The same guards as {@link SuiteGuardExtension} for jqwik's test engine (which does not run
 * Jupiter extensions), registered for every container and property through
 * {@code META-INF/services/net.jqwik.api.lifecycle.LifecycleHook}:
 *
 * <ul>
 *   <li>a class ({@code @Property}/{@code @Example} container) fails if threads or child
 *       processes it started are still running after it;
 *   <li>a property that runs longer than its limit ({@link PropertyTimeout} on the method or
 *       class, else {@code junit.jupiter.execution.timeout.default}) gets a thread dump
 *       ({@link HangDumps}), an interrupt, and fails.
 * </ul>
 */
public final class SuiteGuardHook implements AroundContainerHook, AroundPropertyHook {
    /** Snapshots of the containers running now, by class; jqwik runs containers one at a time. */
    private static final Map<Class<?>, ClassStart> RUNNING = new ConcurrentHashMap<>();

    @Override
    public PropagationMode propagateTo() { return PropagationMode.ALL_DESCENDANTS; }

    @Override
    public boolean appliesTo(Optional<AnnotatedElement> element) { return true; }

    @Override
    public void beforeContainer(ContainerLifecycleContext context) {
        ForkWatchdog.ensureStarted();
        context.optionalContainerClass().ifPresent(c -> RUNNING.put(c, ClassStart.now()));
    }

    @Override
    public void afterContainer(ContainerLifecycleContext context) {
        Optional<Class<?>> container = context.optionalContainerClass();
        if (container.isEmpty()) return; // the engine itself
        ClassStart before = RUNNING.remove(container.get());
        if (before == null) return;
        String leaks;
        try {
            leaks = before.leaksAfter(container.get().getName(), ClassStart.defaultWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the threads of " + container.get().getName(), e);
        }
        if (leaks != null) throw new AssertionError(leaks);
    }

    /**
     * Outermost of the around-container hooks: the snapshot is taken before a class's own
     * {@code @BeforeContainer} hooks start anything, the check made after its
     * {@code @AfterContainer} hooks closed everything.
     */
    @Override
    public int proximity() { return -100; }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        Duration limit = Timeouts.forMethod(
                Optional.ofNullable(context.targetMethod().getAnnotation(PropertyTimeout.class)),
                Optional.ofNullable(context.containerClass().getAnnotation(PropertyTimeout.class)));
        String name = context.containerClass().getName() + "." + context.targetMethod().getName();
        HangWatchdog.Armed watchdog = HangWatchdog.arm(limit, name, Thread.currentThread());
        PropertyExecutionResult result;
        boolean overran;
        try {
            result = property.execute();
        } finally {
            overran = watchdog.disarm();
        }
        if (overran) {
            TimeoutException timeout = new TimeoutException(name + " timed out after " + limit
                    + " (thread dump in " + HangDumps.dir() + ")");
            result.throwable().ifPresent(timeout::addSuppressed);
            return result.mapToFailed(timeout);
        }
        return result;
    }

    /** Outermost of the around-property hooks, so the limit covers the others too. */
    @Override
    public int aroundPropertyProximity() { return -100; }
}
