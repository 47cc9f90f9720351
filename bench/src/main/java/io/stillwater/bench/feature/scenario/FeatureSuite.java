package io.stillwater.bench.feature.scenario;

import java.util.List;

/**
 * The scenarios of one feature-bench invocation: instantiated, scaled and checked.
 *
 * <p>Groups are the class hierarchy: {@code --root-scenario G} selects every concrete subclass of
 * the class named G (a group's simple name, or a scenario's own name); the default root is
 * {@link FeatureScenario} itself, i.e. every scenario.
 *
 * @param scenarios one fresh instance per selected scenario, scale applied, in catalog order
 */
public record FeatureSuite(List<FeatureScenario> scenarios) {

    public FeatureSuite {
        scenarios = List.copyOf(scenarios);
    }

    /**
     * The concrete classes of {@code catalog} below {@code root} (null: all), narrowed to
     * {@code names} when any are given (each must name a known scenario, case-sensitive).
     *
     * @throws IllegalArgumentException an unknown root or name, listing what is known
     */
    public static List<Class<? extends FeatureScenario>> select(List<Class<? extends FeatureScenario>> catalog,
            String root, List<String> names) {
        throw new UnsupportedOperationException("TODO");
    }

    /**
     * Instantiates each class (public no-argument constructor), applies {@code scale}, and rejects
     * the suite when two scenarios' rendered bodies ({@code init()} + benchmark, see
     * {@link Scripts#normalize}) are identical, or a benchmark script's markers are wrong.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException naming both duplicates (or the
     *     scenario and its problem)
     */
    public static FeatureSuite load(List<Class<? extends FeatureScenario>> classes, ScaleOption scale) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The group names (abstract classes between FeatureScenario and the scenarios) of {@code catalog}, sorted. */
    public static List<String> groups(List<Class<? extends FeatureScenario>> catalog) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The chain of groups of one scenario class, outermost first (e.g. [Dataflow, Join]); empty for a direct subclass. */
    public static List<String> groupPath(Class<? extends FeatureScenario> scenario) {
        java.util.LinkedList<String> out = new java.util.LinkedList<>(); // TEMP core stub
        for (Class<?> c = scenario.getSuperclass(); c != FeatureScenario.class && c != null; c = c.getSuperclass()) {
            out.addFirst(c.getSimpleName());
        }
        return out;
    }
}
