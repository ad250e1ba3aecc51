package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The flow rules of the MTB execution trace storage format on a small hand-assembled Cortex-M0+
 * program (encodings as arm-none-eabi-as gives them):
 *
 * <pre>
 * 0x100  2000       movs r0, #0
 * 0x102  3001  loop: adds r0, #1
 * 0x104  2803       cmp  r0, #3
 * 0x106  d1fc       bne  loop
 * 0x108  df00       svc  0
 * 0x10a  f000 f809  bl   func          (0x120)
 * 0x10e  e7fe  halt: b    halt
 * 0x120  4770  func: bx   lr
 * 0x140  46c0  svc_handler: nop
 * 0x142  4770       bx   lr
 * 0x150  e7fe  default_handler: b .    (NMI and HardFault)
 * 0x160  4770  systick_handler: bx lr
 * </pre>
 */
class MtbFlowTest {
    static final long EXC_RETURN = 0xFFFFFFF9L;

    static ProgramImage image() {
        byte[] m = new byte[0x170];
        word(m, 0, 0x20001000);
        word(m, 4, 0x101);         // Reset
        word(m, 8, 0x151);         // NMI
        word(m, 12, 0x151);        // HardFault
        word(m, 11 * 4, 0x141);    // SVCall
        word(m, 15 * 4, 0x161);    // SysTick
        half(m, 0x100, 0x2000, 0x3001, 0x2803, 0xd1fc, 0xdf00, 0xf000, 0xf809, 0xe7fe);
        half(m, 0x120, 0x4770);
        half(m, 0x140, 0x46c0, 0x4770);
        half(m, 0x150, 0xe7fe);
        half(m, 0x160, 0x4770);
        return ProgramImage.of(new MemoryImage().add(0, m, "test"));
    }

    static void word(byte[] m, int at, long v) {
        for (int i = 0; i < 4; i++) {
            m[at + i] = (byte) (v >>> (8 * i));
        }
    }

    static void half(byte[] m, int at, int... hws) {
        for (int h : hws) {
            m[at] = (byte) h;
            m[at + 1] = (byte) (h >>> 8);
            at += 2;
        }
    }

    /** A packet as the MTB stores it: source | A, destination | S. */
    static long[] p(long src, int a, long dst, int s) {
        return new long[] {src | a, dst | s};
    }

    static List<TraceElement> decode(OptionalLong pc, long[]... packets) {
        ElementCollector out = new ElementCollector();
        MtbFlow flow = new MtbFlow(image(), OptionalLong.empty(), 0, 0, out);
        for (int i = 0; i < packets.length; i++) {
            flow.packet(8L * i, (int) packets[i][0], (int) packets[i][1]);
        }
        flow.finish(pc, 8L * packets.length);
        return out.elements();
    }

    static List<TraceElement> decode(long[]... packets) {
        return decode(OptionalLong.empty(), packets);
    }

    static InstructionRange range(long start, long end, int count, long last, WaypointKind kind) {
        return new InstructionRange(0, start, end, count, Isa.T32, last, kind, true);
    }

    static InstructionRange range(long start, long end, int count, long last, WaypointKind kind, CallKind call) {
        InstructionRange r = new InstructionRange(0, start, end, count, Isa.T32, kind, call, true,
                InstructionSizes.uniform((int) (end - start) / count));
        assertThat(r.lastAddress()).isEqualTo(last);
        return r;
    }

    /** A range that ends at a conditional branch the trace shows was not taken (no packet from it). */
    static InstructionRange notTaken(long start, long end, int count, long last, WaypointKind kind) {
        return new InstructionRange(0, start, end, count, Isa.T32, last, kind, false);
    }

