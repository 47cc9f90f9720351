/**
 * The interactive-runtime scenarios ({@link io.stillwater.bench.scenarios.interactive.InteractiveRuntimeScenarios#all()}):
 * the seed's experiments and nightly rows (DESIGN.md "The bench", "Clusters, replicas and the two
 * runtimes") as parallel-benchmark scenarios, sized so all seven run in a few minutes on a 2-core
 * machine with their 10-second load phases.
 *
 * <table>
 * <caption>What each scenario measures</caption>
 * <tr><th>scenario</th><th>measured</th><th>contention</th><th>replica</th></tr>
 * <tr><td>TemporaryDataflowFloor</td><td>join of two 100-row indexed tables (peek dataflow), closed loop</td>
 *     <td>none</td><td>side's flag</td></tr>
 * <tr><td>IntrospectionUnderHydration</td><td>mz_dataflow_arrangement_sizes at 10/s</td>
 *     <td>create/hydrate/drop a 200,000-row index in a loop</td><td>side's flag</td></tr>
 * <tr><td>FreshnessUnderPeekDataflows</td><td>strict serializable MV read from another cluster</td>
 *     <td>2 loops of 100,000-row self-joins, 10 writes/s</td><td>side's flag</td></tr>
 * <tr><td>PeekIsolationUnderExpensivePeeks</td><td>point lookup at 50/s</td>
 *     <td>walks of a 500,000-row index at 3/s</td><td>solo on every side</td></tr>
 * <tr><td>FreshnessUnderPeekWalks</td><td>strict serializable lookup of an index being written</td>
 *     <td>walks of a 500,000-row index at 2/s, 10 writes/s</td><td>solo on every side</td></tr>
 * <tr><td>ReadIsolationUnderHydration</td><td>point lookup at 50/s, range count at 4/s</td>
 *     <td>create/hydrate/drop an index on a 200,000-row aggregate in a loop</td><td>side's flag</td></tr>
 * <tr><td>MaintenanceUnderPeekSaturation</td><td>strict serializable MV read from another cluster;
 *     the saturating joins</td><td>4 loops of 20,000-row self-joins, 1,000 rows/s written</td>
 *     <td>side's flag</td></tr>
 * </table>
 *
 * <p>Conventions: every object is prefixed {@code bench_} and dropped first (a shared server may
 * hold leftovers); every cluster measured has two workers ({@code SIZE = 'scale=1,workers=2'});
 * service-time reads are serializable, freshness reads strict serializable; every measured query
 * checks its answer; every loop, contention included, guarantees an error rate of 0 (a run whose
 * contention failed measured a quiet replica and must not pass); each declares where its reads must run
 * ({@link io.stillwater.bench.scenario.Scenario#expect} with {@link io.stillwater.bench.verify.PeekExpectation},
 * checked against {@code mz_introspection.mz_peek_history} after the run).
 *
 * <p>Allowed dependencies inside the bench: {@code scenario} and its layer, {@code runner}. The bench's packages form a DAG.
 */
package io.stillwater.bench.scenarios.interactive;
