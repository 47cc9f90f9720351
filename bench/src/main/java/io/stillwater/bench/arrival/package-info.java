/**
 * When a load loop issues its next query: open-loop arrival schedules (constant, Poisson)
 * computed ahead of a load phase.
 *
 * <p>Allowed dependencies inside the bench: nothing else in the bench. The bench's packages form
 * a DAG.
 */
package io.stillwater.bench.arrival;
