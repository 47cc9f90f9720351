/**
 * The database: {@link io.stillwater.engine.Engine} opens the coordinator on a data
 * directory and hands out sessions. The top of the engine's package graph: it may depend
 * on every package below (through {@code session}, {@code coord}, {@code compute}, {@code
 * sql}, {@code params}, {@code config}), and no engine package depends on it.
 */
package io.stillwater.engine;
