package io.stillwater.bench.history;

import java.util.Collections;
import java.util.Map;
import java.util.StringJoiner;
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
        params = Collections.unmodifiableMap(new TreeMap<>(params));
    }

    /**
     * {@code a=b;c=d}, the form the CLI accepts (as {@code targets.SideParams#render} writes it; the
     * history depends on no target code); "" without params.
     */
    public String paramsText() {
        StringJoiner j = new StringJoiner(";");
        params.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }
}
