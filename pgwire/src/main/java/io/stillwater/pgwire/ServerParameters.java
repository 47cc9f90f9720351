package io.stillwater.pgwire;

import java.util.LinkedHashMap;
import java.util.Map;

/** The ParameterStatus values every connection is told at startup. */
final class ServerParameters {
    private ServerParameters() {}

    /** pgjdbc and libpq parse the leading number; the rest names us. */
    /** The one superuser name, as in Materialize. */
    static final String SUPERUSER = "mz_system";

    static final String SERVER_VERSION = "15.0 (Stillwater 0.1.0)";

    /**
     * Our defaults, then what the session reports (which wins), then the client's
     * application_name echoed back.
     */
    static Map<String, String> forStartup(String user, Map<String, String> sessionParameters,
                                          Map<String, String> clientParameters) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("server_version", SERVER_VERSION);
        p.put("server_encoding", "UTF8");
        p.put("client_encoding", "UTF8");
        p.put("DateStyle", "ISO, MDY");
        p.put("TimeZone", "UTC");
        p.put("integer_datetimes", "on");
        p.put("standard_conforming_strings", "on");
        p.put("IntervalStyle", "postgres");
        p.put("is_superuser", SUPERUSER.equals(user) ? "on" : "off");
        p.put("session_authorization", user);
        p.putAll(sessionParameters);
        p.put("application_name", clientParameters.getOrDefault("application_name",
                sessionParameters.getOrDefault("application_name", "")));
        return p;
    }
}
