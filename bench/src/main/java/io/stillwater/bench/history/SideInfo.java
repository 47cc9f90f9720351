package io.stillwater.bench.history;

import io.stillwater.bench.targets.SideParams;
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

    /** {@code a=b;c=d}, the form the CLI accepts ({@link SideParams#render}); "" without params. */
    public String paramsText() {
        return new SideParams(params).render();
    }
}
