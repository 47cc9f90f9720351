/**
 * Sessions: {@link io.stillwater.engine.session.Session} is the API the wire layer speaks
 * (prepare, execute, cancel, transaction status); {@link
 * io.stillwater.engine.session.EngineSession} implements it for one client: planning,
 * transactions, reads (through {@code peek}), writes (through the coordinator's {@code
 * TableWriter}), DDL ({@link io.stillwater.engine.session.SchemaStatements}) and SHOW
 * ({@link io.stillwater.engine.session.ShowStatements}). A session is used by one thread
 * at a time; only {@code cancel} comes from others.
 *
 * <p>Allowed dependencies: {@code peek} and {@code coord} (the parts a session uses, never
 * their internals), {@code sql} (planning), and the layers below them. Never the root
 * package, which creates sessions.
 */
package io.stillwater.engine.session;
