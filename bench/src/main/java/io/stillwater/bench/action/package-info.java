/**
 * What a scenario does and how it fails: the {@code Action} a load loop runs (SQL text, expected
 * rows), and the text a failure is counted under ({@code SqlErrors}, {@code
 * StatementFailedException}, {@code WrongResultException}).
 *
 * <p>Allowed dependencies inside the bench: nothing else in the bench (the bottom layer: every bench
 * package may use it). The bench's packages form a DAG.
 */
package io.stillwater.bench.action;
