package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.stillwater.cli.CorpusRatchet.Counts;
import io.stillwater.slt.FileResult;
import io.stillwater.slt.Outcome;
import io.stillwater.slt.RunSummary;
import io.stillwater.slt.SltOptions;
import io.stillwater.slt.SltRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Runs the shared SQLite corpus (select1-3.test and evidence/*.test) against the embedded
 * engine and holds it to the committed ratchet {@code test/slt/corpus-ratchet.tsv}: no file may
 * lose successes or gain failures. After an improvement, rewrite the ratchet with
 * {@code mvn -pl cli -am test -Dtest=CorpusRatchetTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dstillwater.ratchet.update=true} and commit it; the update is refused while any file regresses.
 */
class CorpusRatchetTest {
    static final String UPDATE_PROPERTY = "stillwater.ratchet.update";

    @Test
    void corpusOutcomesNeverRegressFromTheRatchet() throws IOException {
        Path corpus = SuiteFiles.sqliteCorpus();
        List<Path> files = new ArrayList<>();
        for (String name : List.of("select1.test", "select2.test", "select3.test")) {
            files.add(corpus.resolve(name));
        }
        try (Stream<Path> evidence = Files.list(corpus.resolve("evidence"))) {
            evidence.filter(p -> p.getFileName().toString().endsWith(".test")).sorted().forEach(files::add);
        }

        RunSummary summary = new SltRunner(SltOptions.of(files), System.out).run();
        Map<String, Counts> current = new TreeMap<>();
        for (FileResult f : summary.files()) {
            assertThat(f.fatal()).as("%s could not run", f.file()).isEmpty();
            String key = corpus.relativize(Path.of(f.file()).toAbsolutePath().normalize()).toString().replace('\\', '/');
            current.put(key, new Counts(f.count(Outcome.SUCCESS), f.failures(false), f.count(Outcome.UNSUPPORTED),
                    f.count(Outcome.SKIPPED)));
        }
        System.out.printf("SQLite corpus on the embedded engine: %d file(s) in %.1f s; %s%n", files.size(),
                summary.elapsed().toMillis() / 1000.0, summary.countsLine());
        assertThat(current).as("one result per corpus file").hasSize(files.size());

        Path ratchetFile = SuiteFiles.regressionDir().resolve("corpus-ratchet.tsv");
        Map<String, Counts> ratchet = Files.exists(ratchetFile) ? CorpusRatchet.read(ratchetFile) : Map.of();
        List<String> regressions = CorpusRatchet.regressions(ratchet, current);
        List<String> improvements = CorpusRatchet.improvements(ratchet, current);
        String howToUpdate = "After a deliberate change, update the ratchet with\n"
                + "  mvn -B -pl cli -am test -Dtest=CorpusRatchetTest -Dsurefire.failIfNoSpecifiedTests=false -D"
                + UPDATE_PROPERTY + "=true\nand commit " + ratchetFile + " (refused while any file regresses).";
        boolean update = Boolean.getBoolean(UPDATE_PROPERTY);

        boolean onlyNewFiles = regressions.stream().allMatch(r -> r.endsWith("has no line in the ratchet"));
        if (update && (regressions.isEmpty() || onlyNewFiles)) {
            Files.writeString(ratchetFile, CorpusRatchet.format(current), StandardCharsets.UTF_8);
            System.out.println("corpus ratchet rewritten: " + ratchetFile);
            return;
        }
        if (!regressions.isEmpty()) {
            fail("the SQLite corpus regressed against " + ratchetFile + ":\n  " + String.join("\n  ", regressions)
                    + "\ncurrent counts:\n" + CorpusRatchet.format(current) + howToUpdate);
        }
        if (!improvements.isEmpty()) {
            System.out.println("the corpus improved on the ratchet; lock it in:\n  " + String.join("\n  ", improvements)
                    + "\n" + howToUpdate);
        }
    }

    @Test
    void ratchetComparisonFlagsLostSuccessesAndNewFailuresOnly() {
        Map<String, Counts> ratchet = Map.of("a.test", new Counts(10, 2, 1, 0), "b.test", new Counts(5, 0, 0, 0));

        assertThat(CorpusRatchet.regressions(ratchet, ratchet)).isEmpty();
        // more successes, fewer failures: an improvement, never a regression
        Map<String, Counts> better = Map.of("a.test", new Counts(12, 0, 1, 0), "b.test", new Counts(5, 0, 0, 0));
        assertThat(CorpusRatchet.regressions(ratchet, better)).isEmpty();
        assertThat(CorpusRatchet.improvements(ratchet, better)).hasSize(1).first().asString().startsWith("a.test");

        Map<String, Counts> worse = Map.of("a.test", new Counts(9, 3, 1, 0), "c.test", new Counts(1, 0, 0, 0));
        assertThat(CorpusRatchet.regressions(ratchet, worse)).containsExactly(
                "a.test: success dropped from 10 to 9",
                "a.test: failures rose from 2 to 3",
                "b.test: in the ratchet but was not run",
                "c.test: ran but has no line in the ratchet");
    }

    @Test
    void ratchetFileRoundTrips() {
        Map<String, Counts> counts = new TreeMap<>(Map.of("select1.test", new Counts(1031, 0, 0, 0),
                "evidence/in1.test", new Counts(100, 3, 2, 40)));
        String text = CorpusRatchet.format(counts);
        assertThat(text).startsWith(CorpusRatchet.HEADER + "\nevidence/in1.test\t100\t3\t2\t40\n");
        assertThat(CorpusRatchet.parse(text.lines().toList(), "test")).isEqualTo(counts);
    }
}
