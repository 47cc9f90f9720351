package io.stillwater.targets;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The one SPI for the {@code embedded} target: starts an in-process Stillwater engine with its
 * wire server. Implemented by the pgwire module (which depends on the engine, so slt and bench
 * never do) and found through {@link ServiceLoader}: pgwire lists its implementation in
 * {@code META-INF/services/io.stillwater.targets.EmbeddedServerFactory}.
 */
@FunctionalInterface
public interface EmbeddedServerFactory {

    /**
     * Starts a fresh, empty engine (data in a new temp directory) and a wire server on an ephemeral
     * loopback port.
     *
     * @param systemParameterDefaults the engine's system parameter defaults, in place before any
     *     replica is provisioned
     * @throws SQLException a parameter the engine does not know (42704) or a value it rejects
     *     (22023), with the engine's message: never ignored, because a run whose parameter silently
     *     did nothing measures the wrong configuration
     */
    EmbeddedServer start(Map<String, String> systemParameterDefaults) throws SQLException, IOException;

    /** The first implementation on the class path, if any (there is one when pgwire is). */
    static Optional<EmbeddedServerFactory> discover() {
        return ServiceLoader.load(EmbeddedServerFactory.class).findFirst();
    }
}
