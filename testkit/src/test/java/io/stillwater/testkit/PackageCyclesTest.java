package io.stillwater.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package-cycle checker on small class sets compiled here into a temporary directory (the
 * real input: jdeps on compiled classes): it finds a cycle, names the class edges that make it,
 * passes a DAG, and ignores what cannot close a cycle.
 */
class PackageCyclesTest {
    @TempDir
    Path dir;

    @Test
    void findsATwoPackageCycleAndNamesTheClassEdgesBehindIt() throws IOException {
        Path classes = compile(Map.of(
                "fx/catalog/Schema.java", "package fx.catalog; public class Schema { fx.coord.Coordinator c; }",
                "fx/coord/Coordinator.java", "package fx.coord; public class Coordinator { fx.catalog.Schema s; }",
                "fx/bench/Main.java", "package fx.bench; public class Main { fx.coord.Coordinator c; }"));

        PackageCycles found = PackageCycles.of(classes, "fx");

        assertEquals(Set.of("fx.bench", "fx.catalog", "fx.coord"), found.packages());
        assertEquals(1, found.cycles().size(), found.describe());
        assertEquals(List.of("fx.catalog", "fx.coord"), found.cycles().getFirst().packages());
        assertEquals("""
                1 package cycle under fx (each package edge below must go, or go the other way):
                cycle 1: fx.catalog, fx.coord
                  fx.catalog -> fx.coord: Schema -> Coordinator
                  fx.coord -> fx.catalog: Coordinator -> Schema
                """, found.describe());
    }

    @Test
    void namesPackagesRelativeToTheBasePackagesParent() throws IOException {
        Path classes = compile(Map.of(
                "io/sw/engine/catalog/SystemRelations.java",
                "package io.sw.engine.catalog; public class SystemRelations { io.sw.engine.coord.Coordinator c; }",
                "io/sw/engine/coord/Coordinator.java",
                "package io.sw.engine.coord; public class Coordinator { io.sw.engine.catalog.SystemRelations r; }"));

        AssertionError failure = assertThrows(AssertionError.class, () -> PackageCycles.assertNone(classes, "io.sw.engine"));

        assertTrue(failure.getMessage().contains("engine.catalog -> engine.coord: SystemRelations -> Coordinator"), failure.getMessage());
        assertTrue(failure.getMessage().contains("engine.coord -> engine.catalog: Coordinator -> SystemRelations"), failure.getMessage());
    }

    @Test
    void findsALongerCycleAndEveryEdgeInsideIt() throws IOException {
        // a -> b -> c -> a, plus a -> c inside the cycle and d -> a outside it
        Path classes = compile(Map.of(
                "fx/a/A.java", "package fx.a; public class A { fx.b.B b; fx.c.C c; }",
                "fx/b/B.java", "package fx.b; public class B { fx.c.C c; }",
                "fx/c/C.java", "package fx.c; public class C { fx.a.A a; }",
                "fx/d/D.java", "package fx.d; public class D { fx.a.A a; }"));

        List<PackageCycles.Cycle> cycles = PackageCycles.of(classes, "fx").cycles();

        assertEquals(1, cycles.size());
        assertEquals(List.of("fx.a", "fx.b", "fx.c"), cycles.getFirst().packages());
        var edges = cycles.getFirst().edges();
        assertEquals(Set.of("fx.b", "fx.c"), edges.get("fx.a").keySet());
        assertEquals(Set.of("fx.c"), edges.get("fx.b").keySet());
        assertEquals(Set.of("fx.a"), edges.get("fx.c").keySet());
    }

    @Test
    void listsTwoSeparateCyclesAndCountsNestedClassesAsTheirOuterClass() throws IOException {
        Path classes = compile(Map.of(
                "fx/a/A.java", "package fx.a; public class A { public static class Inner { fx.b.B b; } }",
                "fx/b/B.java", "package fx.b; public class B { fx.a.A.Inner i; }",
                "fx/x/X.java", "package fx.x; public class X { fx.y.Y y; }",
                "fx/y/Y.java", "package fx.y; public class Y { fx.x.X x; }"));

        PackageCycles found = PackageCycles.of(classes, "fx");

        assertEquals(2, found.cycles().size(), found.describe());
        assertTrue(found.describe().contains("fx.a -> fx.b: A -> B"), found.describe());
        assertTrue(found.describe().contains("fx.b -> fx.a: B -> A"), found.describe());
        assertTrue(found.describe().contains("cycle 2: fx.x, fx.y"), found.describe());
    }

    @Test
    void passesADag() throws IOException {
        Path classes = compile(Map.of(
                "fx/cli/Main.java", "package fx.cli; public class Main { fx.bench.Runner r; fx.engine.Engine e; }",
                "fx/bench/Runner.java", "package fx.bench; public class Runner { fx.engine.Engine e; }",
                "fx/engine/Engine.java", "package fx.engine; public class Engine { Helper h; }",
                "fx/engine/Helper.java", "package fx.engine; public class Helper { Engine e; }"));

        PackageCycles found = PackageCycles.of(classes, "fx");

        assertEquals(List.of(), found.cycles());
        assertEquals(Set.of("fx.bench", "fx.cli", "fx.engine"), found.packages());
        PackageCycles.assertNone(classes, "fx"); // same-package mutual use is no package cycle
    }

    @Test
    void leavesOutPackagesOutsideTheBasePackage() throws IOException {
        Path classes = compile(Map.of(
                "fx/a/A.java", "package fx.a; public class A { other.O o; }",
                "other/O.java", "package other; public class O { fx.a.A a; }"));

        PackageCycles found = PackageCycles.of(classes, "fx");

        assertEquals(Set.of("fx.a"), found.packages());
        assertEquals(List.of(), found.cycles());
    }

    @Test
    void refusesAMissingDirectory() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PackageCycles.of(dir.resolve("nope"), "fx"));
        assertTrue(e.getMessage().contains("compile the module first"), e.getMessage());
    }

    private Path compile(Map<String, String> sources) throws IOException {
        Path src = dir.resolve("src");
        Path out = dir.resolve("classes");
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(List.of("-d", out.toString()));
        for (var e : sources.entrySet()) {
            Path file = src.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, args.toArray(String[]::new));
        assertEquals(0, rc, "fixture sources must compile: " + errors);
        return out;
    }
}
