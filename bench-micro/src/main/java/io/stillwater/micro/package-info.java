/**
 * JMH micro-benchmarks of the engine's hot parts, each set up through the real classes: the spine
 * ({@link io.stillwater.micro.SpineBenchmark}), cursors ({@link io.stillwater.micro.CursorBenchmark}),
 * the expression evaluator ({@link io.stillwater.micro.ExpressionBenchmark}), the wire encoder
 * ({@link io.stillwater.micro.WireEncoderBenchmark}) and the planner
 * ({@link io.stillwater.micro.PlannerBenchmark}). Run from {@code bench-micro/target/benchmarks.jar}
 * (docs/bench.md); the module's test only smoke-runs each benchmark once.
 */
package io.stillwater.micro;
