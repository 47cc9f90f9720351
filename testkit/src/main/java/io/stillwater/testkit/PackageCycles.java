package io.stillwater.testkit;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

/**
 * The package dependency graph of one module's compiled classes and its cycles, so that a
 * module's test can require its packages to form a DAG (a package may use another only if that
 * one does not use it back, directly or through others). The graph comes from the JDK's
 * {@code jdeps} (run in process through {@link ToolProvider}, no extra dependency) on the
 * module's {@code target/classes}; the cycles are its strongly connected components of more
 * than one package (Tarjan), each listed with the class-level edges that make it:
 * <pre>
 * engine.catalog -> engine.coord: SystemRelations -> Coordinator</pre>
 * Nested classes count as their top-level class ({@code Outer$Inner} is {@code Outer}): a
 * nested class lives and moves with its outer one. Only packages under the base package and
 * with classes in the directory are nodes; edges to other modules or the JDK cannot close a
 * cycle and are dropped.
 *
 * <p>Use: {@code PackageCycles.assertNone(Path.of("target/classes"), "io.stillwater.engine")}
 * in a test of the module (Surefire runs tests in the module's directory, after compiling).
 */
public final class PackageCycles {
    /** One class-level dependence, both ends top-level classes (fully qualified). */
    public record ClassEdge(String from, String to) implements Comparable<ClassEdge> {
        @Override
        public int compareTo(ClassEdge o) {
            int c = from.compareTo(o.from);
            return c != 0 ? c : to.compareTo(o.to);
        }
    }

    /**
     * One cycle: the packages of one strongly connected component (sorted) and, for each
     * package edge between two of them, the class edges behind it.
     */
    public record Cycle(List<String> packages, SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> edges) {}

    // "   io.x.a.Foo$Bar      -> io.x.b.Baz     classes" (jdeps -verbose:class); the last column
    // names where the target was found ("not found" for a class outside the analysed directory).
    private static final Pattern CLASS_EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+(.+)$");

    private final String basePackage;
    /** package -> package it uses -> the class edges behind that use; self-edges left out. */
    private final SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph;
    private final List<Cycle> cycles;

    private PackageCycles(String basePackage, SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph) {
        this.basePackage = basePackage;
        this.graph = graph;
        this.cycles = findCycles(graph);
    }

