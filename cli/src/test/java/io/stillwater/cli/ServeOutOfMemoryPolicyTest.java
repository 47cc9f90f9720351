package io.stillwater.cli;

import java.util.ArrayList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.targets.ServeProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;
import picocli.CommandLine;

/**
 * What happens to {@code serve} when memory runs out: the launcher runs it with
 * -XX:+ExitOnOutOfMemoryError (a real heap exhaustion exits, and a supervisor restarts
 * it from the log), serve says at startup whether it has that flag, and an engine that
 * stops because a committed write cannot be applied makes serve exit with status 70.
 */
class ServeOutOfMemoryPolicyTest {
    private static final Path LAUNCHER = Path.of("..", "stillwater");

    @AfterEach
    void disarm() {
        FaultPoints.disarmAll();
    }

    /** The java command line ./stillwater would run for {@code args}, one element per line. */
    private static List<String> launcherCommand(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("STILLWATER_PRINT_COMMAND", "1");
        pb.environment().remove("STILLWATER_JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }

    @Test
    void theLauncherRunsServeWithExitOnOutOfMemoryErrorAndServeReportsIt(@TempDir Path dir) throws Exception {
        List<String> serve = launcherCommand("serve", "--port", "0");
        int jar = serve.indexOf("-jar");
        assertThat(jar).isPositive();
        List<String> jvmOptions = serve.subList(1, jar);
        assertThat(jvmOptions).contains("-XX:+ExitOnOutOfMemoryError");
        assertThat(serve.subList(jar + 2, serve.size())).containsExactly("serve", "--port", "0");
        // Only the server: other commands run without it.
        List<String> slt = launcherCommand("slt", "x.slt");
        assertThat(slt).doesNotContain("-XX:+ExitOnOutOfMemoryError");

        // A serve process started with the launcher's JVM options runs with the flag in effect.
        try (ServeProcess p = ThisBuildServe.start(dir.resolve("data"), jvmOptions)) {
            assertThat(p.output()).anySatisfy(l -> assertThat(l).contains("on heap exhaustion the process exits"));
            assertThat(p.output()).noneSatisfy(l -> assertThat(l).contains("without -XX:+ExitOnOutOfMemoryError"));
        }
    }

    @Test
    void withoutTheFlagServeWarns(@TempDir Path dir) throws Exception {
        try (ServeProcess p = ThisBuildServe.start(dir.resolve("data"))) {
            assertThat(p.output()).anySatisfy(l -> assertThat(l).contains("WARN")
                    .contains("runs without -XX:+ExitOnOutOfMemoryError"));
        }
        assertThat(ServeCommand.logOutOfMemoryPolicy(List.of("-Xmx1g", "-XX:+ExitOnOutOfMemoryError"))).isTrue();
        assertThat(ServeCommand.logOutOfMemoryPolicy(List.of("-Xmx1g"))).isFalse();
    }

    @Test
    void anEngineThatCannotApplyACommittedWriteExitsServeWithStatus70(@TempDir Path dir) throws Exception {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString());
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        serve.exit = exited::complete;
        try (ServeCommand.Running running = serve.start();
             Connection c = DriverManager.getConnection(
                     "jdbc:postgresql://127.0.0.1:" + running.port() + "/materialize?user=materialize");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (x int)");
            s.execute("INSERT INTO t VALUES (1)");
            armTwice();
            assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (2)"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("XX000"));
            assertThat(exited.get(60, TimeUnit.SECONDS)).isEqualTo(ServeCommand.EXIT_ENGINE_STOPPED).isEqualTo(70);
        }
        // What the supervisor's restart does: recovery replays the durable write.
        ServeCommand again = new ServeCommand();
        new CommandLine(again).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString());
        try (ServeCommand.Running running = again.start();
             Connection c = DriverManager.getConnection(
                     "jdbc:postgresql://127.0.0.1:" + running.port() + "/materialize?user=materialize");
             Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM t")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }

    /** The apply of the next committed record fails, and so does its retry. */
    private static void armTwice() {
        FaultPoints.arm(FaultPoints.Point.APPLY, () -> {
            FaultPoints.arm(FaultPoints.Point.APPLY, () -> new OutOfMemoryError("injected"));
            return new OutOfMemoryError("injected");
        });
    }
}
