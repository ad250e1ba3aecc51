package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * decode(encode(execution)) gives back the executed instructions, on real programs run under QEMU
 * (Cortex-A9, ARM and Thumb-2) and on straight-line code longer than the 4096-byte waypoint bound.
 *
 * <p>What PFT cannot say: whether a non-waypoint instruction passed its condition (it traces only
 * waypoints), including the last instruction before an exception, which a waypoint update reports as
 * reached (IHI 0035B 4.5.5: "It does not indicate whether that instruction passed its condition code
 * test"). The comparison therefore checks every address in order and the executed flag of every
 * waypoint; a condition-failed non-waypoint instruction decodes as executed and is counted.
 */
class PtmRoundTripTest {
    record Program(Execution execution, ProgramImage image) {
    }

    private static final Map<String, Program> CACHE = new ConcurrentHashMap<>();

    static Program program(String name) {
        return CACHE.computeIfAbsent(name, n -> new Program(Corpus.execution(n), Corpus.image(n)));
    }

    record Result(int instructions, int unknowableConditions, int traceBytes, List<TraceElement> elements) {
    }

    /** Encodes, decodes and compares; returns counts for reporting. */
    static Result roundTrip(Program p, PtmEncoder enc) {
        EncodeOutput out = enc.encode(p.execution(), p.image());
        PtmConfig cfg = PtmConfig.of(out.registers(), 0);
        ElementCollector c = new ElementCollector();
        PtmFlow flow = new PtmFlow(cfg, p.image().memory(), c);
        PtmPacketReader r = new PtmPacketReader(cfg, flow);
        r.push(out.trace(), 0, out.trace().length);
        r.end();
        List<long[]> got = new ArrayList<>(); // address, executed
        for (TraceElement e : c.elements()) {
            assertThat(e).as("decoder complained").isNotInstanceOfAny(Gap.class, DecodeError.class, NoImage.class);
            if (e instanceof InstructionRange ir) {
                for (int i = 0; i < ir.count(); i++) {
                    boolean ex = i < ir.count() - 1 || ir.lastExecuted();
                    got.add(new long[] {ir.addressOf(i), ex ? 1 : 0});
                }
            }
        }
        List<ExecutionEvent.Step> steps = p.execution().steps();
        InstructionClassifier cl = new InstructionClassifier(Profile.AR);
        Insn insn = new Insn();
        int unknowable = 0;
        for (int i = 0; i < Math.min(got.size(), steps.size()); i++) {
            ExecutionEvent.Step s = steps.get(i);
            long[] g = got.get(i);
            if (g[0] != s.address()) {
                throw new AssertionError(String.format("instruction %d: executed 0x%x, decoded 0x%x", i, s.address(), g[0]));
            }
            boolean ex = g[1] == 1;
            if (ex != s.executed()) {
                cl.classify(p.image().memory(), s.address(), s.isa(), 0, insn);
                boolean waypoint = insn.kind == WaypointKind.DIRECT_BRANCH || insn.kind == WaypointKind.INDIRECT_BRANCH
                        || insn.kind == WaypointKind.EXCEPTION_RETURN || insn.kind == WaypointKind.BARRIER;
                // CBZ/CBNZ pass (no condition code) but may not branch: PFT traces that with an N atom
                boolean notTaken = waypoint && !ex && i + 1 < steps.size()
                        && steps.get(i + 1).address() == s.address() + insn.size && insn.target != s.address() + insn.size;
                if (notTaken) {
                    continue;
                }
                if (waypoint || !ex) {
                    throw new AssertionError(String.format("instruction %d at 0x%x: executed=%s, decoded %s",
                            i, s.address(), s.executed(), ex));
                }
                unknowable++;
            }
        }
        assertThat(got).as("decoded instruction count").hasSize(steps.size());
        return new Result(got.size(), unknowable, out.trace().length, c.elements());
    }

    @ParameterizedTest
    @CsvSource({
        "a9-arm, on, 15, off, off",
        "a9-arm, off, 0, off, off",
        "a9-thumb, on, 15, off, off",
        "a9-thumb, off, 0, off, off",
        "a9-thumb, on, 4, on, off",
        "a9-arm, on, 1, on, on",
        "a9-thumb, off, 0, off, on",
        "linux-arm, on, 15, off, off",
        "linux-thumb, on, 15, off, off",
        "linux-thumb, off, 0, on, off",
        "arm926-arm, on, 8, off, off",
        "arm926-thumb, on, 15, off, on"})
    void corpusProgramsRoundTrip(String name, String rs, int depth, String cc, String bb) {
        Program p = program(name);
        PtmEncoder enc = new PtmEncoder().returnStack(rs.equals("on"), depth).cycleAccurate(cc.equals("on"))
                .branchBroadcast(bb.equals("on")).timestamps(true).contextId(4, 0x42).vmid(3).syncPeriod(512);
        Result r = roundTrip(p, enc);
        assertThat(r.instructions()).isGreaterThan(40000);
        System.out.printf("%s rs=%s/%d cc=%s bb=%s: %d instructions, %d bytes; %d condition-failed non-waypoint"
                + " instructions decode as executed (PFT does not trace them)%n", name, rs, depth, cc, bb,
                r.instructions(), r.traceBytes(), r.unknowableConditions());
    }

    @Test
    void pft10AndNoOptions() {
        Result r = roundTrip(program("a9-arm"), new PtmEncoder().pftVersion(0).returnStack(false, 0));
        assertThat(r.instructions()).isGreaterThan(50000);
    }

    @Test
    void returnStackShrinksTheTrace() {
        for (String n : new String[] {"a9-arm", "a9-thumb", "linux-arm", "linux-thumb"}) {
            int off = roundTrip(program(n), new PtmEncoder().returnStack(false, 0)).traceBytes();
            int on = roundTrip(program(n), new PtmEncoder().returnStack(true, 15)).traceBytes();
            System.out.printf("%s: PFT trace %d bytes without return stack, %d with (%.1f%% smaller)%n", n, off, on,
                    100.0 * (off - on) / off);
            assertThat(on).isLessThan(off);
        }
    }

    /** Straight code longer than 4096 bytes between waypoints: the encoder must insert waypoint updates. */
    @ParameterizedTest
    @CsvSource({"A32, 3000", "T32, 3000", "A32, 1030", "T32, 2050", "A32, 1000", "T32, 2040"})
    void straightLineCodeBeyondTheWaypointBound(Isa isa, int nops) {
        long base = 0x8000;
        int size = isa == Isa.A32 ? 4 : 2;
        byte[] code = new byte[nops * size + 12];
        for (int i = 0; i < nops; i++) {
            if (isa == Isa.A32) {
                put32(code, i * 4, 0xE1A00000); // MOV r0, r0
            } else {
                put16(code, i * 2, 0x4600); // MOV r0, r0
            }
        }
        int end = nops * size;
        // a conditional branch back to the start: taken once, then not taken, then BX LR
        long back = base - (base + end + (isa == Isa.A32 ? 8 : 4));
        if (isa == Isa.A32) {
            put32(code, end, 0x1A000000 | (int) ((back >> 2) & 0xFFFFFF)); // BNE base
            put32(code, end + 4, 0xE12FFF1E); // BX LR
        } else {
            int off = (int) back; // T32 B<c> encoding T3: 0xF47F...
            int imm = (off >> 1) & 0x3FFFF; // S:J2:J1:imm6:imm11 for a backward branch
            int s = 1;
            int imm11 = imm & 0x7FF;
            int imm6 = (imm >> 11) & 0x3F;
            int j1 = (imm >> 17) & 1;
            int j2 = (imm >> 18) & 1;
            int hw1 = 0xF000 | s << 10 | 1 << 6 | imm6; // cond NE = 1
            int hw2 = 0x8000 | j1 << 13 | j2 << 11 | imm11;
            j1 = 1;
            j2 = 1;
            hw2 = 0x8000 | j1 << 13 | j2 << 11 | imm11;
            put16(code, end, hw1);
            put16(code, end + 2, hw2);
            put16(code, end + 4, 0x4770); // BX LR
        }
        MemoryImage mem = new MemoryImage().add(base, code, "straight");
        // checks the hand-made branch with the classifier
        Insn insn = new Insn();
        new InstructionClassifier(Profile.AR).classify(mem, base + end, isa, 0, insn);
        assertThat(insn.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(insn.target).isEqualTo(base);
        List<ExecutionEvent> ev = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < nops; i++) {
                ev.add(new ExecutionEvent.Step(base + (long) i * size, isa, size, true));
            }
            ev.add(new ExecutionEvent.Step(base + end, isa, isa == Isa.A32 ? 4 : 4, pass == 0));
        }
        long bx = base + end + 4;
        ev.add(new ExecutionEvent.Step(bx, isa, isa == Isa.A32 ? 4 : 2, true));
        // BX LR returns to a NOP after it (LR as the caller left it), where the trace stops
        ev.add(new ExecutionEvent.Step(bx + 4, isa, size, true));
        if (isa == Isa.A32) {
            put32(code, end + 8, 0xE1A00000);
        } else {
            put16(code, end + 8, 0x4600);
        }
        Program p = new Program(new Execution(ev), ProgramImage.of(mem));
        for (boolean rs : new boolean[] {false, true}) {
            EncodeOutput out = new PtmEncoder().returnStack(rs, 15).encode(p.execution(), p.image());
            int updates = countPackets(out, PtmPacket.Type.WAYPOINT_UPDATE);
            boolean beyond = (long) nops * size > PtmFlow.WAYPOINT_BOUND;
            // one per pass through the long block, and one when the trace stops after the last waypoint
            assertThat(updates).isEqualTo((beyond ? 2 : 0) + 1);
            roundTrip(p, new PtmEncoder().returnStack(rs, 15));
        }
    }

    static int countPackets(EncodeOutput out, PtmPacket.Type t) {
        int[] n = {0};
        PtmPacketReader r = new PtmPacketReader(PtmConfig.of(out.registers(), 0), k -> {
            if (k.type == t) {
                n[0]++;
            }
        });
        r.push(out.trace(), 0, out.trace().length);
        r.end();
        return n[0];
    }

    static void put32(byte[] b, int o, int v) {
        b[o] = (byte) v;
        b[o + 1] = (byte) (v >> 8);
        b[o + 2] = (byte) (v >> 16);
        b[o + 3] = (byte) (v >> 24);
    }

    static void put16(byte[] b, int o, int v) {
        b[o] = (byte) v;
        b[o + 1] = (byte) (v >> 8);
    }

    /**
     * Programs not in the repository ({@code -Darmtrace.extraGroundTruth=DIR}) run by A/R-profile cores;
     * without the property, the repository's Cortex-A programs.
     */
    @Test
    void extraGroundTruthProgramsRoundTrip() {
        List<String> names = Corpus.extraNamesOr(io.armtrace.isa.Profile.AR,
                List.of("a9-arm", "a9-thumb", "linux-arm", "linux-thumb"));
        assertThat(names).isNotEmpty();
        for (String name : names) {
            Program p = program(name);
            roundTrip(p, new PtmEncoder().returnStack(true, 15));
            roundTrip(p, new PtmEncoder().returnStack(false, 0).cycleAccurate(true).branchBroadcast(true));
        }
    }
}
