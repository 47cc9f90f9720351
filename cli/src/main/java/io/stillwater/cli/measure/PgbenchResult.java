package io.stillwater.cli.measure;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code pgbench} run reported: its throughput and how many transactions it ran and
 * lost. Parsed from pgbench's summary, e.g. {@code tps = 12345.678901 (without initial connection
 * time)}, {@code number of transactions actually processed: 123456} and (pgbench 15+) {@code
 * number of failed transactions: 0 (0.000%)}.
 *
 * @param failed failed transactions; 0 when pgbench (before 15) does not report them
 */
record PgbenchResult(double tps, long transactions, long failed) {
    private static final Pattern TPS = Pattern.compile("(?m)^tps = ([0-9]+(?:\\.[0-9]+)?)\\s*(\\(([^)]*)\\))?");
    private static final Pattern PROCESSED = Pattern.compile("(?m)^number of transactions actually processed: ([0-9]+)");
    private static final Pattern FAILED = Pattern.compile("(?m)^number of failed transactions: ([0-9]+)");

    /**
     * Parses pgbench's output. Older pgbench prints two tps lines (including and excluding
     * connection establishment); the one excluding connections is taken, because the harness
     * opens its connections outside timing too.
     *
     * @throws IllegalArgumentException the output has no {@code tps = } line (pgbench failed; the
     *     message carries the output)
     */
    static PgbenchResult parse(String output) {
        Matcher m = TPS.matcher(output);
        Double chosen = null;
        while (m.find()) {
            double tps = Double.parseDouble(m.group(1));
            String note = m.group(3) == null ? "" : m.group(3).toLowerCase(Locale.ROOT);
            boolean excludesConnections = note.contains("without") || note.contains("excluding");
            if (chosen == null || excludesConnections) {
                chosen = tps;
            }
        }
        if (chosen == null) {
            throw new IllegalArgumentException("pgbench printed no \"tps = \" line:\n" + output.strip());
        }
        return new PgbenchResult(chosen, firstLong(PROCESSED, output), firstLong(FAILED, output));
    }

    private static long firstLong(Pattern p, String output) {
        Matcher m = p.matcher(output);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
