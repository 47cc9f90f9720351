package io.stillwater.bench.feature.scenario;

import io.stillwater.bench.scenario.ScenarioDefinitionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern EXPECT = Pattern.compile("(?si)\\s*expect\\s*:(.*)");

    private Scripts() {
    }

    /**
     * The statements of {@code script}, with markers and expectations read.
     *
     * <p>A statement's text is kept as sent: comments (markers included) stay in it, the separating
     * {@code ;} and surrounding whitespace do not. Markers are block comments whose content, with all
     * whitespace removed, is exactly {@code A} or {@code B} ({@code /*A*}{@code /} is a marker,
     * {@code /* a *}{@code /} and {@code -- A} are not). A block comment {@code /* expect: V *}{@code /}
     * sets the statement's expected result to V, trimmed.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException a malformed script
     *     (unterminated quote or comment, a marker or expectation on an empty statement, two
     *     expectations on one statement), naming the problem and where it is
     */
    public static List<ScriptStatement> parse(String script) {
        if (script == null) {
            throw new ScenarioDefinitionException("a script is null (return \"\" for no statements)");
        }
        List<ScriptStatement> out = new ArrayList<>();
        List<SqlTokens.Token> tokens = SqlTokens.lex(script, true);
        int from = 0;
        for (int i = 0; i <= tokens.size(); i++) {
            if (i == tokens.size() || tokens.get(i).kind() == SqlTokens.Kind.SEMICOLON) {
                statement(script, tokens.subList(from, i)).ifPresent(out::add);
                from = i + 1;
            }
        }
        return List.copyOf(out);
    }

    private static Optional<ScriptStatement> statement(String script, List<SqlTokens.Token> tokens) {
        boolean content = false;
        boolean a = false;
        boolean b = false;
        String expected = null;
        int start = -1;
        int end = -1;
        for (SqlTokens.Token t : tokens) {
            switch (t.kind()) {
                case CODE, QUOTED -> content = true;
                case BLOCK_COMMENT -> {
                    String inner = t.text(script);
                    inner = inner.substring(2, inner.length() - 2);
                    String squeezed = WHITESPACE.matcher(inner).replaceAll("");
                    a |= squeezed.equals("A");
                    b |= squeezed.equals("B");
                    Matcher m = EXPECT.matcher(inner);
                    if (m.matches()) {
                        if (expected != null) {
                            throw new ScenarioDefinitionException("two /* expect: ... */ comments on one statement ("
                                    + expected + " and " + m.group(1).trim() + "): keep one");
                        }
                        expected = m.group(1).trim();
                    }
                }
                default -> {
                }
            }
            if (t.kind() != SqlTokens.Kind.SPACE) {
                start = start < 0 ? t.start() : start;
                end = t.end();
            }
        }
        if (!content) {
            if (a || b || expected != null) {
                throw new ScenarioDefinitionException("a " + (a ? MARK_A : b ? MARK_B : "/* expect: */")
                        + " comment is not on any statement (only comments between two ;): put it inside the"
                        + " statement it belongs to, before its ;");
            }
            return Optional.empty();
        }
        // strip: a closing line comment keeps the whitespace before its newline
        return Optional.of(new ScriptStatement(script.substring(start, end).strip(), a, b, expected));
    }

    /**
     * The statements of a benchmark script, checked: exactly one statement starts the timer and
     * exactly one stops it, the start not after the stop (one statement may carry both).
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException naming the scenario and what is wrong
     */
    public static List<ScriptStatement> parseBenchmark(String scenario, String script) {
        List<ScriptStatement> statements;
        try {
            statements = parse(script);
        } catch (ScenarioDefinitionException e) {
            throw new ScenarioDefinitionException(scenario + ": benchmark(): " + e.getMessage());
        }
        List<Integer> as = new ArrayList<>();
        List<Integer> bs = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i).startsTimer()) {
                as.add(i + 1);
            }
            if (statements.get(i).stopsTimer()) {
                bs.add(i + 1);
            }
        }
        String how = " (the timed span runs from the start of the statement marked " + MARK_A
                + " to the end of the one marked " + MARK_B + "; one statement may carry both)";
        if (as.size() != 1) {
            throw new ScenarioDefinitionException(scenario + ": benchmark() must mark exactly one statement "
                    + MARK_A + ", found " + (as.isEmpty() ? "none" : as.size() + " (statements " + join(as) + ")")
                    + how);
        }
        if (bs.size() != 1) {
            throw new ScenarioDefinitionException(scenario + ": benchmark() must mark exactly one statement "
                    + MARK_B + ", found " + (bs.isEmpty() ? "none" : bs.size() + " (statements " + join(bs) + ")")
                    + how);
        }
        if (as.get(0) > bs.get(0)) {
            throw new ScenarioDefinitionException(scenario + ": benchmark() marks statement " + as.get(0) + " "
                    + MARK_A + " after statement " + bs.get(0) + " " + MARK_B + ": A must not come after B" + how);
        }
        return statements;
    }

    /**
     * The text duplicate detection compares: lower case, comments (markers included) removed, every
     * run of whitespace one space (none at all next to punctuation, so {@code f(a, b)} and
     * {@code f(a,b)} compare equal), {@code ;} removed, trimmed.
     *
     * <p>Decision: string literals, quoted identifiers and dollar-quoted strings are kept exactly as
     * written (not lower-cased, their whitespace, {@code ;} and comment-like text untouched), because
     * {@code 'A'} and {@code 'a'} are different SQL; only what the engine itself treats
     * case-insensitively and as layout is normalised. Free text that does not lex as SQL (a lone
     * apostrophe in a {@link Body.Timed} description) is normalised up to that point and kept
     * exactly after it. The result is for comparing, not SQL to run.
     */
    public static String normalize(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean separated = false;
        SqlTokens.Kind previous = null;
        for (SqlTokens.Token t : SqlTokens.lex(text, false)) {
            switch (t.kind()) {
                case SPACE, SEMICOLON, LINE_COMMENT, BLOCK_COMMENT -> separated = true;
                case CODE, QUOTED -> {
                    String piece = t.kind() == SqlTokens.Kind.CODE
                            ? t.text(text).toLowerCase(Locale.ROOT)
                            : t.text(text);
                    if (separated && !out.isEmpty() && (bothQuoted(previous, t.kind())
                            || SqlTokens.isIdentifierChar(out.charAt(out.length() - 1))
                                    && SqlTokens.isIdentifierChar(piece.charAt(0)))) {
                        out.append(' ');
                    }
                    out.append(piece);
                    separated = false;
                    previous = t.kind();
                }
            }
        }
        return out.toString();
    }

    private static boolean bothQuoted(SqlTokens.Kind a, SqlTokens.Kind b) {
        return a == SqlTokens.Kind.QUOTED && b == SqlTokens.Kind.QUOTED;
    }

    private static String join(List<Integer> numbers) {
        return String.join(", ", numbers.stream().map(String::valueOf).toList());
    }
}
