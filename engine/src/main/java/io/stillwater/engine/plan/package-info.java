/**
 * The relational plan IR: {@link io.stillwater.engine.plan.PlanNode} (sealed) and {@link
 * io.stillwater.engine.plan.QueryPlan} (a body plus its finishing: top-level ORDER BY,
 * LIMIT, OFFSET). Produced by the SQL front end, run by dataflow and compute.
 *
 * <p>Dependencies: expr, types, data, error.
 */
package io.stillwater.engine.plan;
