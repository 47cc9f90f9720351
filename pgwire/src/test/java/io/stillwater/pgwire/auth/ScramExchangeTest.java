package io.stillwater.pgwire.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.auth.ScramVerifier;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The server side of SCRAM-SHA-256 message by message, against RFC 7677's vector and malformed input. */
class ScramExchangeTest {
    // RFC 7677, section 3: user "user", password "pencil".
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final ScramVerifier PENCIL = ScramVerifier.derive("pencil", SALT, 4096);
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String NONCE = "rOprNGfwEbeRWgbNEkqO" + SERVER_NONCE;
    private static final String CLIENT_FINAL = "c=biws,r=" + NONCE + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

    private static ScramExchange exchange(boolean doomed) {
        return new ScramExchange("user", PENCIL, doomed, SERVER_NONCE);
    }

    @Test
    void rfc7677VectorRunsToTheServerSignature() {
        ScramExchange x = exchange(false);
        assertThat(x.serverFirst(CLIENT_FIRST)).isEqualTo("r=" + NONCE + ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
        assertThat(x.serverFinal(CLIENT_FINAL)).isEqualTo("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    }

    @Test
    void aDoomedExchangeFailsAtTheProofLikeAWrongPassword() {
        ScramExchange x = exchange(true);
        x.serverFirst(CLIENT_FIRST);
        assertThatThrownBy(() -> x.serverFinal(CLIENT_FINAL)).isInstanceOfSatisfying(AuthFailure.class, f -> {
            assertThat(f.state().code()).isEqualTo("28P01");
            assertThat(f.getMessage()).isEqualTo("password authentication failed for user \"user\"");
            assertThat(f.detail()).isNull();
        });
    }

    @Test
    void aWrongProofIs28P01() {
        ScramExchange x = exchange(false);
        x.serverFirst(CLIENT_FIRST);
        String tampered = CLIENT_FINAL.replace("p=dHzb", "p=dHzc");
        assertThatThrownBy(() -> x.serverFinal(tampered)).isInstanceOfSatisfying(AuthFailure.class,
                f -> assertThat(f.state().code()).isEqualTo("28P01"));
    }

    @Test
    void aNonceThatDoesNotExtendTheClientsIsRefused() {
        ScramExchange x = exchange(false);
        x.serverFirst(CLIENT_FIRST);
        String other = CLIENT_FINAL.replace("r=" + NONCE, "r=rOprNGfwEbeRWgbNEkqOxyz");
        assertThatThrownBy(() -> x.serverFinal(other)).isInstanceOfSatisfying(AuthFailure.class, f -> {
            assertThat(f.state().code()).isEqualTo("08P01");
            assertThat(f.getMessage()).isEqualTo("invalid SCRAM response");
            assertThat(f.detail()).isEqualTo("Nonce does not match.");
        });
    }

    @Test
    void channelBindingDataMustMatchTheGs2Header() {
        ScramExchange x = exchange(false);
        x.serverFirst(CLIENT_FIRST);
        String yHeader = CLIENT_FINAL.replace("c=biws", "c=eSws"); // "y,," while the client sent "n,,"
        assertThatThrownBy(() -> x.serverFinal(yHeader)).isInstanceOfSatisfying(AuthFailure.class, f -> {
            assertThat(f.state().code()).isEqualTo("08P01");
            assertThat(f.getMessage()).isEqualTo("unexpected SCRAM channel-binding attribute in client-final-message");
        });
    }

    @Test
    void yHeaderIsAcceptedAndCheckedAsSent() {
        ScramExchange x = exchange(false);
        x.serverFirst("y,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        // The proof covers c=eSws, so the RFC's proof no longer matches: the exchange reaches the proof check.
        assertThatThrownBy(() -> x.serverFinal(CLIENT_FINAL.replace("c=biws", "c=eSws")))
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("28P01"));
    }

    @Test
    void channelBindingRequestsAndAuthzidAreRefused() {
        assertMalformed("p=tls-server-end-point,,n=user,r=abc",
                "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.");
        assertMalformed("x,,n=user,r=abc", "Unexpected channel-binding flag \"'x'\"."); // PostgreSQL 15's exact detail
        assertThatThrownBy(() -> exchange(false).serverFirst("n,a=admin,n=user,r=abc"))
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("0A000"));
        assertThatThrownBy(() -> exchange(false).serverFirst("n,,m=ext,n=user,r=abc"))
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("0A000"));
    }

    @Test
    void malformedMessagesAre08P01NotCrashes() {
        for (String bad : new String[] {"", "n", "n,", "n,,", "n,,n=user", "n,,n=user,", "n,,n=user,r=",
                "n,,r=abc", "n,,n=user,x=abc", "n,,n=user,r=a b"}) {
            assertThatThrownBy(() -> exchange(false).serverFirst(bad)).as(bad)
                    .isInstanceOfSatisfying(AuthFailure.class, f -> {
                        assertThat(f.state().code()).isEqualTo("08P01");
                        assertThat(f.getMessage()).isEqualTo("malformed SCRAM message");
                    });
        }
        for (String bad : new String[] {"", "c=biws", "c=biws,r=" + NONCE, "c=biws,r=" + NONCE + ",",
                "c=biws,r=" + NONCE + ",p=!!!", "c=biws,r=" + NONCE + ",p=AAAA",
                CLIENT_FINAL + ",x=trailing", "r=" + NONCE + ",c=biws,p=x"}) {
            ScramExchange x = exchange(false);
            x.serverFirst(CLIENT_FIRST);
            assertThatThrownBy(() -> x.serverFinal(bad)).as(bad)
                    .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("08P01"));
        }
    }

    @Test
    void extensionsBeforeTheProofAreSkippedButCovered() {
        ScramExchange x = exchange(false);
        x.serverFirst(CLIENT_FIRST);
        // The extension is part of client-final-message-without-proof, so the RFC proof does not cover it.
        assertThatThrownBy(() -> x.serverFinal(CLIENT_FINAL.replace(",p=", ",e=ext,p=")))
                .isInstanceOfSatisfying(AuthFailure.class, f -> assertThat(f.state().code()).isEqualTo("28P01"));
    }

    @Test
    void messagesOutOfOrderAreRefused() {
        ScramExchange x = exchange(false);
        assertThatThrownBy(() -> x.serverFinal(CLIENT_FINAL)).isInstanceOf(IllegalStateException.class);
        ScramExchange y = exchange(false);
        y.serverFirst(CLIENT_FIRST);
        assertThatThrownBy(() -> y.serverFirst(CLIENT_FIRST)).isInstanceOf(IllegalStateException.class);
    }

    private static void assertMalformed(String clientFirst, String detail) {
        assertThatThrownBy(() -> exchange(false).serverFirst(clientFirst)).isInstanceOfSatisfying(AuthFailure.class, f -> {
            assertThat(f.state().code()).isEqualTo("08P01");
            assertThat(f.getMessage()).isEqualTo("malformed SCRAM message");
            assertThat(f.detail()).isEqualTo(detail);
        });
    }
}
