package io.stillwater.engine.expr;

import io.stillwater.engine.data.Row;

/**
 * A compiled scalar expression. {@link #eval} returns the datum (null for SQL NULL) or
 * throws {@link io.stillwater.engine.error.SqlException} for an evaluation error.
 * Evaluators are immutable and safe to share between threads.
 */
@FunctionalInterface
public interface Evaluator {
    Object eval(Row row);
}
