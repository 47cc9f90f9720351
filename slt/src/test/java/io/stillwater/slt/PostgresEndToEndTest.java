package io.stillwater.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SltRunner with --url against a real PostgreSQL 15 cluster, on the SQLite corpus. */
class PostgresEndToEndTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    @Test
    void select1PassesCompletelyOnPostgres() {
        Path select1 = Corpus.sqlite().resolve("select1.test");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RunSummary s = new SltRunner(SltOptions.of(List.of(select1)).withUrl(PG.url()),
                new PrintStream(buf, true, StandardCharsets.UTF_8)).run();
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.println(out);
        assertThat(s.passed()).as(out).isTrue();
        assertThat(s.files()).hasSize(1);
        FileResult f = s.files().get(0);
        assertThat(f.failures(true)).as(out).isZero();
        assertThat(f.count(Outcome.UNSUPPORTED)).isZero();
        // select1.test has 1031 records; all of them run on PostgreSQL (no skipif/onlyif).
        assertThat(f.count(Outcome.SUCCESS)).isEqualTo(1031);
        assertThat(out).contains("==> " + select1 + " PASS success=1031 total=1031");
    }
}
