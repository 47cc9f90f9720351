/**
 * Self-verification: where the measured queries ran (the peek history), checked against what a
 * scenario declares ({@code PeekExpectation}); a run whose queries ran elsewhere is INVALID.
 *
 * <p>Allowed dependencies inside the bench: {@code action}. The bench's packages form a DAG.
 */
package io.stillwater.bench.verify;
