package io.stillwater.engine.sql.planner;

import io.stillwater.engine.sql.parse.SqlLexer;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Normalizes a statement for the {@link PlanCache} by lifting its literals to parameters,
 * so {@code ... WHERE k = 1} and {@code ... WHERE k = 2} share one plan. Only literals
 * whose replacement by a parameter cannot change the statement's shape are lifted:
 * <ul>
 *   <li>the right side of a comparison with a column: {@code col <op> literal} where the
 *       token before the operator is an identifier and the one after the literal ends the
 *       term ({@code AND}, {@code OR}, {@code )}, {@code ,}, the end, a clause keyword), in a
 *       SELECT, UPDATE (also {@code SET col = literal}) or DELETE; the parameter then takes
 *       the column's type, as the literal would be coerced to it;</li>
 *   <li>a whole value of an {@code INSERT ... VALUES (...), (...)} row at the top level, the
 *       parameter taking the target column's type.</li>
 * </ul>
 * Never lifted: LIMIT/OFFSET counts, ORDER BY/GROUP BY ordinals (no comparison before
 * them), typed literals ({@code DATE '...'}, {@code '1'::int}), signed numbers, NULL,
 * TRUE/FALSE, IN-list members, function arguments, and every literal of a statement that
 * already has parameters ({@code $n}). Whether a lifted literal's value may be bound to
 * the type the planner inferred is {@link LiftedLiteral#valueAs}'s decision, per value.
 *
 * <p>Stateless; thread-safe.
 */
public final class LiteralLifter {
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");
    /** Words that may follow a complete comparison term. */
    private static final Set<String> TERM_ENDS = Set.of("and", "or", "then", "else", "end", "when", "order", "group",
            "having", "limit", "offset", "fetch", "union", "except", "intersect", "returning", "where", "window");
    private static final Set<String> LIFTED_VERBS = Set.of("select", "update", "delete", "insert");

    private LiteralLifter() {}

    /**
     * The statement with its liftable literals replaced by {@code $1..$n} in order of
     * appearance, or empty when there is nothing to lift (or the text does not lex).
     */
    public static Optional<LiftedStatement> lift(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (RuntimeException e) {
            return Optional.empty(); // the planner reports it
        }
        if (tokens.isEmpty() || !LIFTED_VERBS.contains(word(tokens.get(0)))) return Optional.empty();
        for (Token t : tokens) {
            if (t.kind() == TokenKind.PARAMETER) return Optional.empty();
        }
        boolean insert = tokens.get(0).isWord("insert");
        List<Integer> lifted = new ArrayList<>();
        if (insert) {
            insertValues(tokens, lifted);
        } else {
            for (int i = 2; i < tokens.size() - 1; i++) {
                if (isComparedToColumn(tokens, i)) lifted.add(i);
            }
        }
        if (lifted.isEmpty()) return Optional.empty();
        StringBuilder text = new StringBuilder(sql.length());
        List<LiftedLiteral> literals = new ArrayList<>(lifted.size());
        int copied = 0;
        for (int i : lifted) {
            Token t = tokens.get(i);
            text.append(sql, copied, t.offset()).append('$').append(literals.size() + 1);
            copied = t.end();
            literals.add(new LiftedLiteral(t.kind(), t.text()));
        }
        text.append(sql, copied, sql.length());
        return Optional.of(new LiftedStatement(text.toString(), List.copyOf(literals)));
    }

    /** {@code <identifier> <comparison> <literal> <term end>} with the literal at {@code i}. */
    private static boolean isComparedToColumn(List<Token> tokens, int i) {
        Token lit = tokens.get(i);
        if (!isPlainLiteral(lit)) return false;
        Token op = tokens.get(i - 1);
        Token left = tokens.get(i - 2);
        if (op.kind() != TokenKind.OPERATOR || !COMPARISONS.contains(op.text())) return false;
        if (left.kind() != TokenKind.IDENTIFIER && left.kind() != TokenKind.QUOTED_IDENTIFIER) return false;
        return endsTerm(tokens.get(i + 1));
    }

    private static boolean endsTerm(Token next) {
        return switch (next.kind()) {
            case EOF -> true;
            case PUNCTUATION, OPERATOR -> next.text().equals(")") || next.text().equals(",") || next.text().equals(";");
            case KEYWORD, IDENTIFIER -> TERM_ENDS.contains(next.text());
            default -> false;
        };
    }

    /**
     * The literals that are whole values of the rows of {@code INSERT INTO t [(cols)]
     * VALUES (...), ...} with nothing after the rows but semicolons; none otherwise.
     */
    private static void insertValues(List<Token> tokens, List<Integer> lifted) {
        int values = -1;
        int depth = 0;
        for (int i = 1; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(")) depth++;
            else if (t.isSymbol(")")) depth--;
            else if (depth == 0 && t.isWord("values")) {
                values = i;
                break;
            } else if (depth == 0 && (t.isWord("select") || t.isWord("with"))) return;
        }
        if (values < 0) return;
        List<Integer> found = new ArrayList<>();
        depth = 0;
        int i = values + 1;
        for (; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && !t.isSymbol(",")) {
                break; // the rows are over
            } else if (depth == 1 && isPlainLiteral(t)) {
                Token before = tokens.get(i - 1);
                Token after = tokens.get(i + 1);
                if ((before.isSymbol("(") || before.isSymbol(",")) && (after.isSymbol(",") || after.isSymbol(")"))) {
                    found.add(i);
                }
            }
        }
        for (; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() != TokenKind.EOF && !t.isSymbol(";")) return; // ON CONFLICT, RETURNING, ...: leave it
        }
        lifted.addAll(found);
    }

    private static boolean isPlainLiteral(Token t) {
        // Numbers only as written in decimal: Calcite (like PostgreSQL 15) does not read 0x10 or 1_000 as one number.
        if (t.kind() == TokenKind.INTEGER || t.kind() == TokenKind.DECIMAL) return FastLiteral.accepted(t);
        return t.kind() == TokenKind.STRING;
    }

    private static String word(Token t) {
        return t.kind() == TokenKind.KEYWORD || t.kind() == TokenKind.IDENTIFIER ? t.text() : "";
    }

    /** A statement with lifted literals: {@code text} names them {@code $1..$n}. */
    public record LiftedStatement(String text, List<LiftedLiteral> literals) {}
}
