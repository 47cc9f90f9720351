package io.stillwater.bench.runner;

import io.stillwater.bench.scenario.Capability;
import java.util.OptionalLong;
import java.util.Set;
import java.util.List;

/**
 * Starts a target for one scenario run. Embedded and jar targets start a fresh server per run (so
 * no scenario sees another's state, and side parameters apply before any replica exists); a URL
 * target reuses the existing server. The runner closes what it launched when the run ends.
 */
@FunctionalInterface
public interface TargetLauncher {

    /**
     * Starts (or reaches) the target.
     *
     * @throws TargetSkipException the target cannot honour this run's request (e.g. side parameters
     *     on a server without ALTER SYSTEM): the scenario is SKIPPED with the reason
     * @throws Exception anything else: the scenario FAILED while starting its target
     */
    LaunchedTarget launch() throws Exception;

    /** A running target for one scenario run; {@link #close()} stops what {@code launch} started. */
    interface LaunchedTarget extends Target, AutoCloseable {
        /** What happened while starting it that a reader should see (e.g. parameters applied). */
        default List<String> messages() {
            return List.of();
        }

        /**
         * Whether {@link #restart()} works: the runner launched this target (embedded, jar:), so it
         * can stop and start it on the same data. A url target is shared and never restarted.
         */
        default boolean restartable() {
            return false;
        }

        /**
         * Stops the target gracefully (a jar: SIGTERM) and starts it again on the same data
         * directory with the same parameters; returns once it accepts connections. After a restart
         * {@link #jdbcUrl()} may name another port.
         *
         * @throws UnsupportedOperationException when not {@link #restartable()}
         */
        default void restart() throws Exception {
            throw new UnsupportedOperationException(jdbcUrl() + " is not launched by the bench and cannot be restarted");
        }

        /** The operating-system process serving this target, when the bench launched one (jar:). */
        default OptionalLong processId() {
            return OptionalLong.empty();
        }

        /** Whether the target runs inside the bench's own JVM (embedded). */
        default boolean inProcess() {
            return false;
        }

        @Override
        void close();
    }

    /** A target that is already running and outlives the run: launching it does nothing. */
    static TargetLauncher existing(Target target) {
        return () -> new LaunchedTarget() {
            @Override
            public String jdbcUrl() {
                return target.jdbcUrl();
            }

            @Override
            public String user() {
                return target.user();
            }

            @Override
            public String password() {
                return target.password();
            }

            @Override
            public Set<Capability> capabilities() {
                return target.capabilities();
            }

            @Override
            public void close() {
            }
        };
    }
}
