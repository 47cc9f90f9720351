package io.stillwater.engine.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ScramVerifierTest {
    // RFC 7677, section 3: user "user", password "pencil".
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final String AUTH_MESSAGE = "n=user,r=rOprNGfwEbeRWgbNEkqO"
            + ",r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
            + ",c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final byte[] PROOF = Base64.getDecoder().decode("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");

    @Test
    void rfc7677TestVectorProofAndServerSignature() {
        ScramVerifier v = ScramVerifier.derive("pencil", SALT, 4096);
        byte[] auth = AUTH_MESSAGE.getBytes(StandardCharsets.UTF_8);
        assertThat(v.verifyClientProof(auth, PROOF)).isTrue();
        assertThat(Base64.getEncoder().encodeToString(v.serverSignature(auth)))
                .isEqualTo("6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    }

    @Test
    void wrongPasswordOrTamperedProofIsRefused() {
        byte[] auth = AUTH_MESSAGE.getBytes(StandardCharsets.UTF_8);
        assertThat(ScramVerifier.derive("pencil2", SALT, 4096).verifyClientProof(auth, PROOF)).isFalse();
        byte[] tampered = PROOF.clone();
        tampered[0] ^= 1;
        assertThat(ScramVerifier.derive("pencil", SALT, 4096).verifyClientProof(auth, tampered)).isFalse();
        assertThat(ScramVerifier.derive("pencil", SALT, 4096).verifyClientProof(auth, new byte[3])).isFalse();
    }

    @Test
    void textFormRoundTripsAndMatchesPostgresLayout() {
        ScramVerifier v = ScramVerifier.derive("secret");
        assertThat(v.text()).matches("SCRAM-SHA-256\\$4096:[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}");
        assertThat(ScramVerifier.parse(v.text())).contains(v);
        assertThat(v.toString()).doesNotContain(v.text().substring(20));
        assertThat(ScramVerifier.parse("md5abc")).isEmpty();
        assertThat(ScramVerifier.parse("secret")).isEmpty();
        assertThat(ScramVerifier.derive("secret")).isNotEqualTo(v); // fresh salt each time
    }

    @Test
    void derivesExactlyTheVerifierPostgresWrote() {
        // PostgreSQL 15: CREATE ROLE u PASSWORD 'pencil'; SELECT rolpassword FROM pg_authid WHERE rolname='u';
        String fromPostgres = "SCRAM-SHA-256$4096:mNTAoE81jHCWLopGFppU5Q==$DQqSMZFPBTsgNDM4i/YHOIOFe7E1h3VJ5GApQfYigGo="
                + ":TakXcQJWbpTu18hOE6JrkxRI4rNV/27V8t/Lfh3nZ6M=";
        ScramVerifier stored = ScramVerifier.parse(fromPostgres).orElseThrow();
        assertThat(ScramVerifier.derive("pencil", stored.salt(), stored.iterations())).isEqualTo(stored);
        assertThat(stored.text()).isEqualTo(fromPostgres);
    }
}
