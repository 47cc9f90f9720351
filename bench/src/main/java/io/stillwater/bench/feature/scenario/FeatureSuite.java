package io.stillwater.bench.feature.scenario;

import io.stillwater.bench.scenario.ScenarioDefinitionException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

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
     * <p>{@code root} is the simple name of a group (an abstract class between FeatureScenario and
     * the scenarios), of a scenario (it and any scenario subclassing it), or {@code FeatureScenario}
     * (all). A name that is known but not below the root is an error too: selecting nothing silently
     * would look like a run that passed. The result is in catalog order, each class once.
     *
     * @throws IllegalArgumentException an unknown root or name, listing what is known
     */
    public static List<Class<? extends FeatureScenario>> select(List<Class<? extends FeatureScenario>> catalog,
            String root, List<String> names) {
        List<Class<? extends FeatureScenario>> scenarios = new ArrayList<>(new LinkedHashSet<>(catalog));
        for (Class<? extends FeatureScenario> c : scenarios) {
            if (Modifier.isAbstract(c.getModifiers())) {
                throw new IllegalArgumentException("the catalog lists " + c.getName()
                        + ", an abstract class (a group); list only concrete scenario classes");
            }
        }
        List<Class<? extends FeatureScenario>> below;
        if (root == null || root.equals(FeatureScenario.class.getSimpleName())) {
            below = scenarios;
        } else {
            Set<Class<?>> roots = new LinkedHashSet<>();
            for (Class<? extends FeatureScenario> c : scenarios) {
                for (Class<?> k = c; k != FeatureScenario.class && k != null; k = k.getSuperclass()) {
                    if (k.getSimpleName().equals(root)) {
                        roots.add(k);
                    }
                }
            }
            if (roots.isEmpty()) {
                throw new IllegalArgumentException("unknown --root-scenario '" + root + "'" + suggestion(root, catalog)
                        + "; known groups: " + String.join(", ", groups(catalog)) + "; known scenarios: "
                        + String.join(", ", names(scenarios)) + " (or FeatureScenario for all)");
            }
            below = scenarios.stream().filter(c -> roots.stream().anyMatch(r -> r.isAssignableFrom(c))).toList();
        }
        if (names == null || names.isEmpty()) {
            return List.copyOf(below);
        }
        Set<String> known = new LinkedHashSet<>(names(scenarios));
        List<String> unknown = names.stream().filter(n -> !known.contains(n)).distinct().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown scenario" + (unknown.size() == 1 ? " " : "s ")
                    + String.join(", ", unknown) + suggestion(unknown.get(0), catalog) + "; known scenarios: "
                    + String.join(", ", known));
        }
        Set<String> belowNames = new LinkedHashSet<>(names(below));
        List<String> outside = names.stream().filter(n -> !belowNames.contains(n)).distinct().toList();
        if (!outside.isEmpty()) {
            throw new IllegalArgumentException("scenario" + (outside.size() == 1 ? " " : "s ")
                    + String.join(", ", outside) + " not in --root-scenario " + root + " (scenarios in it: "
                    + String.join(", ", belowNames) + "); drop --root-scenario or choose a group that contains "
                    + (outside.size() == 1 ? "it" : "them"));
        }
        Set<String> wanted = Set.copyOf(names);
        return below.stream().filter(c -> wanted.contains(c.getSimpleName())).toList();
    }

    /**
     * Instantiates each class (public no-argument constructor), applies {@code scale}, and rejects
     * the suite when two scenarios' rendered bodies ({@code init()} + benchmark, see
     * {@link Scripts#normalize}) are identical, or a benchmark script's markers are wrong.
     *
     * <p>Every script of every scenario (shared, init, before, benchmark, cleanup) is parsed here, so
     * a malformed one fails the load, not a run half an hour in. All problems are collected and
     * reported together, one per line, each naming its scenario (and both scenarios of a duplicate).
     * A class listed twice is loaded once.
     *
     * @throws io.stillwater.bench.scenario.ScenarioDefinitionException naming both duplicates (or the
     *     scenario and its problem)
     */
    public static FeatureSuite load(List<Class<? extends FeatureScenario>> classes, ScaleOption scale) {
        List<String> problems = new ArrayList<>();
        List<FeatureScenario> loaded = new ArrayList<>();
        Map<String, String> byName = new HashMap<>();
        Map<String, String> byBody = new HashMap<>();
        for (Class<? extends FeatureScenario> c : new LinkedHashSet<>(classes)) {
            String name = c.getSimpleName();
            String clash = byName.putIfAbsent(name, c.getName());
            if (clash != null) {
                problems.add("two scenarios are named " + name + " (" + clash + " and " + c.getName()
                        + "): names identify scenarios in reports and history, rename one");
                continue;
            }
            FeatureScenario s;
            try {
                s = instantiate(c);
                s.applyScale(scale);
            } catch (ScenarioDefinitionException e) {
                problems.add(e.getMessage());
                continue;
            }
            String rendered;
            try {
                rendered = render(s);
            } catch (ScenarioDefinitionException e) {
                problems.add(e.getMessage());
                continue;
            }
            String twin = byBody.putIfAbsent(Scripts.normalize(rendered), name);
            if (twin != null) {
                problems.add("scenarios " + twin + " and " + name + " are duplicates: their init() and benchmark()"
                        + " are the same SQL (ignoring case, whitespace, ; and comments); make one measure"
                        + " something else or remove it");
                continue;
            }
            loaded.add(s);
        }
        if (!problems.isEmpty()) {
            throw new ScenarioDefinitionException("the feature scenarios do not load ("
                    + (problems.size() == 1 ? "1 problem" : problems.size() + " problems") + "):\n  "
                    + String.join("\n  ", problems));
        }
        return new FeatureSuite(loaded);
    }

    private static FeatureScenario instantiate(Class<? extends FeatureScenario> c) {
        String name = c.getSimpleName();
        if (Modifier.isAbstract(c.getModifiers())) {
            throw new ScenarioDefinitionException(name + " is abstract (a group), not a scenario");
        }
        try {
            return c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new ScenarioDefinitionException(name + " has no public no-argument constructor; add one");
        } catch (IllegalAccessException e) {
            throw new ScenarioDefinitionException(name + " cannot be instantiated: make the class and its"
                    + " no-argument constructor public (" + e.getMessage() + ")");
        } catch (InvocationTargetException e) {
            throw new ScenarioDefinitionException(name + ": its constructor threw " + describe(e.getCause()));
        } catch (InstantiationException | RuntimeException e) {
            throw new ScenarioDefinitionException(name + " cannot be instantiated: " + describe(e));
        }
    }

    /** init() + "\n" + the benchmark's rendering, every script parsed on the way. */
    private static String render(FeatureScenario s) {
        script(s, "shared()", s::shared);
        String init = script(s, "init()", s::init);
        script(s, "before()", s::before);
        script(s, "cleanup()", s::cleanup);
        Body body;
        try {
            body = s.benchmark();
        } catch (RuntimeException e) {
            throw new ScenarioDefinitionException(s.name() + ": benchmark() threw " + describe(e));
        }
        if (body == null) {
            throw new ScenarioDefinitionException(s.name() + ": benchmark() returned null; return Body.script(...)"
                    + " or Body.timed(...)");
        }
        if (body instanceof Body.Script script) {
            if (script.sql() == null) {
                throw new ScenarioDefinitionException(s.name() + ": benchmark() returned a script whose SQL is null");
            }
            Scripts.parseBenchmark(s.name(), script.sql());
        } else if (body instanceof Body.Timed timed
                && (timed.description() == null || timed.description().isBlank() || timed.action() == null)) {
            throw new ScenarioDefinitionException(s.name() + ": benchmark() returned a timed body without a"
                    + " description or action; describe everything the action does (duplicate detection compares it)");
        }
        return init + "\n" + body.rendered();
    }

    private static String script(FeatureScenario s, String method, Supplier<String> call) {
        String text;
        try {
            text = call.get();
        } catch (RuntimeException e) {
            throw new ScenarioDefinitionException(s.name() + ": " + method + " threw " + describe(e));
        }
        if (text == null) {
            throw new ScenarioDefinitionException(s.name() + ": " + method + " returned null; return \"\" for nothing");
        }
        try {
            Scripts.parse(text);
        } catch (ScenarioDefinitionException e) {
            throw new ScenarioDefinitionException(s.name() + ": " + method + ": " + e.getMessage());
        }
        return text;
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** The group names (abstract classes between FeatureScenario and the scenarios) of {@code catalog}, sorted. */
    public static List<String> groups(List<Class<? extends FeatureScenario>> catalog) {
        return catalog.stream().flatMap(c -> groupPath(c).stream()).distinct().sorted().toList();
    }

    /** The chain of groups of one scenario class, outermost first (e.g. [Dataflow, Join]); empty for a direct subclass. */
    public static List<String> groupPath(Class<? extends FeatureScenario> scenario) {
        List<String> path = new ArrayList<>();
        for (Class<?> k = scenario.getSuperclass(); k != null && k != FeatureScenario.class; k = k.getSuperclass()) {
            if (Modifier.isAbstract(k.getModifiers())) {
                path.add(0, k.getSimpleName());
            }
        }
        return List.copyOf(path);
    }

    private static List<String> names(List<Class<? extends FeatureScenario>> classes) {
        return classes.stream().map(Class::getSimpleName).toList();
    }

    /** " (did you mean X?)" when a known group or scenario differs from {@code name} only in case. */
    private static String suggestion(String name, List<Class<? extends FeatureScenario>> catalog) {
        List<String> all = new ArrayList<>(groups(catalog));
        all.addAll(names(catalog));
        return all.stream().filter(k -> k.equalsIgnoreCase(name)).findFirst()
                .map(k -> " (did you mean " + k + "? names are case-sensitive)").orElse("");
    }
}
