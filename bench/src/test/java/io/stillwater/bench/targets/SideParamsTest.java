package io.stillwater.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SideParamsTest {

    @Test
    void parsesInOrderAndRendersBack() {
        SideParams p = SideParams.parse(" enable_compute_interactive_runtime = false ; compute_index_peek_inline_budget=1024;");
        assertThat(p.values()).containsEntry("enable_compute_interactive_runtime", "false")
                .containsEntry("compute_index_peek_inline_budget", "1024").hasSize(2);
        assertThat(List.copyOf(p.values().keySet()))
                .containsExactly("enable_compute_interactive_runtime", "compute_index_peek_inline_budget");
        assertThat(p.render()).isEqualTo("enable_compute_interactive_runtime=false;compute_index_peek_inline_budget=1024");
        assertThat(SideParams.parse(p.render())).isEqualTo(p);
    }

    @Test
    void quotedValuesMeanWhatTheEngineReads() {
        assertThat(SideParams.parse("statement_timeout='10s';max_result_size=\"1 GB\"").values())
                .containsEntry("statement_timeout", "10s").containsEntry("max_result_size", "1 GB");
        assertThatThrownBy(() -> SideParams.parse("a=''")).hasMessageContaining("empty value");
    }

    @Test
    void emptyMeansDefaults() {
        assertThat(SideParams.parse("")).isEqualTo(SideParams.NONE);
        assertThat(SideParams.parse(null).isEmpty()).isTrue();
    }

    @Test
    void malformedEntriesAreRejectedByName() {
        assertThatThrownBy(() -> SideParams.parse("a=1;b")).hasMessageContaining("\"b\" has no value");
        assertThatThrownBy(() -> SideParams.parse("a=1;a=2")).hasMessageContaining("a is given twice");
        assertThatThrownBy(() -> SideParams.parse("a b=1")).hasMessageContaining("not a parameter name");
        assertThatThrownBy(() -> SideParams.parse("a=")).hasMessageContaining("empty value");
    }
}
