package io.stillwater.engine.layering;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The lower half of the engine is layered, not merely acyclic: each package may import
 * only the engine packages listed here (docs/architecture.md, "The lower packages'
 * dependencies"). Read from the sources' import lines and from qualified names in code,
 * so a new upward import fails here with the file and the package it reached.
 */
class LowerPackageDependenciesTest {
    private static final Path SOURCES = Path.of("src", "main", "java", "io", "stillwater", "engine");

    /** Engine packages (relative to {@code io.stillwater.engine}) each lower package may import; {@code error} always. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("types", Set.of()),
            Map.entry("data", Set.of("types")),
            Map.entry("expr", Set.of("types", "data")),
            Map.entry("plan", Set.of("expr", "types", "data")),
            Map.entry("storage", Set.of("types", "data")),
            Map.entry("params", Set.of("storage", "types", "data")),
            Map.entry("catalog", Set.of("storage", "types", "data")),
            Map.entry("table", Set.of("catalog", "arrange", "types", "data")),
            Map.entry("sql", Set.of("catalog", "plan", "types")),
            Map.entry("copy", Set.of("sql", "catalog", "storage", "types", "data")),
            Map.entry("sql.parse", Set.of("sql", "catalog", "types")),
            Map.entry("sql.calcite", Set.of("sql", "sql.parse", "catalog", "plan", "expr", "types", "data")),
            Map.entry("sql.planner", Set.of("sql", "sql.parse", "sql.calcite", "catalog", "plan", "expr", "types", "data")),
            Map.entry("compute", Set.of("dataflow", "arrange", "params", "plan", "expr", "types", "data")));

    /**
     * Files that are on their way out of a lower package: {@code SystemRelations} computes
     * the built-in relations from the coordinator and compute, and moves to the coordinator
     * side (issue 13). Remove an entry when its file has moved.
     */
    private static final Set<String> LEAVING = Set.of("catalog/SystemRelations.java");

    /** The root package ({@code Engine}, {@code EngineConfig}): above every lower package. */
    private static final String ROOT = "(root)";

    private static final Pattern ENGINE_REFERENCE =
            Pattern.compile("(?<![\\w.])io\\.stillwater\\.engine\\.((?:[a-z][a-z0-9]*\\.)*)[A-Z]");

    @Test
    void everyLowerPackageImportsOnlyThePackagesBelowIt() throws IOException {
        List<String> violations = new ArrayList<>();
        for (var rule : ALLOWED.entrySet()) {
            Path dir = SOURCES.resolve(rule.getKey().replace('.', '/'));
            assertThat(dir).as("package %s", rule.getKey()).isDirectory();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String relative = SOURCES.relativize(file).toString().replace('\\', '/');
                    if (LEAVING.contains(relative)) continue;
                    for (String used : referencedPackages(file)) {
                        if (used.equals(rule.getKey()) || used.equals("error") || rule.getValue().contains(used)) continue;
                        violations.add(relative + " -> engine." + used);
                    }
                }
            }
        }
        assertThat(violations).as("imports that break the lower packages' layering").isEmpty();
    }

    @Test
    void theRuleSeesAnUpwardImport() {
        String source = "package io.stillwater.engine.storage;\nimport io.stillwater.engine.catalog.TableDef;\n"
                + "class X { Object o = io.stillwater.engine.coord.Coordinator.class; }\n"
                + "// io.stillwater.engine.session.Session in a comment does not count\n"
                + "class Y { Object e = io.stillwater.engine.Engine.class; }\n";
        assertThat(referencedPackages(source)).containsExactly(ROOT, "catalog", "coord");
    }

    private static Set<String> referencedPackages(Path file) throws IOException {
        return referencedPackages(Files.readString(file));
    }

    /** Engine packages named by import lines and by qualified names in code (comments excluded). */
    static Set<String> referencedPackages(String source) {
        String code = source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "")
                .replaceAll("(?m)^package .*$", "");
        Set<String> packages = new TreeSet<>();
        Matcher m = ENGINE_REFERENCE.matcher(code);
        while (m.find()) {
            String p = m.group(1);
            packages.add(p.isEmpty() ? ROOT : p.substring(0, p.length() - 1));
        }
        return packages;
    }
}
