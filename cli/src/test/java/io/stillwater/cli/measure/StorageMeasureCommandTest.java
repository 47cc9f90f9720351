package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stillwater measure storage}: a tiny real run, with and without checkpoints. */
class StorageMeasureCommandTest {
    @TempDir
    Path dir;

    @Test
    void aTinyRunReportsBothStepsAndCheckpointsKeepOnlyTheData() throws Exception {
        CliRun o = CliRun.of("measure", "storage", "--rows", "2000", "--updates", "3", "--restarts", "1",
                "--data-dir", dir.resolve("on").toString());
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(o.out()).contains("step 1: inserted 2,000 rows").contains("step 2: 3 full-table UPDATEs")
                .contains("after insert #1").contains("after updates #1").contains("(count 2,000)");
        // After the last clean stop: one checkpoint, the (empty) log segment after it and the
        // log's control file naming that segment.
        assertThat(names(dir.resolve("on"))).hasSize(3).contains("wal.control")
                .anyMatch(n -> n.matches("checkpoint-\\d{20}\\.ckpt"));

        CliRun off = CliRun.of("measure", "storage", "--rows", "2000", "--updates", "3", "--restarts", "1",
                "--checkpoints", "off", "--data-dir", dir.resolve("off").toString());
        assertThat(off.exitCode()).as(off.err()).isZero();
        assertThat(names(dir.resolve("off"))).containsExactly("wal-00000000000000000001.log", "wal.control");
    }

    @Test
    void withAViewEachRestartTimesItsStoredAndItsRecomputedAnswer() throws Exception {
        CliRun o = CliRun.of("measure", "storage", "--rows", "2000", "--updates", "2", "--restarts", "1", "--view",
                "--data-dir", dir.resolve("view").toString());
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(o.out()).contains("after insert #1").contains("after updates #1")
                .containsPattern("view: first answer [0-9,]+ ms, first answer after a write [0-9,]+ ms");
    }

    private static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("wal.lock")).sorted().toList();
        }
    }
}
