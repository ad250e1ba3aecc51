package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Context;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A return whose address the trace leaves out while the decoder's return stack is empty: the trace unit does
 * that only when its own stack holds the address, so the decode has lost step with it. The result is a gap
 * (not an error that ends anything), the atoms until the next address are skipped, and decoding goes on
 * exactly from that address and again after the next A-sync.
 */
class Etm4ReturnStackUnderflowTest {

    /** Address with Context (64-bit, IS0), AArch64 EL0 non-secure. */
    private static void addressWithContext(ByteArrayOutputStream out, long a) {
        out.write(0x85);
        out.write((int) (a >>> 2) & 0x7F);
        out.write((int) (a >>> 9) & 0x7F);
        for (int i = 2; i < 8; i++) {
            out.write((int) (a >>> (8 * i)) & 0xFF);
        }
        out.write(0x30);
    }

    private static void sync(ByteArrayOutputStream out) {
        for (int i = 0; i < 11; i++) {
            out.write(0);
        }
        out.write(0x80);
        out.write(0x01); // Trace Info, no sections
        out.write(0x00);
    }

    @Test
    void anEmptyReturnStackIsAGapAndTheFlowResumesAtTheNextAddress() throws IOException {
        // linux-a64's __tunable_get_val: 0x426a40 cset ... 0x426a54 b.ne 0x426a68, 0x426a58 ret
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        sync(t);
        t.write(0x04); // Trace On
        addressWithContext(t, 0x426A58);
        t.write(0xF7); // E: the RET, target not traced (the return stack is to give it)
        t.write(0xF7); // E: the next P0 instruction, but the decoder's return stack is empty
        t.write(0xF7); // E: still nowhere to place it
        // Long Address 64-bit IS0: 0x426a40
        t.write(0x9D);
        t.write((0x426A40 >>> 2) & 0x7F);
        t.write((0x426A40 >>> 9) & 0x7F);
        t.write(0x42);
        for (int i = 3; i < 8; i++) {
            t.write(0);
        }
        t.write(0xF6); // N: b.ne at 0x426a54 not taken
        t.write(0xF7); // E: the RET at 0x426a58, again with an empty stack
        t.write(0xF7); // E: gap
        int secondSync = t.size();
        sync(t);
        addressWithContext(t, 0x426A40);
        t.write(0xF7); // E: b.ne taken to 0x426a68
        Registers regs = new Registers().put("TRCCONFIGR", 0x1 | Etm4Config.CONFIGR_RS).put("TRCTRACEIDR", 0x10);
        List<TraceElement> got = new ArrayList<>();
        new Etm4Protocol(false).decode(new DecodeInput(-1, regs, Corpus.image("linux-a64"), TraceData.of("t", t.toByteArray()),
                DecodeOptions.DEFAULT), got::add);

        List<String> flow = new ArrayList<>();
        for (TraceElement e : got) {
            if (e instanceof InstructionRange r) {
                flow.add(String.format("range 0x%x-0x%x %d %s", r.start(), r.end(), r.count(), r.lastExecuted() ? "E" : "N"));
            } else if (e instanceof Gap g) {
                flow.add("gap " + g.reason());
            } else if (e instanceof TraceOn) {
                flow.add("trace on");
            } else if (e instanceof Context) {
                flow.add("context");
            }
            assertThat(e).isNotInstanceOf(DecodeError.class);
        }
        assertThat(flow).containsExactly(
                "trace on", // the trace info
                "trace on", // the Trace On packet
                "context",
                "range 0x426a58-0x426a5c 1 E",
                "gap return stack empty: the target of the indirect branch before 0x426a5c is not known",
                "range 0x426a40-0x426a58 6 N",
                "range 0x426a58-0x426a5c 1 E",
                "gap return stack empty: the target of the indirect branch before 0x426a5c is not known",
                "context",
                "range 0x426a40-0x426a58 6 E");
        assertThat(got.stream().filter(e -> e instanceof Gap).map(e -> ((Gap) e).offset()))
                .as("the gaps are at the atoms that found the stack empty").allMatch(o -> o < secondSync);
    }
}
