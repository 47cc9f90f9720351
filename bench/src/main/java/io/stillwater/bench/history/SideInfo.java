package io.stillwater.bench.history;

import java.util.Map;
import java.util.TreeMap;

/**
 * One side of a bench run as the user described it.
 *
 * @param build a label for the build measured (e.g. a git revision, a version, "main"); the key
 *     {@code --compare-to-history BUILD} looks up
 * @param target how the side was reached: {@code embedded}, {@code jar:PATH}, {@code url:...}, or
 *     {@code history:BUILD} when the side's results came from the history file
 * @param params the side's system parameters ({@code --this-params}/{@code --other-params}), sorted
 */
public record SideInfo(String build, String target, Map<String, String> params) {
    public SideInfo {
        params = java.util.Collections.unmodifiableMap(new TreeMap<>(params));
    }

    /** {@code a=b;c=d}, the form the CLI accepts; "" without params. */
    public String paramsText() {
        StringBuilder b = new StringBuilder();
        params.forEach((k, v) -> b.append(b.isEmpty() ? "" : ";").append(k).append('=').append(v));
        return b.toString();
    }

    /** Parses {@link #paramsText()}'s form; blank entries are ignored. */
    public static Map<String, String> parseParams(String text) {
        Map<String, String> out = new TreeMap<>();
        for (String part : text.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("parameter `" + part.strip() + "` is not of the form name=value");
            }
            out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
        }
        return out;
    }
}
