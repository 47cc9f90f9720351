package io.stillwater.bench.scenario;

import io.stillwater.bench.load.Loop;
import java.time.Duration;
import java.util.List;

/** One step of a scenario; phases run in declaration order. */
public sealed interface Phase permits Phase.Setup, Phase.Load, Phase.SystemParameters, Phase.Cleanup {

    /**
     * SQL statements run in order on one connection, untimed. A failure fails the scenario; the
     * remaining non-cleanup phases are skipped.
     */
    record Setup(List<String> statements) implements Phase {
        public Setup {
            statements = List.copyOf(statements);
        }
    }

    /**
     * Loops run together for {@code duration} (the runner may override it globally); the phase
     * ends when its last query has finished.
     */
    record Load(Duration duration, List<Loop> loops) implements Phase {
        public Load {
            loops = List.copyOf(loops);
            if (loops.isEmpty()) {
                throw new IllegalArgumentException("a load phase needs at least one loop");
            }
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("a load phase needs a positive duration, got " + duration);
            }
        }
    }

    /**
     * {@code ALTER SYSTEM SET ...} statements run as {@code user}. A statement the target rejects
     * with SQLSTATE 42704 (unrecognized configuration parameter) is skipped and the skip recorded
     * as a message: older builds lack newer parameters. Any other error fails the scenario.
     */
    record SystemParameters(String user, List<String> statements) implements Phase {
        public SystemParameters {
            statements = List.copyOf(statements);
        }
    }

    /**
     * Like {@link Setup}, but runs even after an earlier phase failed, so a failed scenario still
     * drops what it created.
     */
    record Cleanup(List<String> statements) implements Phase {
        public Cleanup {
            statements = List.copyOf(statements);
        }
    }
}
