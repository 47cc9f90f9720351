package io.stillwater.engine.coord;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import java.util.List;

/**
 * CREATE INDEX on a table evaluates the index key on every row the table holds now and
 * fails with the first evaluation error (the error's own SQLSTATE, e.g. 22012), as
 * PostgreSQL's CREATE INDEX does: an index that would start out holding errors is not
 * created. (Rows written later whose key fails go to the index's error collection; reads
 * of the table then skip that index, see PeekPlanner.)
 *
 * <p>Runs under the write lock, like the unique-index check: the rows read are exactly
 * those the new index will be built from.
 */
final class IndexKeyCheck {
    private IndexKeyCheck() {}

    /**
     * Evaluates {@code key} (expressions over the table's columns) on {@code rows}, the
     * table's contents; throws the first evaluation error as a SqlException.
     */
    static void checkEvaluates(List<Expr> key, Changes rows) {
        if (key.stream().allMatch(e -> e instanceof Expr.Column)) return; // a column never fails
        List<Evaluator> evals = ExprCompiler.compileAll(key, EvalContext.defaults());
        for (int i = 0; i < rows.size(); i++) {
            if (rows.diff(i) <= 0) continue;
            for (Evaluator e : evals) e.eval(rows.row(i));
        }
    }
}
