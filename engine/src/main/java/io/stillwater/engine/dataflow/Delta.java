package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * What a dataflow emits at one time step: the changes of its output collection
 * ({@code ok}) and of its error collection ({@code errors}, single-column rows holding an
 * {@link io.stillwater.engine.error.EvalError}). Errors are data: they accumulate and
 * retract exactly like rows, so a read fails exactly while some error is present.
 */
public record Delta(Changes ok, Changes errors) {}
