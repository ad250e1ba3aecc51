package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Context;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The AutoFDO profile of decoded trace against the execution it came from: each ground-truth run (QEMU's
 * record of a real program) is encoded by a protocol's encoder and decoded by its decoder, and the runs
 * and taken branches the profile counts must equal, exactly, those counted from the execution record
 * itself, instruction by instruction.
 */
class AutofdoGroundTruthTest {
    @TempDir
    Path dir;

    static List<String[]> cases() {
        return DecodedViewsTest.cases();
    }

    /** Runs (first, last instruction) and taken branches counted from the execution record. */
    private record Expected(Map<String, Long> runs, Map<String, Long> branches) {
    }

    private static Expected fromExecution(GroundTruth.Case c, ProgramImage image, boolean mtb) {
        InstructionClassifier cl = new InstructionClassifier(c.profile());
        Insn insn = new Insn();
        List<ExecutionEvent> events = c.execution().events();
        int from = 0;
        if (mtb) {
            // MTB records branches: what ran before the first taken branch's target is not in the trace
            ExecutionEvent.Step prev = null;
            for (; from < events.size(); from++) {
                if (events.get(from) instanceof ExecutionEvent.Step s) {
                    if (prev != null && s.address() != prev.address() + prev.size()) {
                        break;
                    }
                    prev = s;
                }
            }
        }
        Map<String, Long> runs = new TreeMap<>();
        Map<String, Long> branches = new TreeMap<>();
        boolean open = false;
        long first = 0;
        long last = 0;
        long next = 0;
        Isa isa = null;
        boolean pending = false;
        long branchFrom = 0;
        for (int i = from; i < events.size(); i++) {
            if (!(events.get(i) instanceof ExecutionEvent.Step s)) {
                // an exception interrupts the flow: no run and no branch goes on across it; the return
                // from one is the returning instruction's branch to the resume address
                if (open) {
                    count(runs, image, first, last, "-");
                }
                open = false;
                pending &= events.get(i) instanceof ExecutionEvent.ExceptionReturned;
                continue;
            }
            if (pending) {
                count(branches, image, branchFrom, s.address(), "->");
                pending = false;
            }
            if (!(open && s.address() == next && s.isa() == isa)) {
                if (open) {
                    count(runs, image, first, last, "-");
                }
                open = true;
                first = s.address();
                isa = s.isa();
            }
            last = s.address();
            next = s.address() + s.size();
            // an exception call leaves through the exception that the record shows next (a semihosting BKPT
            // or an emulated system call shows none: the code goes on)
            if (s.executed() && cl.classify(image.memory(), s.address(), s.isa(), 0, insn) && insn.writesPc()
                    && insn.kind != WaypointKind.EXCEPTION_CALL && !compareAndBranchFallingThrough(image, s, events, i)
                    && !(mtb && toNextInstruction(s, events, i))) {
                count(runs, image, first, last, "-");
                open = false;
                pending = true;
                branchFrom = s.address();
            }
        }
        if (open) {
            count(runs, image, first, last, "-");
        }
        return new Expected(runs, branches);
    }

    /**
     * A CBZ/CBNZ (16-bit T32 1011 o0i1, ARMv7-M ARM A7.7.21) that did not branch: its condition is a register's
     * value, not a condition code, so the record says it executed; the next instruction says it fell through.
     */
    private static boolean compareAndBranchFallingThrough(ProgramImage image, ExecutionEvent.Step s, List<ExecutionEvent> events, int i) {
        return s.isa() == Isa.T32 && s.size() == 2 && (image.memory().u16(s.address()) & 0xF500) == 0xB100
                && i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.Step n && n.address() == s.address() + 2;
    }

    /**
     * A branch to the instruction after it: MTB packets record non-sequential changes of the PC only, so in
     * MTB trace such a branch (a jump table whose entry is the next case) is indistinguishable from falling
     * through (docs/mtb.md).
     */
    private static boolean toNextInstruction(ExecutionEvent.Step s, List<ExecutionEvent> events, int i) {
        return i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.Step n && n.address() == s.address() + s.size();
    }

