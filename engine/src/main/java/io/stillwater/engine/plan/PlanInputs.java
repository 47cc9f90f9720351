package io.stillwater.engine.plan;

import java.util.LinkedHashSet;
import java.util.Set;

/** The stored collections a plan reads: the object ids of its {@link PlanNode.Get}s. */
public final class PlanInputs {
    private PlanInputs() {}

    public static Set<Long> objectIds(PlanNode node) {
        Set<Long> out = new LinkedHashSet<>();
        collect(node, out);
        return out;
    }

    private static void collect(PlanNode node, Set<Long> out) {
        switch (node) {
            case PlanNode.Get g -> out.add(g.objectId());
            case PlanNode.Constant c -> { }
            case PlanNode.GenerateSeries g -> { }
            case PlanNode.LateralSeries s -> collect(s.input(), out);
            case PlanNode.Project p -> collect(p.input(), out);
            case PlanNode.Filter f -> collect(f.input(), out);
            case PlanNode.Join j -> { collect(j.left(), out); collect(j.right(), out); }
            case PlanNode.Reduce r -> collect(r.input(), out);
            case PlanNode.Distinct d -> collect(d.input(), out);
            case PlanNode.Union u -> u.inputs().forEach(i -> collect(i, out));
            case PlanNode.Except e -> { collect(e.left(), out); collect(e.right(), out); }
            case PlanNode.Intersect i -> { collect(i.left(), out); collect(i.right(), out); }
            case PlanNode.TopK t -> collect(t.input(), out);
            case PlanNode.Window w -> collect(w.input(), out);
            case PlanNode.FlatMap f -> collect(f.input(), out);
            case PlanNode.Recursive r -> {
                collect(r.base(), out);
                Set<Long> step = new LinkedHashSet<>();
                collect(r.step(), step);
                step.remove(r.workingId()); // the iteration's own rows, not a stored collection
                out.addAll(step);
            }
        }
    }
}
