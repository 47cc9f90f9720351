package io.stillwater.pgwire.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackendEncoderTest {
    private static String hex(BackendMessage m) {
        ByteBuf buf = Unpooled.buffer();
        BackendEncoder.encode(m, buf);
        String s = ByteBufUtil.hexDump(buf);
        buf.release();
        return s;
    }

    @Test
    void knownLayouts() {
        assertThat(hex(new BackendMessage.AuthenticationOk())).isEqualTo("52" + "00000008" + "00000000");
        assertThat(hex(new BackendMessage.ReadyForQuery('I'))).isEqualTo("5a" + "00000005" + "49");
        assertThat(hex(new BackendMessage.CommandComplete("SELECT 1"))).isEqualTo("43" + "0000000d" + "53454c4543542031" + "00");
        assertThat(hex(new BackendMessage.ParseComplete())).isEqualTo("31" + "00000004");
        assertThat(hex(new BackendMessage.PortalSuspended())).isEqualTo("73" + "00000004");
        assertThat(hex(BackendMessage.EncryptionResponse.REFUSED)).isEqualTo("4e");
        assertThat(hex(new BackendMessage.BackendKeyData(1, 2))).isEqualTo("4b" + "0000000c" + "00000001" + "00000002");
        assertThat(hex(new BackendMessage.ParameterDescription(List.of(23, 25))))
                .isEqualTo("74" + "0000000e" + "0002" + "00000017" + "00000019");
        assertThat(hex(new BackendMessage.DataRow(Arrays.asList(new byte[] {0x31}, null))))
                .isEqualTo("44" + "0000000f" + "0002" + "00000001" + "31" + "ffffffff");
        assertThat(hex(new BackendMessage.RowDescription(List.of(new BackendMessage.Field(
                "a", 0, (short) 0, 23, (short) 4, -1, FormatCode.BINARY)))))
                .isEqualTo("54" + "0000001a" + "0001" + "6100" + "00000000" + "0000" + "00000017" + "0004" + "ffffffff" + "0001");
    }

    @Test
    void errorResponseCarriesSeverityCodeMessageDetailAndHint() {
        String h = hex(new BackendMessage.ErrorResponse(new BackendMessage.Diagnostic(
                BackendMessage.Severity.ERROR, "22012", "division by zero", "d", "h")));
        String body = "53" + "4552524f5200" + "56" + "4552524f5200" + "43" + "323230313200"
                + "4d" + "6469766973696f6e206279207a65726f00" + "44" + "6400" + "48" + "6800" + "00";
        assertThat(h).isEqualTo("45" + String.format("%08x", 4 + body.length() / 2) + body);
    }
}
