/**
 * Scalar expressions: {@link io.stillwater.engine.expr.Expr} (sealed) compiled once to
 * {@link io.stillwater.engine.expr.Evaluator}s, and every built-in function ({@link
 * io.stillwater.engine.expr.Func}) with PostgreSQL semantics.
 *
 * <p>Dependencies: types, data, error.
 */
package io.stillwater.engine.expr;
