package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.sql.parse.SqlLexer;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL's array and jsonb operators that Calcite's Babel grammar cannot lex
 * ({@code @> <@ && -> ->> #> #>> #- ? ?| ?&}), rewritten on tokens into calls of
 * functions of the same meaning: {@code a @> b} becomes {@code PG_CONTAINS(a, b)}.
 * Text inside literals, quoted identifiers and comments is never touched.
 *
 * <p>An operand is one term: a literal, parameter, (qualified) name, parenthesized
 * expression, function call or {@code ARRAY[...]}, with its {@code ::type} casts and
 * {@code [i]} subscripts; chains are left-associative ({@code j -> 'a' ->> 'b'}). So the
 * operators bind tighter than any other operator, where PostgreSQL binds them like
 * {@code ||} (looser than {@code + - * /}): {@code a + b @> c} is read as
 * {@code a + (b @> c)}; parenthesize such mixed expressions.
 */
final class PgInfixOperators {
    private PgInfixOperators() {}

    /** Each operator and the function it becomes (defined in {@link ArrayOperators} and the jsonb operators). */
    static final Map<String, String> FUNCTIONS = Map.ofEntries(
            Map.entry("@>", "PG_CONTAINS"), Map.entry("<@", "PG_CONTAINED"), Map.entry("&&", "PG_OVERLAP"),
            Map.entry("->", "PG_JSON_GET"), Map.entry("->>", "PG_JSON_GET_TEXT"),
            Map.entry("#>", "PG_JSON_PATH"), Map.entry("#>>", "PG_JSON_PATH_TEXT"), Map.entry("#-", "PG_JSON_DELETE_PATH"),
            Map.entry("?", "PG_JSON_EXISTS"), Map.entry("?|", "PG_JSON_EXISTS_ANY"), Map.entry("?&", "PG_JSON_EXISTS_ALL"));

    /** Whether {@code name} is a function that stands for an operator (named {@code ?column?} as a select item). */
    static boolean isOperatorFunction(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return FUNCTIONS.containsValue(upper) || upper.equals("PG_ANY") || upper.equals("PG_ALL");
    }

    /** Words that end an operand rather than name a function called with parentheses. */
    private static final Set<String> NOT_FUNCTIONS = Set.of("select", "where", "and", "or", "not", "on", "when",
            "then", "else", "in", "exists", "from", "by", "having", "as", "is", "like", "between", "values", "using",
            "any", "all", "some", "return", "case", "set", "join");

    /** At most this many rewrites (each is one operator); more leaves the rest for the parser to reject. */
    private static final int MAX_OPERATORS = 10_000;

    static String rewrite(String sql) {
        if (sql.indexOf('[') >= 0) sql = nestedArrayBrackets(sql);
        if (sql.toLowerCase(Locale.ROOT).contains("jsonb")) sql = jsonbTypeNames(sql);
        if (sql.toLowerCase(Locale.ROOT).contains("order")) sql = aggregateOrderBy(sql);
        if (!mayContainOperator(sql)) return sql;
        for (int n = 0; n < MAX_OPERATORS; n++) {
            List<Token> tokens;
            try {
                tokens = SqlLexer.tokenize(sql);
            } catch (SqlException e) {
                return sql; // the parser reports the lexical error
            }
            int op = -1;
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.kind() == TokenKind.OPERATOR && FUNCTIONS.containsKey(t.text())) {
                    op = i;
                    break;
                }
            }
            if (op < 0) return sql;
            int leftStart = leftTermStart(tokens, op - 1);
            int rightEnd = rightTermEnd(tokens, op + 1);
            if (leftStart < 0 || rightEnd < 0) return sql; // no operand: let the parser report it
            Token first = tokens.get(leftStart), opToken = tokens.get(op), last = tokens.get(rightEnd - 1);
            sql = sql.substring(0, first.offset()) + FUNCTIONS.get(opToken.text()) + "("
                    + sql.substring(first.offset(), opToken.offset()) + ","
                    + sql.substring(opToken.end(), last.end()) + ")" + sql.substring(last.end());
        }
        return sql;
    }

    /** Aggregates whose result does not depend on the order of their input: their ORDER BY is dropped. */
    private static final Set<String> ORDER_INSENSITIVE = Set.of("count", "sum", "avg", "min", "max", "bool_and",
            "bool_or", "every", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop", "bit_and",
            "bit_or", "bit_xor");

    /** Ordered aggregates Babel cannot give an ORDER BY inside the call: it becomes WITHIN GROUP. */
    private static final Set<String> WITHIN_GROUP = Set.of("jsonb_agg", "jsonb_object_agg");

    /**
     * PostgreSQL's {@code agg(x ORDER BY y)} for every aggregate: Babel parses it only for
     * array_agg and string_agg. For jsonb_agg and jsonb_object_agg it becomes
     * {@code agg(x) WITHIN GROUP (ORDER BY y)} (the same ordered aggregate to the planner);
     * for order-insensitive aggregates (sum, count, ...) the ORDER BY is dropped, as it
     * changes nothing.
     */
    private static String aggregateOrderBy(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (SqlException e) {
            return sql;
        }
        for (int i = 1; i + 1 < tokens.size(); i++) {
            Token name = tokens.get(i - 1), open = tokens.get(i);
            if (!open.isSymbol("(") || !isWord(name)) continue;
            String fn = name.text();
            boolean within = WITHIN_GROUP.contains(fn);
            if (!within && !ORDER_INSENSITIVE.contains(fn)) continue;
            int close = matchForward(tokens, i);
            if (close < 0) return sql;
            int depth = 0;
            for (int k = i + 1; k < close; k++) {
                Token t = tokens.get(k);
                if (t.isSymbol("(") || t.isSymbol("[")) depth++;
                else if (t.isSymbol(")") || t.isSymbol("]")) depth--;
                else if (depth == 0 && t.isWord("order") && tokens.get(k + 1).isWord("by")) {
                    Token order = t, last = tokens.get(close - 1), end = tokens.get(close);
                    String orderBy = sql.substring(order.offset(), last.end());
                    String rewritten = sql.substring(0, order.offset()) + ")"
                            + (within ? " WITHIN GROUP (" + orderBy + ")" : "") + sql.substring(end.end());
                    return aggregateOrderBy(rewritten);
                }
            }
        }
        return sql;
    }

    /**
     * jsonb as a type name: {@code x::jsonb}, {@code CAST(x AS jsonb)} and {@code jsonb '...'}
     * name Calcite's VARIANT, the validator's type for jsonb (see {@link TypeMapping}).
     */
    private static String jsonbTypeNames(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (SqlException e) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (!t.isWord("jsonb")) continue;
            Token prev = i > 0 ? tokens.get(i - 1) : null;
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            if (prev != null && (prev.isSymbol("::") || (prev.isWord("as") && next != null && next.isSymbol(")")))) {
                out.append(sql, copied, t.offset()).append("VARIANT");
                copied = t.end();
            } else if (next != null && next.kind() == TokenKind.STRING && !(prev != null && prev.isSymbol("."))) {
                out.append(sql, copied, t.offset()).append("CAST(").append(next.source()).append(" AS VARIANT)");
                copied = next.end();
                i++;
            }
        }
        if (copied == 0) return sql;
        return out.append(sql, copied, sql.length()).toString();
    }

    /** {@code ARRAY[[1,2],[3,4]]}: PostgreSQL's inner brackets are {@code ARRAY[...]} for Babel. */
    private static String nestedArrayBrackets(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (SqlException e) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        ArrayDeque<Character> open = new ArrayDeque<>(); // '(' , 'A' (ARRAY[), 'S' (subscript)
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token prev = i > 0 ? tokens.get(i - 1) : null;
            if (t.isSymbol("(")) open.push('(');
            else if (t.isSymbol(")") || t.isSymbol("]")) {
                if (!open.isEmpty()) open.pop();
            } else if (t.isSymbol("[")) {
                boolean inArray = !open.isEmpty() && open.peek() == 'A';
                if (prev != null && prev.isWord("array")) {
                    open.push('A');
                } else if (inArray && prev != null && (prev.isSymbol("[") || prev.isSymbol(","))) {
                    out.append(sql, copied, t.offset()).append("ARRAY");
                    copied = t.offset();
                    open.push('A');
                } else {
                    open.push('S');
                }
            }
        }
        if (copied == 0) return sql;
        return out.append(sql, copied, sql.length()).toString();
    }

    private static boolean mayContainOperator(String sql) {
        return sql.indexOf('@') >= 0 || sql.contains("&&") || sql.contains("->") || sql.indexOf('#') >= 0
                || sql.indexOf('?') >= 0;
    }

    // ---- right operand

    /** The index just past the term starting at {@code i}, or -1. */
    private static int rightTermEnd(List<Token> ts, int i) {
        if (i >= ts.size()) return -1;
        Token t = ts.get(i);
        if (t.kind() == TokenKind.OPERATOR && (t.text().equals("-") || t.text().equals("+"))) {
            int end = rightTermEnd(ts, i + 1);
            return end;
        }
        int end;
        if (t.isSymbol("(")) {
            end = matchForward(ts, i) + 1;
        } else if (isWord(t) && i + 1 < ts.size() && t.isWord("array")
                && (ts.get(i + 1).isSymbol("[") || ts.get(i + 1).isSymbol("("))) {
            end = matchForward(ts, i + 1) + 1;
        } else if (isName(t) && i + 1 < ts.size() && ts.get(i + 1).isSymbol("(")) {
            end = matchForward(ts, i + 1) + 1;
        } else if (isWord(t) && i + 1 < ts.size() && ts.get(i + 1).kind() == TokenKind.STRING) {
            end = i + 2; // typed literal: jsonb '{}'
        } else if (isName(t)) {
            end = i + 1;
            while (end + 1 < ts.size() && ts.get(end).isSymbol(".") && isName(ts.get(end + 1))) end += 2;
        } else if (isConstant(t)) {
            end = i + 1;
        } else {
            return -1;
        }
        if (end <= 0) return -1;
        return postfix(ts, end);
    }

    /** Past the {@code ::type} casts and {@code [..]} subscripts following a primary ending before {@code end}. */
    private static int postfix(List<Token> ts, int end) {
        while (end < ts.size()) {
            Token t = ts.get(end);
            if (t.isSymbol("[")) {
                int close = matchForward(ts, end);
                if (close < 0) return -1;
                end = close + 1;
            } else if (t.isSymbol("::") && end + 1 < ts.size() && isName(ts.get(end + 1))) {
                end += 2;
                if (ts.get(end - 1).isWord("double") && end < ts.size() && ts.get(end).isWord("precision")) end++;
                if (end < ts.size() && ts.get(end).isSymbol("(")) {
                    int close = matchForward(ts, end);
                    if (close < 0) return -1;
                    end = close + 1;
                }
                while (end + 1 < ts.size() && ts.get(end).isSymbol("[") && ts.get(end + 1).isSymbol("]")) end += 2;
            } else {
                return end;
            }
        }
        return end;
    }

    // ---- left operand

    /** The index of the first token of the term ending at {@code i}, or -1. */
    private static int leftTermStart(List<Token> ts, int i) {
        if (i < 0) return -1;
        // A cast suffix: x::type, x::type(n), x::type[]
        int cast = castStart(ts, i);
        if (cast >= 0) return leftTermStart(ts, cast - 1);
        Token t = ts.get(i);
        int start;
        if (t.isSymbol("]")) {
            int open = matchBackward(ts, i);
            if (open < 0) return -1;
            if (open > 0 && ts.get(open - 1).isWord("array")) return open - 1;
            return leftTermStart(ts, open - 1); // a subscript of the term before it
        } else if (t.isSymbol(")")) {
            int open = matchBackward(ts, i);
            if (open < 0) return -1;
            start = open;
            if (open > 0 && isName(ts.get(open - 1)) && !NOT_FUNCTIONS.contains(ts.get(open - 1).text())) {
                start = qualifiedStart(ts, open - 1);
            }
        } else if (t.kind() == TokenKind.STRING && i > 0 && isWord(ts.get(i - 1))
                && !NOT_FUNCTIONS.contains(ts.get(i - 1).text()) && !ts.get(i - 1).isWord("null")) {
            start = i - 1; // typed literal: jsonb '{}'
        } else if (isName(t)) {
            start = qualifiedStart(ts, i);
        } else if (isConstant(t)) {
            start = i;
        } else {
            return -1;
        }
        return start;
    }

    /**
     * If the tokens ending at {@code i} are a cast suffix {@code :: type}, {@code :: type(n)},
     * {@code :: type[]} or {@code :: double precision}, the index of the {@code ::}; else -1.
     */
    private static int castStart(List<Token> ts, int i) {
        int j = i;
        while (j >= 1 && ts.get(j).isSymbol("]") && ts.get(j - 1).isSymbol("[")) j -= 2;
        if (j >= 0 && ts.get(j).isSymbol(")")) {
            int open = matchBackward(ts, j);
            if (open < 0) return -1;
            j = open - 1;
        }
        if (j < 1 || !isName(ts.get(j))) return -1;
        if (ts.get(j).isWord("precision") && j >= 2 && ts.get(j - 1).isWord("double")) j--;
        return ts.get(j - 1).isSymbol("::") ? j - 1 : -1;
    }

    private static int qualifiedStart(List<Token> ts, int i) {
        while (i >= 2 && ts.get(i - 1).isSymbol(".") && isName(ts.get(i - 2))) i -= 2;
        return i;
    }

    // ---- helpers

    private static int matchForward(List<Token> ts, int open) {
        String o = ts.get(open).text(), c = o.equals("(") ? ")" : "]";
        int depth = 0;
        for (int k = open; k < ts.size(); k++) {
            Token t = ts.get(k);
            if (t.isSymbol(o)) depth++;
            else if (t.isSymbol(c) && --depth == 0) return k;
        }
        return -2; // unbalanced: the caller's end becomes -1
    }

    private static int matchBackward(List<Token> ts, int close) {
        String c = ts.get(close).text(), o = c.equals(")") ? "(" : "[";
        int depth = 0;
        for (int k = close; k >= 0; k--) {
            Token t = ts.get(k);
            if (t.isSymbol(c)) depth++;
            else if (t.isSymbol(o) && --depth == 0) return k;
        }
        return -1;
    }

    private static boolean isWord(Token t) {
        return t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.KEYWORD;
    }

    private static boolean isName(Token t) {
        return isWord(t) || t.kind() == TokenKind.QUOTED_IDENTIFIER;
    }

    private static boolean isConstant(Token t) {
        return switch (t.kind()) {
            case STRING, INTEGER, DECIMAL, PARAMETER, BIT_STRING -> true;
            default -> false;
        };
    }
}
