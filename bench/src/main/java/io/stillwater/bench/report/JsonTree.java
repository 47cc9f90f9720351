package io.stillwater.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.SideInfo;
import java.util.Locale;

/**
 * What the bench's and the feature bench's JSON reports have in common: the indenting mapper, the
 * run metadata both start their {@code run} object with, strict numbers (NaN and the infinities are
 * {@code null}, so the output is strict JSON) and the final text.
 */
public final class JsonTree {
    /** Thread-safe once configured; only used to build trees and write them. */
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonTree() {
    }

    /**
     * A {@code run} object holding what every run has: started, finished, mode (lower case),
     * frameworkVersion, and this and other as {build, target, params}. Callers add their own fields after.
     */
    public static ObjectNode run(RunInfo info) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("started", info.started().toString());
        n.put("finished", info.finished().toString());
        n.put("mode", info.mode().name().toLowerCase(Locale.ROOT));
        n.put("frameworkVersion", info.frameworkVersion());
        n.set("this", side(info.thisSide()));
        n.set("other", side(info.otherSide()));
        return n;
    }

    private static ObjectNode side(SideInfo side) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("build", side.build());
        n.put("target", side.target());
        ObjectNode p = n.putObject("params");
        side.params().forEach(p::put);
        return n;
    }

    /** Puts {@code v}, or {@code null} when it is NaN or infinite (no value). */
    public static void number(ObjectNode n, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }

    /** The indented document plus a final newline; {@code what} names the report if that fails. */
    public static String text(ObjectNode root, String what) {
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the " + what, e);
        }
    }
}
