package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Branch conditions from MTB trace, checked against the QEMU ground truth: MTB writes a packet for every
 * taken branch, so a conditional branch the decoder walks past without one was not taken. For every
 * conditional branch of the decoded stretch, the decode must say executed exactly when the next address
 * the core executed (the next instruction, or the preferred return of an exception taken right after
 * it) is not the instruction that follows it. The test tells conditional branches by their encoding
 * (ARM DDI 0403E: B&lt;c&gt; T1/T3, CBZ/CBNZ, and any PC-writing instruction inside an IT block), not
 * with the decoder's classifier; QEMU's own condition pass/fail agrees with every not-taken one.
 */
class MtbConditionsTest {

    static List<String> names() {
        return Fixtures.names();
    }

    /** What the ground truth says about one step. */
    enum Kind { TAKEN_CONDITIONAL, NOT_TAKEN_CONDITIONAL, CONDITIONAL_TO_NEXT, FAILED_NOT_A_BRANCH, OTHER, UNKNOWN }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void everyConditionalBranchIsTakenOrNotAsTheNextExecutedAddressShows(String name) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        Kind[] kinds = classify(ex, image.memory());
        List<ExecutionEvent.Step> all = ex.steps();
        int[] totals = new int[Kind.values().length]; // over the whole run (the first buffer)
        boolean first = true;
        // the whole run in one buffer, and wrapped buffers stopped in the middle (stretch ends, the PC)
        for (long[] o : new long[][] {{1 << 19, 0, 0}, {4096, all.size() / 2 + 5, 1}, {1024, 2500, 1},
            {2048, all.size() / 3, 0}}) {
            MtbEncoder.Options opts = MtbEncoder.Options.ofSize((int) o[0]).withHaltAfter(o[1]).withPc(o[2] == 1);
            MtbEncoder.Result r = MtbEncoder.encode(ex, image, opts);
            MtbReference ref = MtbReference.of(ex, image, opts.bufferSize() / 8, opts.tstart(), opts.tstop(),
                    opts.haltAfter(), r.registers().has("PC"), 0);
            ElementCollector out = new ElementCollector();
            new MtbProtocol().decode(new DecodeInput(0, r.registers(), image, TraceData.of("mtb.bin", r.sram()),
                    DecodeOptions.DEFAULT), out);
            List<long[]> decoded = expand(out.elements(), image.memory());
            List<Long> steps = new ArrayList<>();
            for (long[] s : ref.stretches) {
                for (long k = s[0]; k <= s[1]; k++) {
                    steps.add(k);
                }
            }
            assertThat(decoded).hasSameSizeAs(steps);
            for (int i = 0; i < decoded.size(); i++) {
                int k = (int) (long) steps.get(i);
                ExecutionEvent.Step step = all.get(k);
                assertThat(decoded.get(i)[0]).isEqualTo(step.address());
                boolean executed = decoded.get(i)[1] != 0;
                String what = String.format("%s size %d halt %d: step %d at 0x%08x (%s)", name, o[0], o[1], k,
                        step.address(), kinds[k]);
                switch (kinds[k]) {
                    case NOT_TAKEN_CONDITIONAL -> assertThat(executed).as(what).isFalse();
                    case UNKNOWN -> {
                        // an IT block cut by an exception: not classified
                    }
                    default -> assertThat(executed).as(what).isTrue();
                }
                if (first) {
                    totals[kinds[k].ordinal()]++;
                }
            }
            first = false;
        }
        System.out.printf("%s, whole run: conditional branches taken %d, not taken %d, to the next instruction %d; failed "
                        + "conditional non-branches (reported executed) %d; unclassified %d%n", name,
                totals[Kind.TAKEN_CONDITIONAL.ordinal()], totals[Kind.NOT_TAKEN_CONDITIONAL.ordinal()],
                totals[Kind.CONDITIONAL_TO_NEXT.ordinal()], totals[Kind.FAILED_NOT_A_BRANCH.ordinal()],
                totals[Kind.UNKNOWN.ordinal()]);
        assertThat(totals[Kind.NOT_TAKEN_CONDITIONAL.ordinal()]).as("not-taken conditional branches checked").isGreaterThan(100);
        assertThat(totals[Kind.TAKEN_CONDITIONAL.ordinal()]).as("taken conditional branches checked").isGreaterThan(100);
    }

    /**
     * Coverage of the whole run decoded from MTB: every conditional branch counts as many passes and
     * failures as the ground truth has takes and falls-through, so loop exits show as failing branches
     * in an LCOV tracefile.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void coverageCountsBranchesBothWaysAsTheRunTookThem(String name) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        Kind[] kinds = classify(ex, image.memory());
        List<ExecutionEvent.Step> all = ex.steps();
        MtbEncoder.Options opts = MtbEncoder.Options.ofSize(1 << 19);
        MtbEncoder.Result r = MtbEncoder.encode(ex, image, opts);
        // the decoded steps: the whole run but the start-up code before the first packet
        MtbReference ref = MtbReference.of(ex, image, opts.bufferSize() / 8, opts.tstart(), opts.tstop(), 0, false, 0);
        assertThat(ref.stretches).hasSize(1);
        java.util.Map<Long, long[]> truth = new java.util.TreeMap<>();
        for (int k = (int) ref.stretches.get(0)[0]; k <= ref.stretches.get(0)[1]; k++) {
            if (kinds[k] == Kind.TAKEN_CONDITIONAL || kinds[k] == Kind.NOT_TAKEN_CONDITIONAL) {
                truth.computeIfAbsent(all.get(k).address(), a -> new long[2])[kinds[k] == Kind.TAKEN_CONDITIONAL
                        ? 0 : 1]++;
            }
        }
        io.armtrace.view.Coverage coverage = new io.armtrace.view.Coverage(image);
        new MtbProtocol().decode(new DecodeInput(0, r.registers(), image, TraceData.of("mtb.bin", r.sram()),
                DecodeOptions.DEFAULT), coverage);
        coverage.end();
        var instructions = coverage.result().instructions();
        int bothWays = 0;
        for (var t : truth.entrySet()) {
            var i = instructions.get(t.getKey());
            assertThat(i).as("0x%08x", t.getKey()).isNotNull();
            assertThat(new long[] {i.passed(), i.failed()}).as("0x%08x", t.getKey()).containsExactly(t.getValue());
            assertThat(i.conditional()).isTrue();
            bothWays += i.bothWays() ? 1 : 0;
        }
        assertThat(bothWays).as("conditional branches seen both ways").isGreaterThan(20);
    }

    /** The ground truth per step, from the encodings and the next executed address. */
    static Kind[] classify(Execution ex, MemoryImage m) {
        List<ExecutionEvent.Step> steps = ex.steps();
        Kind[] kinds = new Kind[steps.size()];
        long[] next = new long[steps.size()];
        boolean[] exceptionBefore = new boolean[steps.size()];
        boolean exception = false;
        int k = -1;
        for (ExecutionEvent e : ex.events()) {
            if (!(e instanceof ExecutionEvent.Step)) {
                exception = true;
            }
            if (e instanceof ExecutionEvent.Step s) {
                if (k >= 0 && next[k] == 0) {
                    next[k] = s.address();
                }
                k++;
                exceptionBefore[k] = exception;
                exception = false;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x && k >= 0 && next[k] == 0) {
                next[k] = x.preferredReturn(); // where execution would have gone on
            } else if (e instanceof ExecutionEvent.ExceptionReturned && k >= 0 && next[k] == 0) {
                next[k] = -1; // the step returned from an exception: not a branch of ours
            }
        }
        int itLeft = 0;
        boolean itCut = false; // an exception came between the IT instruction and this step
        for (int i = 0; i < steps.size(); i++) {
            ExecutionEvent.Step s = steps.get(i);
            long a = s.address();
            int hw = m.u16(a);
            int hw2 = s.size() == 4 ? m.u16(a + 2) : 0;
            boolean inIt = itLeft > 0;
            if (inIt) {
                itLeft--;
                itCut |= exceptionBefore[i];
            } else {
                itCut = false;
            }
            if (s.size() == 2 && (hw & 0xFF00) == 0xBF00 && (hw & 0xF) != 0) {
                itLeft = 4 - Integer.numberOfTrailingZeros(hw & 0xF);
            }
            boolean conditionalBranch = isBLessCond(hw, hw2, s.size()) || (s.size() == 2 && (hw & 0xF500) == 0xB100)
                    || (inIt && writesPc(hw, hw2, s.size()));
            if (inIt && itCut) {
                kinds[i] = Kind.UNKNOWN;
            } else if (next[i] < 0) {
                kinds[i] = Kind.OTHER;
            } else if (conditionalBranch) {
                long target = directTarget(a, hw, hw2, s.size());
                boolean taken = next[i] != a + s.size();
                if (target == a + s.size()) {
                    kinds[i] = Kind.CONDITIONAL_TO_NEXT;
                } else if (taken) {
                    kinds[i] = Kind.TAKEN_CONDITIONAL;
                } else {
                    kinds[i] = Kind.NOT_TAKEN_CONDITIONAL;
                    // QEMU's own condition pass/fail (from the CPU state before the step) agrees
                    assertThat(s.executed()).as("step %d at 0x%08x: QEMU says it passed", i, a).isFalse();
                }
            } else if (!s.executed()) {
                kinds[i] = Kind.FAILED_NOT_A_BRANCH;
            } else {
                kinds[i] = Kind.OTHER;
            }
        }
        return kinds;
    }

    /** B&lt;c&gt; T1 (1101 cond imm8, cond not 111x) and T3 (11110 S cond imm6, 10J0J imm11), DDI 0403E A7.7.12. */
    private static boolean isBLessCond(int hw, int hw2, int size) {
        if (size == 2) {
            return (hw & 0xF000) == 0xD000 && ((hw >>> 8) & 0xF) < 14;
        }
        return (hw & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000 && ((hw >>> 6) & 0xF) < 14;
    }

    /** The target of a direct branch (B, B&lt;c&gt;, CBZ/CBNZ), or -1. */
    private static long directTarget(long a, int hw, int hw2, int size) {
        if (size == 2) {
            if ((hw & 0xF000) == 0xD000) {
                return a + 4 + ((byte) hw) * 2L;
            }
            if ((hw & 0xF800) == 0xE000) {
                return a + 4 + (((hw & 0x7FF) << 21) >> 20);
            }
            if ((hw & 0xF500) == 0xB100) {
                return a + 4 + ((((hw >>> 9) & 1) << 6) | (((hw >>> 3) & 0x1F) << 1));
            }
            return -1;
        }
        if ((hw & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000) { // T3
            int s = (hw >>> 10) & 1;
            int imm = (s << 20) | (((hw2 >>> 11) & 1) << 19) | (((hw2 >>> 13) & 1) << 18) | ((hw & 0x3F) << 12)
                    | ((hw2 & 0x7FF) << 1);
            return a + 4 + ((imm << 11) >> 11);
        }
        return -1;
    }

    /**
     * Instructions that write the PC (DDI 0403E A7.7): T16 B, BX/BLX, POP {..,pc}, ADD/MOV pc; T32 B, BL,
     * LDR pc, LDM/POP with pc, TBB/TBH.
     */
    private static boolean writesPc(int hw, int hw2, int size) {
        if (size == 2) {
            return (hw & 0xF800) == 0xE000 || (hw & 0xFF00) == 0x4700 || (hw & 0xFF00) == 0xBD00
                    || (hw & 0xFF87) == 0x4487 || (hw & 0xFF87) == 0x4687;
        }
        if ((hw & 0xF800) == 0xF000 && (hw2 & 0x8000) == 0x8000 && (hw2 & 0x5000) != 0) {
            return true; // B.W T4, BL
        }
        if ((hw & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) {
            return true; // TBB, TBH
        }
        if ((hw & 0xFE50) == 0xE810 && (hw2 & 0x8000) != 0) {
            return true; // LDM/LDMDB with pc in the list
        }
        return (hw & 0xFF70) == 0xF850 && (hw2 >>> 12) == 0xF; // LDR pc, [..]
    }

    /** (address, executed) of every decoded instruction, in order. */
    static List<long[]> expand(List<TraceElement> elements, MemoryImage m) {
        List<long[]> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                long a = r.start();
                for (int i = 0; i < r.count(); i++) {
                    boolean last = i == r.count() - 1;
                    out.add(new long[] {a, !last || r.lastExecuted() ? 1 : 0});
                    int hw = m.u16(a);
                    a += (hw >>> 11) >= 0x1D ? 4 : 2;
                }
            }
        }
        return out;
    }
}
