package io.stillwater.slt;

import java.net.ServerSocket;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The picocli command without a server: help, usage errors, missing targets. */
class SltCommandTest {
    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {}

    private Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        StringWriter help = new StringWriter();
        CommandLine cl = new CommandLine(new SltCommand().output(new PrintStream(out, true, StandardCharsets.UTF_8)));
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(help, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8) + help, err.toString());
    }

    @Test
    void helpListsEveryOption() {
        Run r = run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: slt", "--url", "--engine-name", "--fail-fast", "--rewrite-results",
                "--verbose", "--shard", "--junit", "--unsupported-is-failure", "Exit status");
    }

    @Test
    void withoutAnEmbeddedEngineTheRunSaysSoAndExitsTwo() throws Exception {
        Path f = tmp.resolve("a.slt");
        Files.writeString(f, "statement ok\nSELECT 1\n");
        Run r = run(f.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no embedded Stillwater engine is available").contains("--url");
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Path f = tmp.resolve("a.slt");
        Files.writeString(f, "statement ok\nSELECT 1\n");
        assertThat(run("--shard", "3/2", f.toString()).err()).contains("--shard must be i/n");
        assertThat(run("--shard", "3/2", f.toString()).exit()).isEqualTo(2);
        assertThat(run().exit()).isEqualTo(2);
        Run badUrl = run("--url", "mysql://x", f.toString());
        assertThat(badUrl.exit()).isEqualTo(2);
        assertThat(badUrl.err()).contains("not a PostgreSQL URL");
        Run missing = run("--url", "postgresql://u@localhost:1/db", tmp.resolve("nope").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file or directory");
    }

    @Test
    void unreachableServerIsAnErrorPerFileNotACrash() throws Exception {
        Path f = tmp.resolve("a.slt");
        Files.writeString(f, "statement ok\nSELECT 1\n");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run r = run("--url", "postgresql://u@127.0.0.1:" + port + "/db", f.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains(f + " ERROR").contains("cannot open the target");
    }
}
