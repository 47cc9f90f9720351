package io.stillwater.pgwire.auth;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.pgwire.protocol.BackendMessage;
import java.util.Optional;

/** What a {@link LoginExchange} asks the connection to do next. */
public sealed interface AuthStep {
    /** Send {@code message} (an authentication request) and wait for the client's next password message. */
    record Challenge(BackendMessage message) implements AuthStep {}

    /**
     * The client proved it is {@code role}: send {@code last} if present (SCRAM's
     * AuthenticationSASLFinal), then AuthenticationOk. Whether the role may log in is the
     * caller's check, after AuthenticationOk, as in PostgreSQL.
     */
    record Authenticated(LoginRole role, Optional<BackendMessage> last) implements AuthStep {}
}