    private static void count(Map<String, Long> map, ProgramImage image, long a, long b, String sep) {
        if (image.memory().regionAt(a) != null && image.memory().regionAt(b) != null) {
            map.merge(Long.toHexString(a) + sep + Long.toHexString(b), 1L, Long::sum);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void runsAndBranchesOfTheDecodedTraceEqualTheExecution(String name, String protocol) throws IOException {
        check(name, protocol, false);
    }

    /**
     * The same with a context element after every range that ends in a taken branch, where an ETMv4 trace
     * unit sends one with the branch's target address (an address with context packet) and a recording's
     * CONTEXTIDR writes put one: it names the process, and the branch is still counted with its target.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aContextElementBetweenABranchAndItsTargetLeavesTheProfileAsItIs(String name, String protocol) throws IOException {
        check(name, protocol, true);
    }

    /** Passes the elements on, with a context element after each range whose last instruction is a taken branch. */
    private static ElementSink contextAfterBranches(ElementSink sink, int[] inserted) {
        return new ElementSink() {
            @Override
            public void accept(TraceElement e) {
                sink.accept(e);
                if (e instanceof InstructionRange r && r.lastExecuted() && (r.lastKind() == WaypointKind.DIRECT_BRANCH
                        || r.lastKind() == WaypointKind.INDIRECT_BRANCH)) {
                    sink.accept(new Context(r.source(), 0x1234, 0, false, false));
                    inserted[0]++;
                }
            }

            @Override
            public void end() {
                sink.end();
            }
        };
    }

    private void check(String name, String protocol, boolean contexts) throws IOException {
        GroundTruth.Case c = GroundTruth.load(name);
        // the program from a file, as a user gives it: the profile's binary is that file
        Path elf = dir.resolve(name + ".elf");
        Files.write(elf, Corpus.elfBytes(name));
        ProgramImage image = ElfImage.load(elf);
        TraceProtocol p = Protocols.byName(protocol).orElseThrow();
        EncodeOutput enc = p.encode(c.execution(), image,
                protocol.equals("mtb") ? Map.of("buffer-size", "1048576") : Map.of());
        AutoFdoProfile profile = new AutoFdoProfile();
        int[] inserted = new int[1];
        ElementSink sink = contexts ? contextAfterBranches(profile.stream(image.memory()), inserted) : profile.stream(image.memory());
        p.decode(new DecodeInput(0x10, enc.registers(), image, TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), sink);
        sink.end();

        Expected expected = fromExecution(c, image, protocol.equals("mtb"));
        assertThat(inserted[0] > 0).isEqualTo(contexts);
        assertThat(profile.binaries()).hasSize(1);
        AutoFdoProfile.Counts counts = profile.binaries().get(0);
        assertThat(counts.binary().path()).isEqualTo(elf.toString());
        Map<String, Long> runs = new TreeMap<>();
        counts.runs().forEach((r, n) -> runs.put(Long.toHexString(r.first()) + "-" + Long.toHexString(r.last()), n));
        Map<String, Long> branches = new TreeMap<>();
        counts.branches().forEach((b, n) -> branches.put(Long.toHexString(b.from()) + "->" + Long.toHexString(b.to()), n));
        assertThat(expected.runs()).isNotEmpty();
        assertThat(expected.branches()).isNotEmpty();
        assertThat(runs).as("runs of %s %s", name, protocol).containsExactlyInAnyOrderEntriesOf(expected.runs());
        assertThat(branches).as("branches of %s %s", name, protocol).containsExactlyInAnyOrderEntriesOf(expected.branches());

        // the text: offsets from the first load segment, the three sections, then the path
        long base = ElfImage.describe(elf).segments().stream().filter(ElfImage.Segment::isLoad).findFirst().orElseThrow().vaddr();
        StringWriter w = new StringWriter();
        profile.write(new PrintWriter(w, true));
        String[] lines = w.toString().split("\n");
        assertThat(Integer.parseInt(lines[0])).isEqualTo(expected.runs().size());
        Map.Entry<String, Long> firstRun = expected.runs().entrySet().stream()
                .min((x, y) -> Long.compareUnsigned(Long.parseUnsignedLong(x.getKey().split("-")[0], 16),
                        Long.parseUnsignedLong(y.getKey().split("-")[0], 16))).orElseThrow();
        String[] ends = firstRun.getKey().split("-");
        assertThat(lines[1]).startsWith(Long.toHexString(Long.parseUnsignedLong(ends[0], 16) - base) + "-");
        int addresses = 1 + expected.runs().size();
        assertThat(lines[addresses]).isEqualTo("0");
        assertThat(Integer.parseInt(lines[addresses + 1])).isEqualTo(expected.branches().size());
        int comments = addresses + 2 + expected.branches().size();
        String id = ElfImage.describe(elf).buildIdHex();
        if (id != null) {
            assertThat(lines[comments++]).isEqualTo("// build_id: 0x" + id);
        }
        assertThat(lines[comments]).isEqualTo("// " + elf);
    }
}
