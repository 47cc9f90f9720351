package io.stillwater.engine.peek;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.PlanNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How one SELECT body is read: the closed set of read paths (DESIGN.md "Reads (peeks)").
 * Made by {@link PeekPlanner} for one execution (it names the live export readers it
 * chose), run by {@link PeekExecutor}, described by {@link PeekExplainer}.
 */
public sealed interface PeekPlan {
    /** The relational plan being read (parameters bound). */
    PlanNode body();

    /** The compute exports this read takes snapshots of, by export id. */
    default Map<Long, CollectionReader> exports() { return Map.of(); }

    /** Tables read from their own snapshots (not through an index). */
    default Set<Long> tables() { return Set.of(); }

    /** Built-in relations read (computed when read, always complete). */
    default Set<Long> systemRelations() { return Set.of(); }

    /** The path's name as EXPLAIN prints it. */
    String pathName();

    /** No stored inputs (constants, table functions): needs no timestamp and no snapshot. */
    record Constant(PlanNode body) implements PeekPlan {
        public String pathName() { return "constant"; }
    }

    /**
     * A Filter/Project chain over one collection held by {@code export}, whose equality
     * predicates fix the export's whole key: reads only the rows under {@code keys} (each
     * a value of the export's key, in its types) and applies the chain to them. An empty
     * {@code keys} means no row can match (for example {@code a = NULL}).
     */
    record FastPathLookup(PlanNode body, CollectionReader export, List<Row> keys) implements PeekPlan {
        public FastPathLookup {
            keys = List.copyOf(keys);
        }

        public Map<Long, CollectionReader> exports() { return Map.of(export.exportId(), export); }

        public String pathName() { return "fast path lookup"; }
    }

    /**
     * A Filter/Project chain (possibly empty) over one collection held by {@code export}:
     * walks the export's arrangement and applies the fused chain to every row.
     */
    record FastPathWalk(PlanNode body, CollectionReader export) implements PeekPlan {
        public Map<Long, CollectionReader> exports() { return Map.of(export.exportId(), export); }

        public String pathName() { return "fast path walk"; }
    }

    /**
     * Anything else: a one-shot dataflow over snapshots at the read time. Collections
     * held by compute are imported from their export ({@code imports}, by collection id:
     * an indexed input is never recomputed), other tables come from their snapshots,
     * built-in relations from {@link io.stillwater.engine.catalog.SystemRelations}.
     */
    record PeekDataflow(PlanNode body, Map<Long, CollectionReader> imports, Set<Long> tables,
                        Set<Long> systemRelations) implements PeekPlan {
        public PeekDataflow {
            imports = Collections.unmodifiableMap(new LinkedHashMap<>(imports));
            tables = Set.copyOf(tables);
            systemRelations = Set.copyOf(systemRelations);
        }

        public Map<Long, CollectionReader> exports() {
            Map<Long, CollectionReader> out = new LinkedHashMap<>();
            for (CollectionReader r : imports.values()) out.put(r.exportId(), r);
            return out;
        }

        public String pathName() { return "peek dataflow"; }
    }
}
