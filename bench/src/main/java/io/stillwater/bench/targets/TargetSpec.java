package io.stillwater.bench.targets;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

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
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("target \"" + spec + "\": not a URL: " + e.getMessage());
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no host (or the port is not a number)");
        }
        String userInfo = uri.getUserInfo();
        if (userInfo == null || userInfo.isEmpty() || userInfo.startsWith(":")) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no user; write USER@ before the host, "
                    + "e.g. url:postgresql://postgres@" + host + "/postgres");
        }
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
        String password = colon < 0 ? "" : userInfo.substring(colon + 1);
        String path = uri.getPath() == null ? "" : uri.getPath();
        String db = path.startsWith("/") ? path.substring(1) : path;
        if (db.isEmpty() || db.contains("/")) {
            throw new IllegalArgumentException("target \"" + spec + "\": the URL names no database; end it with /DB, "
                    + "e.g. /materialize or /postgres");
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String hostPart = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
        String jdbc = "jdbc:postgresql://" + hostPart + ":" + port + "/" + db + query;
        String display = "url:postgresql://" + user + "@" + hostPart + ":" + port + "/" + db + query;
        return new Url(jdbc, user, password, display);
    }

    /** A system parameter name: a lower-case identifier (it is spliced into ALTER SYSTEM and flags). */
    Pattern PARAMETER_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
}
