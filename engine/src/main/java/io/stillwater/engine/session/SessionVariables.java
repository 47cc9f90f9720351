package io.stillwater.engine.session;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.Roles;
import io.stillwater.engine.params.SystemParameters;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A session's configuration parameters ({@code SET}/{@code SHOW}/{@code RESET}).
 * Owned by the session's thread.
 *
 * <p>Known parameters have defaults; {@code SET} of an unknown name is 42704 as in
 * PostgreSQL, except names with a dot (custom "extension.option" parameters), which are
 * accepted. Parameters marked <em>reported</em> are sent to the client in
 * ParameterStatus whenever they change.
 */
public final class SessionVariables {
    private record Spec(String defaultValue, boolean reported, boolean readOnly) {}

    private static final Map<String, Spec> SPECS = new LinkedHashMap<>();

    static {
        SPECS.put("application_name", new Spec("", true, false));
        SPECS.put("client_encoding", new Spec("UTF8", true, false));
        SPECS.put("client_min_messages", new Spec("notice", false, false));
        // Materialize: the cluster a session's reads and new objects go to, and an
        // optional replica of it to read from (empty: any). Not checked when SET: an
        // unknown cluster fails the statements that need it (42704), as in Materialize.
        SPECS.put("cluster", new Spec("default", false, false));
        SPECS.put("cluster_replica", new Spec("", false, false));
        SPECS.put("database", new Spec("materialize", false, true));
        SPECS.put("datestyle", new Spec("ISO, MDY", true, false));
        SPECS.put("extra_float_digits", new Spec("1", false, false));
        SPECS.put("integer_datetimes", new Spec("on", true, true));
        SPECS.put("intervalstyle", new Spec("postgres", true, false));
        SPECS.put("is_superuser", new Spec("off", true, true));
        SPECS.put("search_path", new Spec("public", false, false));
        SPECS.put("server_encoding", new Spec("UTF8", true, true));
        SPECS.put("server_version", new Spec("15.0", true, true));
        SPECS.put("server_version_num", new Spec("150000", false, true));
        SPECS.put("standard_conforming_strings", new Spec("on", true, false));
        SPECS.put("statement_timeout", new Spec("0", false, false));
        SPECS.put("timezone", new Spec("UTC", true, false));
        SPECS.put("transaction_isolation", new Spec("strict serializable", false, false));
        SPECS.put("default_transaction_isolation", new Spec("strict serializable", false, false));
        // The access mode of the open transaction block; EngineSession keeps it per transaction.
        SPECS.put("transaction_read_only", new Spec("off", false, false));
        SPECS.put("default_transaction_read_only", new Spec("off", false, false));
        SPECS.put("lock_timeout", new Spec("0", false, false));
        SPECS.put("idle_in_transaction_session_timeout", new Spec("0", false, false));
    }

    /** Client-facing names PostgreSQL reports with capitals. */
    private static final Map<String, String> REPORTED_NAMES = Map.of(
            "datestyle", "DateStyle", "timezone", "TimeZone", "intervalstyle", "IntervalStyle");

    private final Map<String, String> values = new TreeMap<>();
    /**
     * The engine's system parameters, or null. They are a layer under the session's own
     * values: a system parameter that is also a session variable (statement_timeout)
     * gives the session its default (read live, so ALTER SYSTEM affects sessions that
     * have not SET it); one that is not (max_result_size) can be shown, not SET.
     */
    private final SystemParameters system;

    /** Whether the session's user is the superuser (the read-only {@code is_superuser}). */
    private final boolean superuser;

    public SessionVariables(Map<String, String> startupOptions) { this(startupOptions, null, false); }

    /**
     * {@code system}: the engine's system parameters (null: none); {@code superuser}:
     * whether the session's user is the superuser, shown by {@code is_superuser}.
     */
    public SessionVariables(Map<String, String> startupOptions, SystemParameters system, boolean superuser) {
        this.system = system;
        this.superuser = superuser;
        Map<String, String> given = new LinkedHashMap<>();
        for (var e : startupOptions.entrySet()) {
            if (e.getKey().equalsIgnoreCase("options")) given.putAll(commandLineOptions(e.getValue()));
            else given.put(e.getKey(), e.getValue());
        }
        for (var e : given.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (SPECS.containsKey(name) && !SPECS.get(name).readOnly()) values.put(name, e.getValue());
        }
    }

