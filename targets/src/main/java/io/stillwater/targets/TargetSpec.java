package io.stillwater.targets;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A side's target as written on the command line ({@code --this}, {@code --other}):
 * <ul>
 *   <li>{@code embedded}: a fresh in-process engine and wire server per scenario run, in a temp dir;
 *   <li>{@code jar:PATH}: another Stillwater build, started as {@code java -jar PATH serve} per run;
 *   <li>{@code url:postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?jdbc-options]}: an existing server
 *       (PostgreSQL, Materialize, Stillwater), shared by every run. PORT defaults to 5432.
 * </ul>
 */
public sealed interface TargetSpec permits TargetSpec.Embedded, TargetSpec.Jar, TargetSpec.Url {

    String FORMS = "embedded, jar:PATH or url:postgresql://USER@HOST[:PORT]/DB";

    /** The spec as shown in reports; never contains a password. */
    String display();

    record Embedded() implements TargetSpec {
        @Override
        public String display() {
            return "embedded";
        }
    }

    /** @param jar an existing file: the shaded jar of another build */
    record Jar(Path jar) implements TargetSpec {
        @Override
        public String display() {
            return "jar:" + jar;
        }
    }

    /**
     * @param jdbcUrl {@code jdbc:postgresql://host:port/db[?options]}
     * @param password "" when none was given
     */
    record Url(String jdbcUrl, String user, String password, String display) implements TargetSpec {
        @Override
        public String toString() {
            return "Url[" + display + "]"; // never print the password
        }
    }

    /**
     * Parses a target spec.
     *
     * @throws IllegalArgumentException naming the problem and the accepted forms
     */
    static TargetSpec parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty target; expected " + FORMS);
        }
        String s = spec.strip();
        if (s.equals("embedded")) {
            return new Embedded();
        }
        if (s.startsWith("jar:")) {
            String p = s.substring("jar:".length());
            if (p.isEmpty()) {
                throw new IllegalArgumentException("target \"" + s + "\": jar: needs a path, e.g. jar:../other/cli/target/stillwater.jar");
            }
            Path path = Path.of(p).toAbsolutePath().normalize();
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException("target \"" + s + "\": no such file " + path);
            }
            return new Jar(path);
        }
        if (s.startsWith("url:")) {
            return parseUrl(s, s.substring("url:".length()));
        }
        throw new IllegalArgumentException("unknown target \"" + s + "\"; expected " + FORMS);
    }

    private static Url parseUrl(String spec, String url) {
        if (!url.startsWith("postgresql://") && !url.startsWith("postgres://")) {
            throw new IllegalArgumentException("target \"" + spec + "\": a url target starts with url:postgresql://, "
                    + "e.g. url:postgresql://materialize@127.0.0.1:6875/materialize");
        }
        PgUrl pg;
        int port;
        try {
            pg = PgUrl.parse(url);
            port = pg.port().orElse(5432);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("target \"" + spec + "\": not a URL: " + e.getMessage(), e);
        }
        if (pg.host().isEmpty()) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no host (or the port is not a number)");
        }
        if (pg.user().isEmpty()) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no user; write USER@ before the host, "
                    + "e.g. url:postgresql://postgres@" + pg.host() + "/postgres");
        }
        if (pg.database().isEmpty() || pg.database().contains("/")) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no database; end it with /DB, "
                    + "e.g. /materialize or /postgres");
        }
        String hostPort = pg.host() + ":" + port;
        String jdbc = new PgUrl(hostPort, pg.database(), pg.user(), pg.password(), pg.params()).jdbcUrl();
        String display = "url:postgresql://" + pg.user() + "@" + hostPort + "/" + pg.database() + pg.query();
        return new Url(jdbc, pg.user(), pg.password(), display);
    }
}
