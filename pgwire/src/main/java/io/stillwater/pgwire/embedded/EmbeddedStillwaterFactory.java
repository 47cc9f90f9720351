package io.stillwater.pgwire.embedded;

import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.EmbeddedServerFactory;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;

/**
 * The one implementation of the {@code embedded} target's SPI, registered in this module's
 * {@code META-INF/services/io.stillwater.targets.EmbeddedServerFactory}: an
 * {@link EmbeddedStillwater} with one worker per replica and fsync on, as {@code serve} runs.
 */
public final class EmbeddedStillwaterFactory implements EmbeddedServerFactory {
    @Override
    public EmbeddedServer start(Map<String, String> systemParameterDefaults) throws SQLException, IOException {
        return EmbeddedStillwater.start(1, true, systemParameterDefaults);
    }
}
