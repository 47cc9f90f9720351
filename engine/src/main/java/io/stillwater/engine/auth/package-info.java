/**
 * Authentication secrets: {@link io.stillwater.engine.auth.ScramVerifier}, a role's stored
 * SCRAM-SHA-256 verifier and the proof checks a server runs with it. The wire protocol's
 * SASL exchange lives in pgwire; the role catalog stores verifiers in their text form.
 *
 * <p>Dependencies: the JDK only.
 */
package io.stillwater.engine.auth;