    @Test
    void svcIsIncludedAndExceptionReturnIsOnePairOfPackets() {
        List<TraceElement> e = decode(
                p(0x106, 0, 0x102, 1),                 // bne taken, first packet after trace start
                p(0x106, 0, 0x102, 0),                 // bne taken again
                p(0x10a, 1, 0x140, 0),                 // SVC: A=1, source = preferred return = next instruction
                p(0x142, 0, EXC_RETURN & ~1, 0),       // bx lr loads EXC_RETURN
                p(EXC_RETURN & ~1, 1, 0x10a, 0),       // EXC_RETURN -> resume
                p(0x10a, 0, 0x120, 0),                 // bl func
                p(0x120, 0, 0x10e, 0),                 // bx lr
                p(0x10e, 0, 0x10e, 0));                // b halt
        assertThat(e).containsExactly(
                new TraceOn(0, TraceOn.Reason.TRACE_ENABLED, 0),
                range(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH),
                // bne walked past without a packet: not taken; then svc
                notTaken(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH),
                range(0x108, 0x10a, 1, 0x108, WaypointKind.EXCEPTION_CALL),
                new ExceptionEntry(0, 11, "SVCall", 0x10a, false),
                range(0x140, 0x144, 2, 0x142, WaypointKind.EXCEPTION_RETURN),
                new ExceptionReturn(0, 0x10a),
                range(0x10a, 0x10e, 1, 0x10a, WaypointKind.DIRECT_BRANCH, CallKind.CALL), // bl func
                range(0x120, 0x122, 1, 0x120, WaypointKind.INDIRECT_BRANCH, CallKind.RETURN), // bx lr
                range(0x10e, 0x110, 1, 0x10e, WaypointKind.DIRECT_BRANCH));
    }

    @Test
    void interruptExcludesThePreferredReturnInstruction() {
        List<TraceElement> e = decode(
                p(0x106, 0, 0x102, 0),                 // oldest packet: decoding starts at its destination
                p(0x104, 1, 0x160, 0),                 // SysTick taken before cmp at 0x104 executed
                p(0x160, 0, EXC_RETURN & ~1, 0),
                p(EXC_RETURN & ~1, 1, 0x104, 0),
                p(0x106, 0, 0x102, 0));
        assertThat(e).containsExactly(
                new TraceOn(0, TraceOn.Reason.SYNC, 0),
                range(0x102, 0x104, 1, 0x102, WaypointKind.NONE),
                new ExceptionEntry(0, 15, "SysTick", 0x104, false),
                range(0x160, 0x162, 1, 0x160, WaypointKind.EXCEPTION_RETURN),
                new ExceptionReturn(0, 0x104),
                range(0x104, 0x108, 2, 0x106, WaypointKind.DIRECT_BRANCH));
    }

    @Test
    void startBitBeginsANewStretchWithoutWalkingTheGap() {
        List<TraceElement> e = decode(
                p(0x106, 0, 0x102, 1),
                p(0x10a, 1, 0x140, 0),                 // SVCall; trace stops in the handler
                p(0x106, 0, 0x102, 1));                // restarted later: S=1, nothing walked from 0x140
        assertThat(e).containsExactly(
                new TraceOn(0, TraceOn.Reason.TRACE_ENABLED, 0),
                notTaken(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH),
                range(0x108, 0x10a, 1, 0x108, WaypointKind.EXCEPTION_CALL),
                new ExceptionEntry(0, 11, "SVCall", 0x10a, false),
                new TraceOn(0, TraceOn.Reason.TRACE_ENABLED, 16));
    }

    @Test
    void tailChainedReturnGoesStraightIntoTheNextHandler() {
        List<TraceElement> e = decode(
                p(0x10a, 1, 0x140, 0),
                p(0x142, 0, EXC_RETURN & ~1, 0),
                p(EXC_RETURN & ~1, 1, 0x160, 0),
                p(0x160, 0, EXC_RETURN & ~1, 0),
                p(EXC_RETURN & ~1, 1, 0x10a, 0));
        assertThat(e).containsSubsequence(new ExceptionReturn(0, -1), new ExceptionEntry(0, 15, "SysTick", -1, false),
                range(0x160, 0x162, 1, 0x160, WaypointKind.EXCEPTION_RETURN), new ExceptionReturn(0, 0x10a));
    }

