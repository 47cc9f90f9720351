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
        // TEMP core stub: splits on ';' outside single quotes and comments only
        List<ScriptStatement> out = new java.util.ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quote = false;
        for (int i = 0; i < script.length(); i++) {
            char ch = script.charAt(i);
            if (!quote && ch == '/' && i + 1 < script.length() && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                cur.append(script, i, end + 2);
                i = end + 1;
                continue;
            }
            if (ch == '\'') {
                quote = !quote;
            }
            if (ch == ';' && !quote) {
                add(out, cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        add(out, cur.toString());
        return out;
    }

    private static void add(List<ScriptStatement> out, String sql) {
        String s = sql.strip();
        if (s.replaceAll("/\\*.*?\\*/", "").isBlank()) {
            return;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("/\\*\\s*expect:\\s*(.*?)\\s*\\*/").matcher(s);
        String expected = m.find() ? m.group(1) : null;
        out.add(new ScriptStatement(s, s.matches("(?s).*/\\*\\s*A\\s*\\*/.*"), s.matches("(?s).*/\\*\\s*B\\s*\\*/.*"),
                expected));
    }

    /**
     * The statements of a benchmark script, checked: exactly one statement starts the timer and
     * exactly one stops it, the start not after the stop.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException naming the scenario and what is wrong
     */
    public static List<ScriptStatement> parseBenchmark(String scenario, String script) {
        List<ScriptStatement> out = parse(script); // TEMP core stub
        if (out.stream().filter(ScriptStatement::startsTimer).count() != 1
                || out.stream().filter(ScriptStatement::stopsTimer).count() != 1) {
            throw new io.stillwater.bench.scenario.ScenarioDefinitionException(scenario + ": markers wrong");
        }
        return out;
    }

    /**
     * The text duplicate detection compares: lower case, comments (markers included) removed, every
     * run of whitespace one space, {@code ;} removed, trimmed.
     */
    public static String normalize(String text) {
        throw new UnsupportedOperationException("TODO");
    }
}