    /**
     * The settings in a startup packet's {@code options} value, as PostgreSQL reads them
     * (what libpq's PGOPTIONS sends): {@code -c name=value} or {@code --name=value},
     * separated by spaces, a backslash escaping the next character. Anything else is ignored.
     */
    static Map<String, String> commandLineOptions(String options) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < options.length(); i++) {
            char c = options.charAt(i);
            if (c == '\\' && i + 1 < options.length()) {
                word.append(options.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) words.add(word.toString());
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String setting = w.equals("-c") && i + 1 < words.size() ? words.get(++i)
                    : w.startsWith("--") ? w.substring(2) : w.startsWith("-c") ? w.substring(2) : null;
            if (setting == null) continue;
            int eq = setting.indexOf('=');
            if (eq > 0) settings.put(setting.substring(0, eq).replace('-', '_'), setting.substring(eq + 1));
        }
        return settings;
    }

    public String get(String name) {
        String n = canonical(name);
        Spec spec = SPECS.get(n);
        if (values.containsKey(n)) return values.get(n);
        if (n.equals("is_superuser")) return superuser ? "on" : "off";
        Optional<Param<?>> sys = systemParameter(n);
        if (sys.isPresent()) return system.snapshot().text(sys.get());
        if (spec == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
        }
        return spec.defaultValue();
    }

    /** The system parameter named {@code n}, when this session sees system parameters. */
    private Optional<Param<?>> systemParameter(String n) {
        return system == null ? Optional.empty() : Params.find(n);
    }

    /** Sets {@code name}; returns the ParameterStatus changes to report (empty if none). */
    public Map<String, String> set(String name, String value) {
        String n = canonical(name);
        Spec spec = SPECS.get(n);
        if (spec == null && systemParameter(n).isPresent()) {
            throw new SqlException(SqlState.CANT_CHANGE_RUNTIME_PARAM,
                    "parameter \"" + n + "\" cannot be changed in a session", null,
                    "It is a system parameter: ALTER SYSTEM SET " + n + " = ... as " + Roles.SUPERUSER + ".");
        }
        if (spec == null && !n.contains(".")) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
        }
        if (spec != null && spec.readOnly()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "parameter \"" + n + "\" cannot be changed");
        }
        String v;
        if (value == null && spec != null) {
            // Back to the default, which may come from the system parameter of this name.
            values.remove(n);
            v = get(n);
        } else {
            v = value == null ? "" : normalize(n, value, spec == null ? "" : get(n));
            values.put(n, v);
        }
        return spec != null && spec.reported() ? Map.of(REPORTED_NAMES.getOrDefault(n, n), v) : Map.of();
    }

    public Map<String, String> reset(String name) {
        if (name.equalsIgnoreCase("all")) {
            Map<String, String> changes = new TreeMap<>();
            for (String n : new ArrayList<>(values.keySet())) changes.putAll(set(n, null));
            values.clear();
            return changes;
        }
        return set(name, null);
    }

    /** Every parameter and its value, for SHOW ALL. */
    public Map<String, String> all() {
        Map<String, String> out = new TreeMap<>();
        if (system != null) for (Param<?> p : Params.ALL) out.put(p.name(), get(p.name()));
        for (String n : SPECS.keySet()) out.put(n, get(n));
        out.putAll(values);
        return out;
    }

    /** The values sent as ParameterStatus at startup. */
    public Map<String, String> reported() {
        Map<String, String> out = new LinkedHashMap<>();
        for (var e : SPECS.entrySet()) {
            if (e.getValue().reported()) out.put(REPORTED_NAMES.getOrDefault(e.getKey(), e.getKey()), get(e.getKey()));
        }
        return out;
    }

    private static String canonical(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return switch (n) {
            case "time zone", "time_zone" -> "timezone";
            case "transaction isolation level", "transaction_isolation_level" -> "transaction_isolation";
            default -> n;
        };
    }

    /** The value to store for a SET (canonical spelling), or PostgreSQL's 22023 error. */
    private static String normalize(String name, String value, String current) {
        if (name.equals("transaction_isolation") || name.equals("default_transaction_isolation")) {
            String v = value.toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", " ");
            return switch (v) {
                // As in Materialize: PostgreSQL's weaker levels are accepted and shown as
                // set, and behave as serializable (see peek.Isolation).
                case "strict serializable", "serializable", "repeatable read", "read committed", "read uncommitted" -> v;
                default -> throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"" + name + "\": \"" + value + "\"", null,
                        "Available values: strict serializable, serializable, repeatable read, read committed,"
                                + " read uncommitted.");
            };
        }
        if (name.equals("timezone")) {
            try {
                ZoneId.of(value.equalsIgnoreCase("utc") ? "UTC" : value);
            } catch (Exception e) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"TimeZone\": \"" + value + "\"");
            }
        }
        return SettingValues.validate(name, value, current);
    }
}