    @Test
    void sharedHandlerIsNamedByEveryVectorThatUsesIt() {
        List<TraceElement> e = decode(p(0x106, 0, 0x102, 0), p(0x104, 1, 0x150, 0));
        assertThat(e).contains(new ExceptionEntry(0, -1, "NMI/HardFault", 0x104, false));
    }

    @Test
    void pcCompletesTheNewestRun() {
        List<TraceElement> e = decode(OptionalLong.of(0x108), p(0x106, 0, 0x102, 0), p(0x106, 0, 0x102, 0));
        // the bne at 0x106 before the PC wrote no packet: the loop ended there
        assertThat(e).endsWith(range(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH),
                notTaken(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH));
        assertThat(e).filteredOn(x -> x instanceof InstructionRange).hasSize(2);
    }

    @Test
    void unreachableSourcesBecomeErrorsAndDecodingContinues() {
        List<TraceElement> e = decode(
                p(0x106, 0, 0x102, 0),
                p(0x100, 0, 0x102, 0),                 // source before the destination: not reachable
                p(0x10c, 0, 0x120, 0),                 // 0x10c is the second half of bl: stepping passes it
                p(0x10e, 0, 0x10e, 0),                 // from 0x120: lies before, error
                p(0x10e, 0, 0x10e, 0));                // fine again
        assertThat(e).filteredOn(x -> x instanceof DecodeError).hasSize(3)
                .extracting(x -> ((DecodeError) x).offset()).containsExactly(8L, 16L, 24L);
        assertThat(e.get(e.size() - 1)).isEqualTo(range(0x10e, 0x110, 1, 0x10e, WaypointKind.DIRECT_BRANCH));
    }

    @Test
    void unconditionalFlowChangeOnTheWayMeansALostPacket() {
        // from 0x102 to 0x10e the core would have passed svc at 0x108, which always raises SVCall
        List<TraceElement> e = decode(p(0x106, 0, 0x102, 0), p(0x10e, 0, 0x10e, 0));
        assertThat(e).filteredOn(x -> x instanceof DecodeError).singleElement()
                .extracting(x -> ((DecodeError) x).address()).isEqualTo(0x108L);
        assertThat(e).noneMatch(x -> x instanceof InstructionRange);
    }

    @Test
    void sourceMustBeABranchToTheDestination() {
        List<TraceElement> notBranch = decode(p(0x106, 0, 0x102, 0), p(0x104, 0, 0x102, 0));
        assertThat(notBranch).filteredOn(x -> x instanceof DecodeError).hasSize(1);
        List<TraceElement> wrongTarget = decode(p(0x106, 0, 0x102, 0), p(0x106, 0, 0x104, 0));
        assertThat(wrongTarget).filteredOn(x -> x instanceof DecodeError).singleElement()
                .extracting(x -> ((DecodeError) x).message()).asString().contains("goes to 0x00000102");
    }

    @Test
    void exceptionReturnWithoutSecondPacketIsAnError() {
        List<TraceElement> e = decode(p(0x10a, 1, 0x140, 0), p(0x142, 0, EXC_RETURN & ~1, 0), p(0x106, 0, 0x102, 0));
        assertThat(e).filteredOn(x -> x instanceof DecodeError).hasSize(1);
        assertThat(e).noneMatch(x -> x instanceof ExceptionReturn);
    }

    @Test
    void codeOutsideTheImageIsNoImage() {
        List<TraceElement> e = decode(p(0x106, 0, 0x8000, 0), p(0x8004, 0, 0x102, 0), p(0x106, 0, 0x102, 0));
        assertThat(e).contains(new NoImage(0, 0x8004, Isa.T32));
        assertThat(e.get(e.size() - 1)).isEqualTo(range(0x102, 0x108, 3, 0x106, WaypointKind.DIRECT_BRANCH));
    }
}
