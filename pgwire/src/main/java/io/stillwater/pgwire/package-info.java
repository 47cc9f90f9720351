/**
 * PostgreSQL v3 wire protocol server over the engine's
 * {@link io.stillwater.engine.session.Session} API.
 *
 * <p>Shape (after CrateDB's): one decoder ({@link io.stillwater.pgwire.protocol.PgDecoder})
 * turns bytes into a sealed {@link io.stillwater.pgwire.protocol.FrontendMessage}
 * hierarchy; one encoder ({@link io.stillwater.pgwire.protocol.BackendEncoder}) turns the
 * sealed {@link io.stillwater.pgwire.protocol.BackendMessage} hierarchy into bytes; values
 * cross the wire through {@link io.stillwater.pgwire.types.PgTypes} (text via the engine's
 * {@code DatumText}, binary via {@link io.stillwater.pgwire.types.PgBinaryCodec}). Nothing
 * here knows SQL: statements go to the session as strings.
 *
 * <p>Threads: Netty event loops decode, answer SSL/GSSENC/cancel requests and protocol
 * violations, and write bytes. Everything that touches a session runs on that
 * connection's own worker thread, in message order ({@code ConnectionWorker}), because
 * the engine is synchronous. A CancelRequest is handled on the event loop through the
 * server-wide {@link io.stillwater.pgwire.CancelRegistry}, so it never waits behind the
 * statement it cancels.
 */
package io.stillwater.pgwire;
