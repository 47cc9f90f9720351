/**
 * System parameters: the typed registry ({@link io.stillwater.engine.params.Params}),
 * the live values of one engine ({@link io.stillwater.engine.params.SystemParameters}),
 * their durable form in the catalog log ({@link io.stillwater.engine.params.SystemParameterCodec}),
 * startup defaults ({@link io.stillwater.engine.params.StartupDefaults}), the superuser
 * rule for {@code ALTER SYSTEM} ({@link io.stillwater.engine.params.Roles}) and the
 * {@code max_result_size} check ({@link io.stillwater.engine.params.ResultSizeLimit}).
 *
 * <p>Precedence of a parameter's value, highest first: an {@code ALTER SYSTEM SET}
 * override (durable, in the catalog log), a startup default of this process
 * ({@code serve --system-parameter-default}, not persisted), the registry default.
 *
 * <p>Dependencies: types, data, error, and storage (the binary reader/writer of the
 * durable form). Read by compute, the read path and sessions; imports nothing of them.
 */
package io.stillwater.engine.params;
