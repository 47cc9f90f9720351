package io.stillwater.cli.measure;

import io.stillwater.engine.arrange.Batch;
import io.stillwater.engine.arrange.Batcher;
import io.stillwater.engine.data.Row;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * Where a row's bytes go in an arrangement: one {@link Batch} of {@code rows} rows {@code (g, g +
 * 1)} of a two-int table, built as a table and its default index build theirs (key the whole row,
 * value {@link Row#EMPTY}, one update per row at one time, {@link Batcher}), walked by JOL's
 * {@link GraphLayout}: bytes per row by class (the batch's columnar arrays; rows, value arrays
 * and boxed datums only where a batch falls back to boxed rows).
 *
 * @param perClass the batch's objects by class, largest first
 */
record RowFootprint(int rows, long totalBytes, List<ClassShare> perClass, String vm) {
    /** The objects of one class reachable from the batch. */
    record ClassShare(String className, long count, long bytes) {}

    static RowFootprint of(int rows) {
        Batcher b = new Batcher(rows);
        for (int g = 1; g <= rows; g++) {
            b.add(Row.of(g, g + 1), Row.EMPTY, 0, 1);
        }
        Batch batch = b.seal(0, 1);
        GraphLayout layout = GraphLayout.parseInstance(batch);
        List<ClassShare> shares = new ArrayList<>();
        for (Class<?> c : layout.getClasses()) {
            shares.add(new ClassShare(c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName(),
                    layout.getClassCounts().count(c), layout.getClassSizes().count(c)));
        }
        shares.sort(Comparator.comparingLong(ClassShare::bytes).reversed());
        return new RowFootprint(rows, layout.totalSize(), shares, vmLayout());
    }

    /** JOL's description of the object layout these sizes depend on (compressed references, alignment). */
    private static String vmLayout() {
        return VM.current().details().lines()
                .filter(l -> l.contains("Compressed references") || l.contains("alignment"))
                .map(l -> l.replaceFirst("^#\\s*", ""))
                .collect(Collectors.joining("; "));
    }

    void print(PrintWriter out) {
        Report r = new Report(String.format(Locale.ROOT,
                "3. One arrangement batch of %s rows of t(a int, b int), by class (JOL)", Report.count(rows)),
                "class", "objects", "bytes", "bytes/row");
        for (ClassShare s : perClass) {
            r.row(s.className(), Report.count(s.count()), Report.count(s.bytes()),
                    String.format(Locale.ROOT, "%.1f", s.bytes() / (double) rows));
        }
        r.row("total", "", Report.count(totalBytes), String.format(Locale.ROOT, "%.1f", totalBytes / (double) rows))
                .note("built like a table's or a default index's batch: key = the whole row, value = the shared empty row,")
                .note("one (time, diff) per row; a table and its default index each keep such batches")
                .note("keys are packed as two int columns (PrimitiveRows: no Row/Object[]/Integer per row); the empty")
                .note("values (EmptyRows), key/value offsets (one value per key, one update per value), times (one time)")
                .note("and diffs (all 1) carry nothing here and take no bytes per row")
                .note(vm)
                .print(out);
    }
}
