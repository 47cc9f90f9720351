package io.stillwater.bench.cli;

import io.stillwater.bench.runner.ScenarioResult;
import java.util.List;

/**
 * Stored results of earlier builds, for {@code --compare-to-history BUILD}. Found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.stillwater.bench.cli.BenchHistory});
 * without an implementation on the class path the option is rejected with an explanation.
 */
public interface BenchHistory {
    /**
     * The completed {@code this}-side results of {@code scenario} stored for {@code build}, oldest
     * first; empty when the history has none. Results of another scenario version are included:
     * the caller refuses to compare across versions and says so.
     */
    List<ScenarioResult> results(String build, String scenario) throws Exception;
}
