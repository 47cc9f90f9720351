package io.stillwater.bench.feature.scenario;

/**
 * What {@link FeatureScenario#benchmark()} returns: the work of one measurement.
 *
 * <ul>
 *   <li>{@link Script}: SQL statements run in order on one connection. The timed span runs from the
 *       start of the statement that carries the comment {@code /* A *}{@code /} to the end of the
 *       statement (its results fully read) that carries {@code /* B *}{@code /}; exactly one of each,
 *       A not after B (one statement may carry both). Statements before A and after B run untimed.
 *   <li>{@link Timed}: Java code timed as a whole (restarts, connection setup): what SQL cannot say.
 * </ul>
 */
public sealed interface Body permits Body.Script, Body.Timed {

    /**
     * The text duplicate detection compares (with the scenario's init script): the SQL itself, or a
     * timed action's description.
     */
    String rendered();

    /** @param sql statements separated by {@code ;} (see {@link Scripts#parse}) */
    record Script(String sql) implements Body {
        @Override
        public String rendered() {
            return sql;
        }
    }

    /**
     * @param description what the action does, in SQL-like words (e.g. {@code restart; SELECT
     *     count(*) FROM all_v}); it is what duplicate detection compares, so say everything the
     *     action does
     * @param action the timed work; its whole duration is the sample
     */
    record Timed(String description, TimedAction action) implements Body {
        @Override
        public String rendered() {
            return description;
        }
    }

    /** The timed work of a {@link Timed} body. */
    @FunctionalInterface
    interface TimedAction {
        void run(FeatureContext context) throws Exception;
    }

    static Script script(String sql) {
        return new Script(sql);
    }

    static Timed timed(String description, TimedAction action) {
        return new Timed(description, action);
    }
}
