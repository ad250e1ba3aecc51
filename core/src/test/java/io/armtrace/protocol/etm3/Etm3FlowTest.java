package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class Etm3FlowTest {
    static final int[] ASYNC = Etm3PacketReaderTest.ASYNC;

    static ProgramImage image() {
        MemoryImage m = new MemoryImage();
        m.add(0x1000, le32(0xE1A00000, 0xFA000000, 0xE12FFF1E), "arm");
        m.add(0x100C, new byte[] {0x00, 0x46, 0x70, 0x47}, "thumb"); // MOV r0,r0; BX lr
        m.add(0x2000, le32(0xE1A00000, 0xE1A00000, 0xE1A00000, 0x01A00000), "straight");
        return ProgramImage.of(m);
    }

    static byte[] le32(int... words) {
        byte[] b = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            for (int k = 0; k < 4; k++) {
                b[4 * i + k] = (byte) (words[i] >>> (8 * k));
            }
        }
        return b;
    }

    static List<TraceElement> decode(int... bytes) {
        Etm3Config cfg = new Etm3Config(0, Etm3Config.DEFAULT_ETMIDR, 0, 0x10, false);
        ElementCollector c = new ElementCollector();
        Etm3Flow flow = new Etm3Flow(cfg, image(), c);
        Etm3PacketReader r = new Etm3PacketReader(cfg, flow);
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        r.push(b, 0, b.length);
        r.end();
        flow.end();
        return c.elements();
    }

    @Test
    void blxImmediateChangesIsaWithoutAPacketAndTheReturnPacketIsShort() {
        // IHI 0014Q Table 7.15: I-sync in ARM state, BLX #imm to Thumb (no packet), return to ARM with a
        // branch packet compressed against the I-sync's ARM address.
        List<TraceElement> e = decode(Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x20, 0x00, 0x10, 0x00, 0x00,
                0x90, 0x05, 0x84}));
        assertThat(e.get(0)).isInstanceOf(TraceOn.class);
        assertThat(((TraceOn) e.get(0)).reason()).isEqualTo(TraceOn.Reason.TRACE_ENABLED);
        assertThat(e.get(1)).isInstanceOf(Context.class);
        assertThat(e.subList(2, e.size())).containsExactly(
                new InstructionRange(0x10, 0x1000, 0x1008, 2, Isa.A32, WaypointKind.DIRECT_BRANCH, CallKind.CALL,
                        true, InstructionSizes.uniform(4)), // BLX imm
                new InstructionRange(0x10, 0x100C, 0x1010, 2, Isa.T32, WaypointKind.INDIRECT_BRANCH,
                        CallKind.RETURN, true, InstructionSizes.uniform(2)), // BX lr
                new InstructionRange(0x10, 0x1008, 0x100C, 1, Isa.A32, WaypointKind.INDIRECT_BRANCH,
                        CallKind.RETURN, true, InstructionSizes.uniform(4))); // BX lr
    }

    @Test
    void conditionFailedInstructionEndsItsRange() {
        // MOV MOV MOV MOVEQ(fails) then E at 0x2010 is outside the image
        List<TraceElement> e = decode(Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x00, 0x00, 0x20, 0x00, 0x00,
                0xCC, 0x84}));
        assertThat(e).contains(
                new InstructionRange(0x10, 0x2000, 0x2010, 4, Isa.A32, 0x200C, WaypointKind.NONE, false),
                new NoImage(0x10, 0x2010, Isa.A32));
    }

    @Test
    void cancellingExceptionWithdrawsTheLastInstruction() {
        // EEE at 0x2000, then a branch to the IRQ vector 0x18 that cancels the last instruction (Can = 1)
        List<TraceElement> e = decode(Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x00, 0x00, 0x20, 0x00, 0x00,
                0x8C, 0x8D, 0x80, 0x80, 0x80, 0x48, 0x3C, 0x84}));
        assertThat(e).containsSubsequence(
                new InstructionRange(0x10, 0x2000, 0x2008, 2, Isa.A32, 0x2004, WaypointKind.NONE, true),
                new ExceptionEntry(0x10, 6, "IRQ", 0x2008, true),
                new NoImage(0x10, 0x18, Isa.A32));
    }

    @Test
    void corruptPacketGivesAGapAndDecodingResumesAtTheNextSync() {
        List<TraceElement> e = decode(Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x00, 0x00, 0x20, 0x00, 0x00,
                0x84, 0x1C, 0x84, 0x84}, ASYNC, new int[] {0x08, 0x00, 0x04, 0x20, 0x00, 0x00, 0x84}));
        List<Gap> gaps = e.stream().filter(x -> x instanceof Gap).map(x -> (Gap) x).toList();
        assertThat(gaps).hasSize(1);
        assertThat(gaps.get(0).offset()).isEqualTo(13);
        assertThat(e.stream().filter(x -> x instanceof InstructionRange).toList()).containsExactly(
                new InstructionRange(0x10, 0x2000, 0x2004, 1, Isa.A32, 0x2000, WaypointKind.NONE, true),
                new InstructionRange(0x10, 0x2004, 0x2008, 1, Isa.A32, 0x2004, WaypointKind.NONE, true));
    }

    static List<TraceElement> decode(Etm3Config cfg, int... bytes) {
        ElementCollector c = new ElementCollector();
        Etm3Flow flow = new Etm3Flow(cfg, image(), c);
        Etm3PacketReader r = new Etm3PacketReader(cfg, flow);
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        r.push(b, 0, b.length);
        r.end();
        flow.end();
        return c.elements();
    }

    @Test
    void armv7mExceptionNumbersAndTheExceptionExitPacket() {
        Etm3Config m = new Etm3Config(0, Etm3Config.DEFAULT_ETMIDR, 0, 0x10, true);
        // I-sync at 0x100C (Thumb); E (MOV); a branch with Excp 0x00F (SysTick);
        // then exception exit and a branch back to 0x100E
        List<TraceElement> e = decode(m, Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x20, 0x0D, 0x10, 0x00, 0x00,
                0x84, 0x99, 0xA0, 0x80, 0x80, 0x50, 0x1E, 0x76, 0x0F}));
        assertThat(e).contains(new ExceptionEntry(0x10, 15, "SysTick", 0x100E, false),
                new io.armtrace.trace.ExceptionReturn(0x10, 0x100E));
        // the same bytes from an A/R core: Excp b1111 is FIQ (vector 7)
        Etm3Config ar = new Etm3Config(0, Etm3Config.DEFAULT_ETMIDR, 0, 0x10, false);
        assertThat(decode(ar, Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x20, 0x0D, 0x10, 0x00, 0x00,
                0x84, 0x99, 0xA0, 0x80, 0x80, 0x50, 0x1E}))).contains(new ExceptionEntry(0x10, 7, "FIQ", 0x100E, false));
    }

    @Test
    void securityStateContextIdAndVmidBecomeContextElements() {
        Etm3Config c = new Etm3Config(1L << Etm3Config.CR_CONTEXT_ID_SHIFT | Etm3Config.CR_VMID,
                Etm3Config.DEFAULT_ETMIDR, Etm3Config.CCER_VIRTUALIZATION, 0x10, false);
        // I-sync with context ID 0x42, Non-secure; VMID 7; a 5-byte branch with exception byte 0: NS = 0
        List<TraceElement> e = decode(c, Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x42, 0x28, 0x00, 0x20, 0x00,
                0x00, 0x3C, 0x07, 0x81, 0x80, 0x81, 0x80, 0x48, 0x00}));
        assertThat(e.stream().filter(x -> x instanceof Context).toList()).containsExactly(
                new Context(0x10, 0x42, -1, true, false),
                new Context(0x10, 0x42, 7, true, false),
                new Context(0x10, 0x42, 7, false, false));
    }

    @Test
    void haltingDebugExceptionInvalidatesTheAddressUntilTheNextISync() {
        // branch with Excp b0001 (halting debug): its address is not valid (Table 7.12 note)
        List<TraceElement> e = decode(Etm3PacketReaderTest.cat(ASYNC, new int[] {0x08, 0x00, 0x00, 0x20, 0x00, 0x00,
                0x84, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x84, 0x08, 0x60, 0x04, 0x20, 0x00, 0x00, 0x84}));
        assertThat(e).contains(new ExceptionEntry(0x10, -1, "Halting debug", 0x2004, false));
        assertThat(e.stream().filter(x -> x instanceof TraceOn).map(x -> ((TraceOn) x).reason()).toList())
                .containsExactly(TraceOn.Reason.SYNC, TraceOn.Reason.DEBUG_EXIT);
        assertThat(e.stream().filter(x -> x instanceof InstructionRange).toList()).containsExactly(
                new InstructionRange(0x10, 0x2000, 0x2004, 1, Isa.A32, 0x2000, WaypointKind.NONE, true),
                new InstructionRange(0x10, 0x2004, 0x2008, 1, Isa.A32, 0x2004, WaypointKind.NONE, true));
    }
}
