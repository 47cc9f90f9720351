package io.stillwater.engine.params;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.WriteAheadLog;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replaying logged ALTER SYSTEM records, including ones this version cannot apply. */
class SystemParameterRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void replayAppliesOverridesInLogOrderAndSkipsWhatItCannotApply() {
        try (WriteAheadLog log = WriteAheadLog.open(dir, false)) {
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "max_connections", SystemParameterCodec.encode("5")));
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "a_removed_parameter", SystemParameterCodec.encode("1")));
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "max_result_size", SystemParameterCodec.encode("not a size")));
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "compute_index_peek_inline_budget", SystemParameterCodec.encode("1")));
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "compute_index_peek_inline_budget", SystemParameterCodec.encode("2")));
            log.append(new LogRecord.CatalogEntry(SystemParameterCodec.KIND, "statement_timeout", SystemParameterCodec.encode("5s")));
            log.append(new LogRecord.CatalogRemoval(SystemParameterCodec.KIND, "statement_timeout"));
        }
        try (Engine engine = Engine.open(new EngineConfig(dir, false, 1))) {
            ParameterSnapshot p = engine.systemParameters().snapshot();
            assertThat(p.get(Params.MAX_CONNECTIONS)).isEqualTo(5);
            assertThat(p.get(Params.COMPUTE_INDEX_PEEK_INLINE_BUDGET)).isEqualTo(2);
            assertThat(p.isOverridden(Params.MAX_RESULT_SIZE)).isFalse();
            assertThat(p.isOverridden(Params.STATEMENT_TIMEOUT)).isFalse();
            assertThat(p.overrides()).containsOnlyKeys("max_connections", "compute_index_peek_inline_budget");
        }
    }
}
