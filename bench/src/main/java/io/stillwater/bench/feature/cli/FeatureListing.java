package io.stillwater.bench.feature.cli;

import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/** {@code feature-bench --list}: the selected scenarios as a table, then the groups. Stateless. */
final class FeatureListing {
    private FeatureListing() {
    }

    static void list(PrintWriter out, List<Class<? extends FeatureScenario>> known,
            List<Class<? extends FeatureScenario>> selected, Shard sh) {
        out.printf("%-28s %-30s %-6s %-5s %-8s %-12s %s%n", "SCENARIO", "GROUP", "SCALE", "FIXED", "VERSION",
                "SHARD (of " + sh.count() + ")", "REQUIRES");
        for (Class<? extends FeatureScenario> c : selected) {
            String group = String.join("/", FeatureSuite.groupPath(c));
            String scaleText;
            String fixed;
            String version;
            String requires;
            try {
                FeatureScenario s = c.getDeclaredConstructor().newInstance();
                scaleText = number(s.defaultScale());
                fixed = s.fixedScale() ? "yes" : "no";
                version = s.version();
                List<String> needs = new ArrayList<>(s.requires().stream().map(Enum::name).sorted().toList());
                if (s.restarts()) {
                    needs.add("restart (not on url:)");
                }
                requires = needs.isEmpty() ? "-" : String.join(", ", needs);
            } catch (ReflectiveOperationException | RuntimeException e) {
                Throwable cause = e instanceof InvocationTargetException i && i.getCause() != null ? i.getCause() : e;
                scaleText = "?";
                fixed = "?";
                version = "?";
                requires = "(cannot be built: " + cause + ")";
            }
            out.printf("%-28s %-30s %-6s %-5s %-8s %-12d %s%n", c.getSimpleName(), group.isEmpty() ? "-" : group,
                    scaleText, fixed, version, Shard.of(c.getSimpleName(), sh.count()), requires);
        }
        out.println();
        out.println("groups (--root-scenario): " + String.join(", ", FeatureSuite.groups(known)));
        out.flush();
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

}
