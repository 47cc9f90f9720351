package io.stillwater.engine.expr;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * A scalar expression over one input row: the closed set of expression nodes the SQL
 * front end produces and the dataflow operators evaluate.
 *
 * <p>Every node knows its result {@link SqlType}. Column references are positional.
 * Evaluation follows PostgreSQL semantics (three-valued logic, NULL propagation,
 * errors with SQLSTATEs); see {@link ExprCompiler}.
 */
public sealed interface Expr {
    SqlType type();

    /** The value of input column {@code index}. */
    record Column(int index, SqlType type) implements Expr {}

    /** A constant; {@code value} is null for SQL NULL. */
    record Literal(Object value, SqlType type) implements Expr {}

    /**
     * A statement parameter ({@code $1} is index 0). Bound to a {@link Literal} by
     * {@link Exprs#bindParams} before evaluation; evaluating an unbound one is a bug.
     */
    record Param(int index, SqlType type) implements Expr {}

    /** A built-in function or operator applied to arguments. */
    record Call(Func func, List<Expr> args, SqlType type) implements Expr {
        public Call {
            args = List.copyOf(args);
        }
    }

    /** {@code CAST(input AS type)} with PostgreSQL's explicit-cast rules. */
    record Cast(Expr input, SqlType type) implements Expr {}

    /**
     * {@code CASE WHEN conds[0] THEN results[0] ... ELSE otherwise END}. Branches are
     * evaluated lazily: a branch not taken never raises its errors.
     */
    record Case(List<Expr> conds, List<Expr> results, Expr otherwise, SqlType type) implements Expr {
        public Case {
            conds = List.copyOf(conds);
            results = List.copyOf(results);
            if (conds.size() != results.size()) throw new IllegalArgumentException("conds/results");
        }
    }
}
