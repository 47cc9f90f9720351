/**
 * How to open the engine ({@link io.stillwater.engine.config.EngineConfig}). Below the
 * coordinator, which opens from it, and the root package's {@code Engine}; depends on
 * nothing of the engine.
 */
package io.stillwater.engine.config;
