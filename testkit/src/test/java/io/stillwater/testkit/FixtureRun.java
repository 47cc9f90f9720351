package io.stillwater.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs one fixture class through a nested JUnit Platform launcher, in this JVM, with the
 * testkit's guards auto-detected as in every module, and records what each test and
 * container ended with. Fixture classes are static nested classes, which Surefire does not
 * run on its own.
 */
record FixtureRun(List<Outcome> outcomes) {
    /** How one test or container (a class) ended. */
    record Outcome(String name, Optional<String> className, boolean container, TestExecutionResult result) {
        Optional<Throwable> failure() { return result.getThrowable(); }
    }

    static FixtureRun of(Class<?> fixture, String engine, Map<String, String> config) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(fixture))
                .filters(EngineFilter.includeEngines(engine))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .configurationParameters(config)
                .build();
        List<Outcome> outcomes = new ArrayList<>();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                Optional<String> className = id.getSource().filter(ClassSource.class::isInstance)
                        .map(s -> ((ClassSource) s).getClassName());
                outcomes.add(new Outcome(id.getDisplayName(), className, id.isContainer(), result));
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                outcomes.add(new Outcome(id.getDisplayName(), Optional.empty(), id.isContainer(),
                        TestExecutionResult.aborted(new IllegalStateException("skipped: " + reason))));
            }
        });
        return new FixtureRun(List.copyOf(outcomes));
    }

    /** The outcome of the container of fixture class {@code fixture}. */
    Outcome container(Class<?> fixture) {
        return outcomes.stream().filter(o -> o.container() && o.className().equals(Optional.of(fixture.getName())))
                .findFirst().orElseThrow(() -> new AssertionError("no container " + fixture + " in " + outcomes));
    }

    /** The outcome of the test whose display name starts with {@code method}. */
    Outcome test(String method) {
        return outcomes.stream().filter(o -> !o.container() && o.name().startsWith(method)).findFirst()
                .orElseThrow(() -> new AssertionError("no test " + method + " in " + outcomes));
    }
}
