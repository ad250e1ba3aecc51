package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.PieceFormat;
import io.armtrace.view.ListingPieces;
import io.armtrace.view.TextWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Arbitrary bytes as ETMv3 or PFT trace, split at its A-syncs into small pieces that format their own text
 * listing: nothing escapes, and the joined bytes are those of the sequential decode. {@code mvn test} replays
 * the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class ChunkedDecodeFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void piecesJoinToTheSequentialListing(byte[] data) throws IOException {
        if (data.length < 2) {
            return;
        }
        int a = data[0] & 0xFF;
        boolean etm3 = (a & 1) == 0;
        TraceProtocol p = Protocols.byName(etm3 ? "etm3" : "ptm").orElseThrow();
        Registers regs = new Registers();
        if (etm3) {
            regs.put("ETMCR", (a & 4) != 0 ? 0x1000 : 0x1000 | 1 << 12).put("ETMIDR", 0x4114F250L);
        } else {
            regs.put("ETMCR", (a & 4) != 0 ? 0x1000 : 0x1000 | 1 << 29);
        }
        byte[] trace = Arrays.copyOfRange(data, 2, data.length);
        DecodeInput in = new DecodeInput(0x10, regs, SegmentedDecodeFuzzTest.image(), TraceData.of("fuzz", trace),
                DecodeOptions.DEFAULT);
        PieceFormat format = new ListingPieces(w -> new TextWriter(w, in.image(), (a & 2) != 0, false),
                StandardCharsets.UTF_8);
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        PieceFormat.Formatter f = format.open(one);
        p.decode(in, f);
        f.end();
        ByteArrayOutputStream pieces = new ByteArrayOutputStream();
        ChunkedDecode.decode(p, in, format, pieces, 2, 8 + (data[1] & 0x3F), 256, null);
        assertThat(pieces.toString(StandardCharsets.UTF_8)).isEqualTo(one.toString(StandardCharsets.UTF_8));
    }
}
