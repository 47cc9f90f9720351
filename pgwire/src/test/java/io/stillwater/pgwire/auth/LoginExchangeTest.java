package io.stillwater.pgwire.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.protocol.BackendMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One connection's login under each method, driven message by message as a client would. */
class LoginExchangeTest {
    private final TestRoles roles = new TestRoles();
    private final Authentication scram = Authentication.of(AuthMethod.SCRAM_SHA_256, roles);

    /** Runs SCRAM for {@code user} with {@code password}; returns the final step or throws the failure. */
    private AuthStep scramLogin(Authentication auth, String user, String password) throws Exception {
        LoginExchange x = new LoginExchange(auth, user, false);
        AuthStep first = x.start();
        assertThat(first).isEqualTo(new AuthStep.Challenge(new BackendMessage.AuthenticationSasl(List.of("SCRAM-SHA-256"))));
        ScramClient client = new ScramClient("fyko+d2lbbFgONRv9qkxdawL");
        AuthStep cont = x.respond(client.saslInitialResponse("SCRAM-SHA-256"));
        String serverFirst = serverFirst(cont);
        assertThat(serverFirst).startsWith("r=" + client.clientNonce);
        return x.respond(client.clientFinal(serverFirst, password).getBytes(StandardCharsets.UTF_8));
    }

    private static String serverFirst(AuthStep step) {
        assertThat(step).isInstanceOf(AuthStep.Challenge.class);
        BackendMessage m = ((AuthStep.Challenge) step).message();
        assertThat(m).isInstanceOf(BackendMessage.AuthenticationSaslContinue.class);
        return new String(((BackendMessage.AuthenticationSaslContinue) m).data(), StandardCharsets.UTF_8);
    }

    @Test
    void theRightPasswordAuthenticatesAndTheServerProvesItself() throws Exception {
        LoginExchange x = new LoginExchange(scram, "alice", false);
        x.start();
        ScramClient client = new ScramClient("abcdefghijklmnop");
        String serverFirst = serverFirst(x.respond(client.saslInitialResponse("SCRAM-SHA-256")));
        AuthStep done = x.respond(client.clientFinal(serverFirst, "secret").getBytes(StandardCharsets.UTF_8));
        assertThat(done).isInstanceOfSatisfying(AuthStep.Authenticated.class, a -> {
            assertThat(a.role().name()).isEqualTo("alice");
            assertThat(a.last()).get().isInstanceOfSatisfying(BackendMessage.AuthenticationSaslFinal.class,
                    f -> assertThat(new String(f.data(), StandardCharsets.UTF_8)).isEqualTo(client.expectedServerFinal()));
        });
        assertThat(x.awaitingResponse()).isFalse();
    }

    @Test
    void wrongPasswordUnknownRoleAndNoPasswordAllEndTheSameWay() {
        for (String user : new String[] {"alice", "nobody", "nopass"}) {
            assertThatThrownBy(() -> scramLogin(scram, user, "wrong")).as(user)
                    .isInstanceOfSatisfying(AuthFailure.class, f -> {
                        assertThat(f.state().code()).isEqualTo("28P01");
                        assertThat(f.getMessage()).isEqualTo("password authentication failed for user \"" + user + "\"");
                        assertThat(f.detail()).isNull();
                    });
        }
    }

    @Test
    void anUnknownRolesSaltIsStablePerNameLikeARealOne() throws Exception {
        String a1 = ScramClient.attr(firstChallenge("nobody"), "s");
        String a2 = ScramClient.attr(firstChallenge("nobody"), "s");
        String b = ScramClient.attr(firstChallenge("someone"), "s");
        assertThat(a1).isEqualTo(a2).isNotEqualTo(b);
        assertThat(ScramClient.attr(firstChallenge("nobody"), "i")).isEqualTo("4096");
        assertThat(ScramClient.attr(firstChallenge("alice"), "s"))
                .isEqualTo(ScramClient.attr(firstChallenge("alice"), "s"));
        // Another server secret, another mock salt: it is not computable from the name alone.
        Authentication other = scram.withMockSecret(Authentication.newSecret());
        LoginExchange x = new LoginExchange(other, "nobody", false);
        x.start();
        assertThat(ScramClient.attr(serverFirst(x.respond(new ScramClient("n1").saslInitialResponse("SCRAM-SHA-256"))), "s"))
                .isNotEqualTo(a1);
    }

