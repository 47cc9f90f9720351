package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.parse.SqlLexer;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rewrites PostgreSQL spellings that Calcite's Babel grammar cannot parse into spellings
 * it can, on tokens from the engine's own {@link SqlLexer}, so text inside string
 * literals, quoted identifiers and comments is never touched. Stateless.
 * <ul>
 *   <li>{@code type 'string'} for interval, date, time and timestamp becomes
 *       {@code CAST('string' AS type)}: the string is then read by the engine's input
 *       function for the type (see {@link PgRexBuilder}), not by Calcite's literal parser,
 *       so {@code interval '1 day 2 hours'} and {@code timestamp '... 05.5'} keep
 *       PostgreSQL's meaning. {@code interval '1' day} (with a unit) is left to Calcite.
 *   <li>{@code x::interval}: Babel's {@code ::} takes only data types, and a bare INTERVAL
 *       is not one; {@code ::"interval"} parses as a user-defined type name that
 *       {@link PgSqlRewriter} turns into the engine's interval.
 *   <li>{@code CAST(x AS interval)} gets the qualifier {@code DAY TO SECOND} (only a
 *       type for the validator: the engine's interval keeps months, days and micros).
 *   <li>{@code type[]} becomes {@code type ARRAY}, the standard spelling Babel parses.
 *   <li>{@code LIMIT $n} / {@code OFFSET $n}: the grammar only accepts {@code ?} there; the
 *       k-th such {@code ?} stands for {@code $limitParams[k]+1}.
 *   <li>A SELECT without FROM but with WHERE, GROUP BY or HAVING gets a one-row FROM
 *       ({@link #ONE_ROW_FROM}).
 *   <li>{@code GROUPS} window frames become RANGE or biased ROWS frames ({@link WindowRewrites#groupsFrame}).
 *   <li>{@code DISTINCT ON (d...)} becomes a leading select item {@code "?distinct_on"(d...),}
 *       that {@link DistinctOn} turns into a QUALIFY.
 *   <li>An exponent literal ({@code 1.5e-3}) is spelled out ({@code 0.0015}): PostgreSQL's is
 *       numeric, Calcite's a double ({@link #plainNumeric}).
 *   <li>{@code LATERAL f(...)} loses its keyword (see {@link PgSqlRewriter}: functions in FROM are lateral).
 * </ul>
 * Offsets shift by a few characters, which only affects positions in error messages.
 */
final class PgTokens {
    private PgTokens() {}

    /**
     * The rewritten text and, per {@code ?} in it (in order), the 0-based index of its
     * {@code $n}; {@code edits} (in text order) map positions back to {@code original}.
     */
    record Rewritten(String sql, int[] limitParams, String original, List<Edit> edits) {
        Rewritten {
            edits = List.copyOf(edits);
        }

        /** The offset in {@code original} of a 0-based offset in {@code sql}. */
        int toOriginal(int at) {
            int shift = 0;
            for (Edit e : edits) {
                if (at < e.from()) break;
                if (at < e.to()) return e.originalFrom();
                shift = e.originalTo() - e.to();
            }
            return Math.max(0, at + shift);
        }
    }

    /** Text {@code [originalFrom, originalTo)} of the original became {@code [from, to)} of the rewritten text. */
    record Edit(int from, int to, int originalFrom, int originalTo) {}

    /** Appends {@code replacement} for {@code original[start, end)} and records the edit. */
    /** Longest plain spelling of an exponent literal rewritten; longer ones stay as written. */
    private static final int MAX_PLAIN_DIGITS = 1000;

    /**
     * An exponent literal ({@code 7e0}, {@code 1.5e-3}) spelled without its exponent
     * ({@code CAST(7 AS numeric)}, {@code 0.0015}), or null when the token has none (or would grow past
     * {@link #MAX_PLAIN_DIGITS}). In PostgreSQL such a literal is numeric, with the scale its
     * digits give (1.50e1 is 15.0, 1e3 is 1000); Calcite reads it as a double.
     */
    static String plainNumeric(Token t) {
        String text = t.text();
        if (text.indexOf('e') < 0 && text.indexOf('E') < 0) return null;
        BigDecimal v;
        try {
            v = new BigDecimal(text);
        } catch (NumberFormatException | ArithmeticException e) {
            return null; // left to the parser, which reports it
        }
        if (v.scale() < 0) v = v.setScale(0);
        if (v.precision() > MAX_PLAIN_DIGITS || v.scale() > MAX_PLAIN_DIGITS) return null;
        // Without a fraction the plain spelling would be an integer literal.
        return v.scale() == 0 ? "CAST(" + v.toPlainString() + " AS numeric)" : v.toPlainString();
    }

    private static void replace(StringBuilder out, List<Edit> edits, int start, int end, String replacement) {
        int from = out.length();
        out.append(replacement);
        edits.add(new Edit(from, out.length(), start, end));
    }

    private static final Set<String> INTERVAL_UNITS = Set.of("year", "month", "day", "hour", "minute", "second");
    private static final Set<String> TYPED_LITERALS = Set.of("interval", "date", "time", "timestamp");

    static Rewritten rewrite(String text) {
        String sql = PgInfixOperators.rewrite(text); // @> -> ... as calls (error positions then refer to its text)
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (SqlException e) {
            return new Rewritten(sql, new int[0], sql, List.of()); // the parser reports the lexical error
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        List<Integer> limitParams = new ArrayList<>();
        List<Edit> edits = new ArrayList<>();
        int copied = 0;
        boolean update = !tokens.isEmpty() && tokens.get(0).isWord("update");
        // One entry per open parenthesis: whether it is CAST's (where AS is followed by a type).
        ArrayDeque<Boolean> parens = new ArrayDeque<>();
        // Per parenthesis depth (top: the innermost): [0] whether a SELECT there has no FROM
        // yet, [1] whether that SELECT's list has a bare *.
        ArrayDeque<boolean[]> selectWithoutFrom = new ArrayDeque<>();
        selectWithoutFrom.push(new boolean[2]);
        List<Integer> distinctOnEnds = new ArrayList<>(); // token indexes of DISTINCT ON lists' closing parentheses
        java.util.Map<Integer, String> groupsEdits = new java.util.HashMap<>(); // GROUPS frames' respelled tokens
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token prev = i > 0 ? tokens.get(i - 1) : null;
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            Token after = i + 2 < tokens.size() ? tokens.get(i + 2) : null;
            // psql's and drivers' catalog spellings (OPERATOR(pg_catalog.~), COLLATE pg_catalog.default,
            // pg_catalog. qualifiers): see PgCatalogSyntax. OPERATOR(...) is consumed whole, its
            // parentheses included, so the stacks below stay balanced.
            int catalogSyntax = PgCatalogSyntax.match(tokens, i);
            if (catalogSyntax >= 0) {
                Token last = tokens.get(catalogSyntax);
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), last.end(), PgCatalogSyntax.replacement(tokens, i, catalogSyntax));
                copied = last.end();
                i = catalogSyntax;
                continue;
            }
            String plain = t.kind() == TokenKind.DECIMAL ? plainNumeric(t) : null;
            if (plain != null) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), plain);
                copied = t.end();
                continue;
            }
            if (t.isSymbol("(")) {
                parens.push(prev != null && prev.isWord("cast"));
                selectWithoutFrom.push(new boolean[2]);
            }
            if (t.isSymbol(")") && !parens.isEmpty()) {
                parens.pop();
                selectWithoutFrom.pop();
            }
            boolean[] noFrom = selectWithoutFrom.peek();
            if (t.isWord("select")) {
                noFrom[0] = true;
                noFrom[1] = false;
            }
            if (t.isWord("from") && !(prev != null && prev.isWord("distinct"))) noFrom[0] = false;
            if (noFrom[0] && t.isSymbol("*") && startsSelectItem(prev)) noFrom[1] = true;
            if (noFrom[0] && startsClauseAfterFrom(t, prev, next)) {
                // PostgreSQL: a * with nothing to expand is an error, not the one helper row.
                if (noFrom[1]) throw new SqlException(SqlState.SYNTAX_ERROR, "SELECT * with no tables specified is not valid");
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.offset(), ONE_ROW_FROM);
                copied = t.offset();
                noFrom[0] = false;
            }
            if (noFrom[0] && t.isWord("unnest") && next != null && next.isSymbol("(")) {
                // Babel reads UNNEST only in FROM: a select-list unnest(...) is a plain call (see SelectListFunctions).
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), SelectListFunctions.UNNEST_CALL);
                copied = t.end();
                continue;
            }
            if (WindowRewrites.startsGroupsFrame(t, next)) groupsEdits.putAll(WindowRewrites.groupsFrame(tokens, i));
            String groupsEdit = groupsEdits.remove(i);
            if (groupsEdit != null) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), groupsEdit);
                copied = t.end();
                continue;
            }
            if (t.isWord("distinct") && next != null && next.isWord("on") && after != null && after.isSymbol("(")) {
                // DISTINCT ON (d...): a leading select item "?distinct_on"(d...) for DistinctOn.
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), next.end(), '"' + DistinctOn.MARKER + '"');
                copied = next.end();
                distinctOnEnds.add(closingParen(tokens, i + 2));
            }
            if (distinctOnEnds.remove((Integer) i)) {
                out.append(sql, copied, t.end());
                replace(out, edits, t.end(), t.end(), ",");
                copied = t.end();
            }
            if (t.isSymbol("[") && next != null && next.isSymbol("]") && prev != null && !prev.isWord("array")) {
                // int[] (a type; [] is never an expression): Babel spells it INTEGER ARRAY.
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), next.end(), " ARRAY");
                copied = next.end();
                i++;
                continue;
            }
            boolean inCast = !parens.isEmpty() && parens.peek();
            boolean afterCast = prev != null && (prev.isSymbol("::") || (prev.isWord("as") && inCast));
            if (isWord(t) && TYPED_LITERALS.contains(t.text()) && !afterCast && next != null
                    && next.kind() == TokenKind.STRING && !(t.text().equals("interval") && isUnit(after))) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), next.end(), "CAST(" + next.source() + " AS "
                        + (t.text().equals("interval") ? "INTERVAL DAY TO SECOND" : t.text()) + ")");
                copied = next.end();
                i++;
            } else if (t.isWord("interval") && afterCast && !isUnit(next)) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), prev.isSymbol("::") ? "\"interval\"" : "INTERVAL DAY TO SECOND");
                copied = t.end();
            } else if (isWord(t) && TYPE_KEYWORDS.contains(t.text()) && !afterCast && !isTypeUse(prev, next)) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), '"' + t.text() + '"');
                copied = t.end();
            } else if (t.isWord("lateral") && next != null && isWord(next) && !next.isWord("table") && after != null
                    && after.isSymbol("(")) {
                // LATERAL f(...): Babel wants LATERAL TABLE(f(...)); PgSqlRewriter makes every
                // function in FROM lateral, as PostgreSQL does, so the keyword can go.
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), "");
                copied = t.end();
            } else if (update && t.isWord("default") && prev != null && prev.isSymbol("=")) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), DEFAULT_MARKER);
                copied = t.end();
            } else if (t.isSymbol("-") && prev != null && (prev.isWord("limit") || prev.isWord("offset"))
                    && next != null && next.kind() == TokenKind.INTEGER && next.text().matches("0+")) {
                out.append(sql, copied, t.offset()); // -0 is 0; the grammar has no sign there
                replace(out, edits, t.offset(), t.end(), "");
                copied = t.end();
            } else if (t.isSymbol("-") && prev != null && (prev.isWord("limit") || prev.isWord("offset"))
                    && next != null && next.kind() == TokenKind.INTEGER) {
                // The grammar has no sign there; PostgreSQL's error for a negative count.
                throw prev.isWord("limit")
                        ? new SqlException(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT must not be negative")
                        : new SqlException(SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET must not be negative");
            } else if (t.kind() == TokenKind.PARAMETER && prev != null
                    && (prev.isWord("limit") || prev.isWord("offset")) && t.text().length() < 10) {
                out.append(sql, copied, t.offset());
                replace(out, edits, t.offset(), t.end(), "?");
                copied = t.end();
                limitParams.add(Integer.parseInt(t.text()) - 1);
            }
        }
        if (copied == 0) return new Rewritten(sql, new int[0], sql, List.of());
        out.append(sql, copied, sql.length());
        return new Rewritten(out.toString(), limitParams.stream().mapToInt(Integer::intValue).toArray(), sql, edits);
    }

    /**
     * {@code SELECT 1 WHERE false}: PostgreSQL lets a SELECT without FROM have WHERE, GROUP BY
     * and HAVING (over one empty row); Babel's grammar only has them after a FROM. This FROM
     * item, inserted before the clause, is that one row; its column name cannot be written
     * unquoted, so it never captures a name of the query.
     */
    static final String ONE_ROW_FROM = "FROM (VALUES (0)) AS \"?one_row\"(\"?one_row\") ";

    /** The index of the parenthesis closing the one at {@code open} (the last token when unbalanced). */
    private static int closingParen(List<Token> tokens, int open) {
        int depth = 0;
        for (int j = open; j < tokens.size(); j++) {
            if (tokens.get(j).isSymbol("(")) depth++;
            if (tokens.get(j).isSymbol(")") && --depth == 0) return j;
        }
        return tokens.size() - 1;
    }

    /** Whether a token after {@code prev} starts an item of a SELECT list. */
    private static boolean startsSelectItem(Token prev) {
        return prev != null && (prev.isWord("select") || prev.isSymbol(",") || prev.isWord("distinct") || prev.isWord("all"));
    }

    /** {@code WHERE}, {@code GROUP BY} or {@code HAVING} of a SELECT (not {@code WITHIN GROUP}). */
    private static boolean startsClauseAfterFrom(Token t, Token prev, Token next) {
        if (t.isWord("where") || t.isWord("having")) return true;
        return t.isWord("group") && next != null && next.isWord("by") && !(prev != null && prev.isWord("within"));
    }

    /**
     * PostgreSQL keywords that Babel reserves (as type names) but PostgreSQL lets name
     * columns: {@code date}, {@code time}, {@code timestamp}, {@code interval}. Where the token is not used
     * as a type (see {@link #isTypeUse}) it is an identifier, spelled quoted for Babel
     * (its folded lower-case text, so the name is the same).
     */
    private static final Set<String> TYPE_KEYWORDS = Set.of("date", "time", "timestamp", "interval");

    /** {@code UPDATE ... SET c = DEFAULT}: Babel has no DEFAULT there; this call stands for it. */
    static final String DEFAULT_MARKER = "\"$default\"()";
    static final String DEFAULT_MARKER_NAME = "$default";

    /** The keyword is a type or part of one: {@code timestamp(3)}, {@code with time zone}, {@code AT TIME ZONE}. */
    private static boolean isTypeUse(Token prev, Token next) {
        if (next != null && (next.isSymbol("(") || next.isWord("with") || next.isWord("without")
                || next.kind() == TokenKind.STRING)) return true;
        return prev != null && (prev.isWord("with") || prev.isWord("without") || prev.isWord("at"));
    }

    private static boolean isWord(Token t) {
        return t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.KEYWORD;
    }

    private static boolean isUnit(Token t) {
        return t != null && isWord(t) && INTERVAL_UNITS.contains(t.text());
    }
}
