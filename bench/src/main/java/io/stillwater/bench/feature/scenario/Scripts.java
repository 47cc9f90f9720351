package io.stillwater.bench.feature.scenario;

import java.util.List;

/**
 * Splits scripts into statements and reads their markers. A script is SQL statements separated by
 * {@code ;}; a {@code ;} inside a string literal, quoted identifier, dollar-quoted string or comment
 * does not separate. Empty statements (only whitespace and comments) are dropped.
 */
public final class Scripts {
    /** Starts the timed span at the start of the statement carrying it. */
    public static final String MARK_A = "/* A */";
    /** Ends the timed span at the end of the statement carrying it. */
    public static final String MARK_B = "/* B */";

    private Scripts() {
    }

    /**
     * The statements of {@code script}, with markers and expectations read.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException a malformed script
     *     (unterminated quote or comment, a marker spelled wrongly such as {@code /*A*}{@code /} is
     *     accepted: markers match ignoring whitespace inside the comment)
     */
    public static List<ScriptStatement> parse(String script) {
        throw new UnsupportedOperationException("TODO");
    }

    /**
     * The statements of a benchmark script, checked: exactly one statement starts the timer and
     * exactly one stops it, the start not after the stop.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException naming the scenario and what is wrong
     */
    public static List<ScriptStatement> parseBenchmark(String scenario, String script) {
        throw new UnsupportedOperationException("TODO");
    }

    /**
     * The text duplicate detection compares: lower case, comments (markers included) removed, every
     * run of whitespace one space, {@code ;} removed, trimmed.
     */
    public static String normalize(String text) {
        throw new UnsupportedOperationException("TODO");
    }
}
