package io.armtrace.view;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The ground-truth executions (QEMU runs of real programs, {@link Corpus}) and their conversion into the element stream a perfect decoder would produce: instruction ranges that
 * end at every instruction that can change the flow, at a condition-failed instruction, or where the
 * next instruction is not the next in memory; exceptions and exception returns in between.
 */
final class GroundTruth {
    /** Bare-metal programs and Linux user-mode programs (static glibc: many functions, SVCs to the kernel). */
    static final List<String> NAMES = java.util.stream.Stream.concat(Corpus.names().stream(), Corpus.userModeNames().stream()).toList();

    record Case(String name, Profile profile, Execution execution, ProgramImage image) {
    }

    private GroundTruth() {
    }

    static Case load(String name) {
        return new Case(name, Corpus.profile(name), Corpus.execution(name), Corpus.image(name));
    }

    /** The elements a decoder that lost nothing would give for the execution. */
    static List<TraceElement> elements(Case c) {
        InstructionClassifier classifier = new InstructionClassifier(c.profile());
        Insn insn = new Insn();
        List<TraceElement> out = new ArrayList<>();
        out.add(new TraceOn(0, TraceOn.Reason.SYNC, 0));
        List<ExecutionEvent> events = c.execution().events();
        long start = -1;
        long end = -1;
        int count = 0;
        Isa isa = null;
        int[] offsets = new int[16];
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent e = events.get(i);
            if (e instanceof ExecutionEvent.Step s) {
                if (count > 0 && (s.address() != end || s.isa() != isa)) {
                    throw new IllegalStateException("range not closed before " + s);
                }
                if (count == 0) {
                    start = s.address();
                    isa = s.isa();
                }
                if (count + 2 > offsets.length) {
                    offsets = java.util.Arrays.copyOf(offsets, offsets.length * 2);
                }
                offsets[count + 1] = offsets[count] + s.size(); // the size QEMU logged
                count++;
                end = s.address() + s.size();
                WaypointKind kind = WaypointKind.NONE;
                CallKind call = CallKind.NONE;
                if (classifier.classify(c.image().memory(), s.address(), s.isa(), 0, insn) && insn.writesPc()) {
                    kind = insn.kind;
                    call = insn.link ? CallKind.CALL : insn.ret ? CallKind.RETURN : CallKind.NONE;
                }
                ExecutionEvent next = i + 1 < events.size() ? events.get(i + 1) : null;
                boolean close = kind != WaypointKind.NONE || !s.executed() || next == null
                        || !(next instanceof ExecutionEvent.Step n) || n.address() != end || n.isa() != s.isa();
                if (close) {
                    InstructionRange r = new InstructionRange(0, start, end, count, isa, kind, call, s.executed(),
                            InstructionSizes.ofOffsets(java.util.Arrays.copyOf(offsets, count + 1)));
                    if (r.lastAddress() != s.address()) {
                        throw new IllegalStateException("sizes disagree with the steps at " + s);
                    }
                    out.add(r);
                    count = 0;
                }
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                out.add(new ExceptionEntry(0, x.number(), null, x.preferredReturn(), false));
            } else if (e instanceof ExecutionEvent.ExceptionReturned x) {
                out.add(new ExceptionReturn(0, x.resume()));
            }
        }
        return out;
    }
}