    /**
     * Reads the classes under {@code classesDir} (a compiled output directory) and keeps the
     * packages at or under {@code basePackage}.
     *
     * @throws IllegalStateException if the directory holds no class, or jdeps is missing or fails
     */
    public static PackageCycles of(Path classesDir, String basePackage) {
        if (!Files.isDirectory(classesDir)) {
            throw new IllegalStateException("no compiled classes at " + classesDir.toAbsolutePath() + " (compile the module first)");
        }
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("the JDK's jdeps tool is not available in this runtime"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String only = Pattern.quote(basePackage) + "(\\..*)?";
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err),
                "-verbose:class", "-filter:none", "-e", only, classesDir.toString());
        if (rc != 0) {
            throw new IllegalStateException("jdeps exited " + rc + " on " + classesDir + ": " + err + out);
        }
        return parse(out.toString(), basePackage);
    }

    /** Builds the graph from jdeps' {@code -verbose:class} output (visible for the checker's tests). */
    static PackageCycles parse(String jdepsOutput, String basePackage) {
        List<ClassEdge> edges = new ArrayList<>();
        Set<String> localPackages = new TreeSet<>();
        for (String line : jdepsOutput.split("\\R")) {
            Matcher m = CLASS_EDGE.matcher(line);
            if (!m.matches()) continue;
            String from = topLevel(m.group(1));
            localPackages.add(packageOf(from));
            if (m.group(3).trim().equals("not found")) continue; // outside the directory: cannot close a cycle
            ClassEdge e = new ClassEdge(from, topLevel(m.group(2)));
            localPackages.add(packageOf(e.to()));
            edges.add(e);
        }
        SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph = new TreeMap<>();
        for (String p : localPackages) {
            if (under(p, basePackage)) graph.put(p, new TreeMap<>());
        }
        for (ClassEdge e : edges) {
            String from = packageOf(e.from());
            String to = packageOf(e.to());
            if (from.equals(to) || !graph.containsKey(from) || !graph.containsKey(to)) continue;
            graph.get(from).computeIfAbsent(to, k -> new TreeSet<>()).add(e);
        }
        return new PackageCycles(basePackage, graph);
    }

    /** The packages found (nodes of the graph), sorted. */
    public Set<String> packages() {
        return Collections.unmodifiableSet(graph.keySet());
    }

    /** Every cycle, ordered by its first package; empty when the packages form a DAG. */
    public List<Cycle> cycles() {
        return cycles;
    }

    /**
     * Fails with {@link #describe()} when the module's packages have any cycle.
     *
     * @throws AssertionError listing every cycle with its class-level edges
     */
    public static void assertNone(Path classesDir, String basePackage) {
        PackageCycles found = of(classesDir, basePackage);
        if (!found.cycles().isEmpty()) throw new AssertionError(found.describe());
    }

    /**
     * A listing of the cycles for a failure message: per cycle its packages, then one line per
     * package edge inside it with the class edges behind it (simple class names). Package names
     * are shown relative to the base package's parent ({@code engine.coord} for
     * {@code io.stillwater.engine.coord}).
     */
    public String describe() {
        if (cycles.isEmpty()) return "no package cycles under " + basePackage + " (" + graph.size() + " packages)";
        StringBuilder sb = new StringBuilder();
        sb.append(cycles.size()).append(cycles.size() == 1 ? " package cycle" : " package cycles")
                .append(" under ").append(basePackage).append(" (each package edge below must go, or go the other way):\n");
        int n = 1;
        for (Cycle c : cycles) {
            sb.append("cycle ").append(n++).append(": ")
                    .append(c.packages().stream().map(this::shortName).collect(Collectors.joining(", "))).append('\n');
            c.edges().forEach((from, targets) -> targets.forEach((to, classEdges) -> {
                sb.append("  ").append(shortName(from)).append(" -> ").append(shortName(to)).append(": ");
                sb.append(classEdges.stream().map(e -> simpleName(e.from()) + " -> " + simpleName(e.to()))
                        .collect(Collectors.joining(", ")));
                sb.append('\n');
            }));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe();
    }

    private String shortName(String pkg) {
        int dot = basePackage.lastIndexOf('.');
        return dot < 0 ? pkg : pkg.substring(dot + 1);
    }

    private static boolean under(String pkg, String base) {
        return pkg.equals(base) || pkg.startsWith(base + ".");
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** Tarjan's strongly connected components; keeps those of two or more packages. */
    private static List<Cycle> findCycles(SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph) {
        Tarjan t = new Tarjan(graph);
        for (String p : graph.keySet()) {
            if (!t.index.containsKey(p)) t.visit(p);
        }
        List<Cycle> cycles = new ArrayList<>();
        for (List<String> component : t.components) {
            if (component.size() < 2) continue; // self-edges are not kept, so one package is no cycle
            Collections.sort(component);
            Set<String> members = Set.copyOf(component);
            SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> inside = new TreeMap<>();
            for (String from : component) {
                graph.get(from).forEach((to, classEdges) -> {
                    if (members.contains(to)) inside.computeIfAbsent(from, k -> new TreeMap<>()).put(to, classEdges);
                });
            }
            cycles.add(new Cycle(List.copyOf(component), inside));
        }
        cycles.sort((a, b) -> a.packages().getFirst().compareTo(b.packages().getFirst()));
        return List.copyOf(cycles);
    }

    /** One run of Tarjan's algorithm (recursive: a module has tens of packages, not thousands). */
    private static final class Tarjan {
        final SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph;
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> lowLink = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new TreeSet<>();
        final List<List<String>> components = new ArrayList<>();
        int next;

        Tarjan(SortedMap<String, SortedMap<String, SortedSet<ClassEdge>>> graph) {
            this.graph = graph;
        }

        void visit(String v) {
            index.put(v, next);
            lowLink.put(v, next);
            next++;
            stack.push(v);
            onStack.add(v);
            for (String w : graph.get(v).keySet()) {
                if (!index.containsKey(w)) {
                    visit(w);
                    lowLink.put(v, Math.min(lowLink.get(v), lowLink.get(w)));
                } else if (onStack.contains(w)) {
                    lowLink.put(v, Math.min(lowLink.get(v), index.get(w)));
                }
            }
            if (lowLink.get(v).equals(index.get(v))) { // v roots a component: pop it
                List<String> component = new ArrayList<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                components.add(component);
            }
        }
    }
}
