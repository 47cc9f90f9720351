package io.stillwater.engine.params;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/system-parameters.md lists every registered parameter with its registry default, scope and description. */
class SystemParametersDocTest {
    @Test
    void everyParameterIsDocumentedAsRegistered() throws IOException {
        Path doc = Path.of("..", "docs", "system-parameters.md");
        String text = Files.readString(doc);
        for (Param<?> p : Params.ALL) {
            String row = text.lines().filter(l -> l.startsWith("| `" + p.name() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError(p.name() + " is not in " + doc));
            assertThat(row).as(p.name())
                    .contains("| `" + p.defaultText() + "` |")
                    .contains("| " + p.scope().word() + " |")
                    .contains(p.description())
                    .contains(p.type().typeName());
        }
    }
}