    private String firstChallenge(String user) {
        LoginExchange x = new LoginExchange(scram, user, false);
        x.start();
        return serverFirst(x.respond(new ScramClient("nonce1").saslInitialResponse("SCRAM-SHA-256")));
    }

    @Test
    void aRoleWithoutLoginStillAuthenticatesTheCallerChecksLogin() throws Exception {
        AuthStep done = scramLogin(scram, "nologin", "secret");
        assertThat(done).isInstanceOfSatisfying(AuthStep.Authenticated.class, a -> assertThat(a.role().canLogin()).isFalse());
    }

    @Test
    void malformedSaslInitialResponsesAre08P01() {
        byte[][] bad = {
                new byte[0],
                "SCRAM-SHA-256".getBytes(StandardCharsets.US_ASCII), // no terminator
                new byte[] {'S', 0, 0, 0}, // short length
                new ScramClient("n").saslInitialResponse("SCRAM-SHA-256-PLUS"),
                new ScramClient("n").saslInitialResponse("PLAIN"),
        };
        for (byte[] payload : bad) {
            LoginExchange x = new LoginExchange(scram, "alice", false);
            x.start();
            assertThatThrownBy(() -> x.respond(payload)).isInstanceOfSatisfying(AuthFailure.class,
                    f -> assertThat(f.state().code()).isEqualTo("08P01"));
        }
        byte[] lengthPastEnd = new ScramClient("n").saslInitialResponse("SCRAM-SHA-256");
        lengthPastEnd[14 + 3] += 5; // the int32 length, low byte
        LoginExchange x = new LoginExchange(scram, "alice", false);
        x.start();
        assertThatThrownBy(() -> x.respond(lengthPastEnd)).isInstanceOfSatisfying(AuthFailure.class,
                f -> assertThat(f.getMessage()).isEqualTo("invalid SASLInitialResponse message"));
    }

    @Test
    void aPasswordMessageAfterTheExchangeEndedIsAProtocolViolation() throws Exception {
        LoginExchange x = new LoginExchange(scram, "alice", false);
        x.start();
        assertThatThrownBy(() -> x.respond(new byte[0])).isInstanceOf(AuthFailure.class);
        assertThatThrownBy(() -> x.respond(new byte[0])).isInstanceOfSatisfying(AuthFailure.class,
                f -> assertThat(f.state().code()).isEqualTo("08P01"));
    }

    @Test
    void trustEnsuresTheRoleWithoutAnExchange() {
        Authentication trust = Authentication.of(AuthMethod.TRUST, roles);
        AuthStep step = new LoginExchange(trust, "newcomer", false).start();
        assertThat(step).isInstanceOfSatisfying(AuthStep.Authenticated.class, a -> {
            assertThat(a.role().name()).isEqualTo("newcomer");
            assertThat(a.last()).isEmpty();
        });
        assertThat(roles.find("newcomer")).isPresent();
    }

    @Test
    void clearTextPasswordIsRefusedWithoutTlsAndCheckedWithIt() {
        Authentication password = Authentication.of(AuthMethod.PASSWORD, roles);
        assertThatThrownBy(() -> new LoginExchange(password, "alice", false).start())
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("28000"));

        LoginExchange ok = new LoginExchange(password, "alice", true);
        assertThat(ok.start()).isEqualTo(new AuthStep.Challenge(new BackendMessage.AuthenticationCleartextPassword()));
        assertThat(ok.respond(cstring("secret"))).isInstanceOf(AuthStep.Authenticated.class);

        for (String[] attempt : new String[][] {{"alice", "wrong"}, {"alice", ""}, {"nobody", "secret"}, {"nopass", ""}}) {
            LoginExchange x = new LoginExchange(password, attempt[0], true);
            x.start();
            assertThatThrownBy(() -> x.respond(cstring(attempt[1]))).isInstanceOfSatisfying(AuthFailure.class, f -> {
                assertThat(f.state().code()).isEqualTo("28P01");
                assertThat(f.getMessage()).isEqualTo("password authentication failed for user \"" + attempt[0] + "\"");
            });
        }
        LoginExchange garbage = new LoginExchange(password, "alice", true);
        garbage.start();
        assertThatThrownBy(() -> garbage.respond("secret".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("08P01"));
    }

    private static byte[] cstring(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, b.length);
        return out;
    }
}
