package io.stillwater.targets;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A PostgreSQL server address, read from {@code postgresql://user[:password]@host[:port]/db?k=v}
 * (libpq's URI form, also {@code postgres://}) or from a pgjdbc URL
 * {@code jdbc:postgresql://host[:port]/db?user=...}. Renders the pgjdbc URL for any database.
 */
public record PgUrl(String hostPort, String database, String user, String password, Map<String, String> params) {
    public PgUrl {
        params = Map.copyOf(params);
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        database = database == null ? "" : database;
    }

    public static PgUrl parse(String url) {
        String s = url.strip();
        if (s.startsWith("jdbc:")) {
            s = s.substring(5);
        }
        if (s.startsWith("postgres://")) {
            s = "postgresql://" + s.substring("postgres://".length());
        }
        if (!s.startsWith("postgresql://")) {
            throw new IllegalArgumentException("not a PostgreSQL URL: '" + url
                    + "' (expected postgresql://user@host:port/db or jdbc:postgresql://host:port/db)");
        }
        URI uri;
        try {
            uri = new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot read URL '" + url + "': " + e.getMessage(), e);
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            throw new IllegalArgumentException("URL '" + url + "' names no host");
        }
        String user = "";
        String password = "";
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String info = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? "" : decode(info.substring(colon + 1));
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String database = decode(path.startsWith("/") ? path.substring(1) : path);
        Map<String, String> params = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String kv : uri.getRawQuery().split("&")) {
                if (kv.isEmpty()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                String k = decode(eq < 0 ? kv : kv.substring(0, eq));
                String v = eq < 0 ? "" : decode(kv.substring(eq + 1));
                switch (k) {
                    case "user" -> user = v;
                    case "password" -> password = v;
                    default -> params.put(k, v);
                }
            }
        }
        return new PgUrl(authority, database, user, password, params);
    }

    public PgUrl withDatabase(String db) {
        return new PgUrl(hostPort, db, user, password, params);
    }

    /** The host as written (an IPv6 address keeps its brackets); "" when the URL names none. */
    public String host() {
        int colon = portColon();
        return colon < 0 ? hostPort : hostPort.substring(0, colon);
    }

    /**
     * The port, or empty when the URL names none (the caller's default applies, 5432 for PostgreSQL).
     *
     * @throws IllegalArgumentException the port is not a number
     */
    public OptionalInt port() {
        int colon = portColon();
        if (colon < 0) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the port of '" + hostPort + "' is not a number");
        }
    }

    /** The index of the ':' before the port in {@link #hostPort}, or -1; a colon inside [IPv6] does not count. */
    private int portColon() {
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 || colon < hostPort.lastIndexOf(']') ? -1 : colon;
    }

    /** The pgjdbc URL, without credentials (those go in connection properties). */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + hostPort + "/" + database + query();
    }

    /** {@code ?k=v&k=v} of the pgjdbc options, or "" when there are none. */
    public String query() {
        StringBuilder sb = new StringBuilder();
        char sep = '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "postgresql://" + (user.isEmpty() ? "" : user + "@") + hostPort + "/" + database;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
