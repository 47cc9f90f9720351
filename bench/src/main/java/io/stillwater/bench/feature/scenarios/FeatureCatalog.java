package io.stillwater.bench.feature.scenarios;

import io.stillwater.bench.feature.scenario.FeatureScenario;
import java.util.List;

/**
 * Every feature-benchmark scenario of this build, in report order. The groups are the abstract
 * classes of this package ({@link FastPath}, {@link Dml}, {@link Dataflow} with
 * {@link Dataflow.Maintained}, {@link Index}, {@link Startup}, {@link Coordinator},
 * {@link InteractiveRuntime} with {@link InteractiveRuntime.ManyIndexes}); {@code --root-scenario}
 * selects by them. The catalog mirrors the reference's benchmark_main and interactive-runtime
 * scenarios (minus Kafka, CDC and sinks, which Stillwater does not have).
 *
 * <p>Portability: FastPath, Dml, the non-maintained Dataflow scenarios and CreateIndex use only
 * PostgreSQL-compatible SQL and declare no capabilities; the others declare what they need, so a
 * PostgreSQL target skips them with the reason.
 */
public final class FeatureCatalog {
    private FeatureCatalog() {
    }

    public static List<Class<? extends FeatureScenario>> all() {
        return List.of(
                FastPath.FastPathFilterNoIndex.class,
                FastPath.FastPathFilterIndex.class,
                FastPath.FastPathOrderByLimit.class,
                FastPath.FastPathLimit.class,
                Dml.Insert.class,
                Dml.ManySmallInserts.class,
                Dml.InsertBatch.class,
                Dml.InsertMultiRow.class,
                Dml.Update.class,
                Dml.ManySmallUpdates.class,
                Dml.InsertAndSelect.class,
                Dataflow.OrderBy.class,
                Dataflow.CountDistinct.class,
                Dataflow.MinMax.class,
                Dataflow.MinMaxMaintained.class,
                Dataflow.GroupBy.class,
                Dataflow.GroupByMaintained.class,
                Dataflow.CrossJoin.class,
                Dataflow.DeltaJoin.class,
                Dataflow.DifferentialJoin.class,
                Dataflow.FullOuterJoin.class,
                Dataflow.AccumulateReductions.class,
                Dataflow.Retraction.class,
                Index.CreateIndex.class,
                Index.HydrateIndex.class,
                Startup.StartupEmpty.class,
                Startup.StartupLoaded.class,
                Coordinator.QueryLatency.class,
                Coordinator.ConnectionLatency.class,
                InteractiveRuntime.PeekDataflowJoin.class,
                InteractiveRuntime.IntrospectionRead.class,
                InteractiveRuntime.ManyIndexesIdle.class,
                InteractiveRuntime.ManyIndexesRestart.class,
                InteractiveRuntime.ManyReexportsIdle.class);
    }
}
