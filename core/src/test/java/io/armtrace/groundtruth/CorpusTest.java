package io.armtrace.groundtruth;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks every fixture against its own ELF file, independently of the importer: each instruction
 * lies in the program with the ISA its mapping symbols give and the size its encoding gives; a
 * condition-failed instruction never changes the flow; exceptions enter at their vectors and
 * return where they were taken; SVCs follow SVC instructions; and each program really contains
 * the kinds of flow the corpus promises (docs/execution-format.md).
 */
class CorpusTest {
    /**
     * Per fixture: profile, core, rounds of work() (one SVC exception each), Thumb-2 code and A32
     * code in the workload, interrupts (none in user mode, where the kernel is not in the record).
     */
    private record Expect(Profile profile, String core, int svcs, boolean thumb2, boolean arm, boolean interrupts) {
    }

    private static final Map<String, Expect> EXPECT = Map.of(
            "arm926-arm", new Expect(Profile.AR, "arm926ej-s", 4, false, true, true),
            "arm926-thumb", new Expect(Profile.AR, "arm926ej-s", 4, false, false, true),
            "a9-arm", new Expect(Profile.AR, "cortex-a9", 4, false, true, true),
            "a9-thumb", new Expect(Profile.AR, "cortex-a9", 4, true, false, true),
            "m3", new Expect(Profile.M, "cortex-m3", 6, true, false, true),
            "m0plus", new Expect(Profile.M, "cortex-m0plus", 4, false, false, true),
            "linux-arm", new Expect(Profile.AR, "cortex-a15", 0, false, true, false),
            "linux-thumb", new Expect(Profile.AR, "cortex-a15", 0, true, false, false));

    static List<String> names() {
        List<String> all = new java.util.ArrayList<>(Corpus.names());
        all.addAll(Corpus.userModeNames());
        return all;
    }

    @ParameterizedTest
    @MethodSource("names")
    void headerNamesTheCore(String name) {
        Expect x = EXPECT.get(name);
        assertThat(Corpus.profile(name)).isEqualTo(x.profile());
        assertThat(Corpus.core(name)).isEqualTo(x.core());
        assertThat(x.interrupts() ? Corpus.names(x.profile()) : Corpus.userModeNames()).contains(name);
    }

    @ParameterizedTest
    @MethodSource("names")
    void everyInstructionIsInTheProgramWithItsIsaAndSize(String name) {
        Execution ex = Corpus.execution(name);
        ProgramImage image = Corpus.image(name);
        MemoryImage mem = image.memory();
        List<ExecutionEvent.Step> steps = ex.steps();
        assertThat(steps.size()).isBetween(20_000, 300_000);
        for (ExecutionEvent.Step s : steps) {
            assertThat(mem.contains(s.address(), s.size())).as("%s at %x", name, s.address()).isTrue();
            assertThat(s.address() % s.isa().alignment()).isZero();
            Isa mapped = io.armtrace.execution.MappingSymbols.isaAt(image.symbols(), s.address());
            if (mapped != null) {
                assertThat(s.isa()).as("%s at %x: mapping symbol", name, s.address()).isEqualTo(mapped);
            }
            if (Corpus.profile(name) == Profile.M) {
                assertThat(s.isa()).isEqualTo(Isa.T32);
            }
            int expectedSize = s.isa() == Isa.A32 ? 4 : (t32Wide(mem.u16(s.address())) ? 4 : 2);
            assertThat(s.size()).as("%s at %x: size", name, s.address()).isEqualTo(expectedSize);
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void conditionFailedInstructionsAreConditionalAndFallThrough(String name) {
        List<ExecutionEvent> events = Corpus.execution(name).events();
        MemoryImage mem = Corpus.image(name).memory();
        int failed = 0;
        int failedInItBlock = 0;
        int itLeft = 0; // instructions left in the current IT block, from the IT instructions themselves
        Deque<Integer> itSaved = new ArrayDeque<>();
        int takenInItBlock = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof ExecutionEvent.ExceptionTaken) {
                if (itLeft > 0) {
                    takenInItBlock++;
                }
                itSaved.push(itLeft); // an interrupt can come inside an IT block (ITSTATE is saved)
                itLeft = 0;
                continue;
            }
            if (events.get(i) instanceof ExecutionEvent.ExceptionReturned) {
                itLeft = itSaved.isEmpty() ? 0 : itSaved.pop();
                continue;
            }
            ExecutionEvent.Step s = (ExecutionEvent.Step) events.get(i);
            boolean inIt = itLeft > 0;
            if (itLeft > 0) {
                itLeft--;
            }
            int hw1 = mem.u16(s.address());
            if (s.isa() == Isa.T32 && (hw1 & 0xFF00) == 0xBF00 && (hw1 & 0xF) != 0) {
                itLeft = 4 - Integer.numberOfTrailingZeros(hw1 & 0xF); // IT: the mask's lowest 1 ends it
            }
            if (s.executed()) {
                continue;
            }
            failed++;
            if (s.isa() == Isa.A32) {
                assertThat(mem.u32(s.address()) >>> 28).as("%s at %x: condition field", name, s.address()).isLessThan(14);
            } else if (inIt) {
                failedInItBlock++;
            } else {
                boolean bcond16 = (hw1 & 0xF000) == 0xD000 && ((hw1 >> 8) & 0xF) < 14;
                boolean bcond32 = (hw1 & 0xF800) == 0xF000 && (mem.u16(s.address() + 2) & 0xD000) == 0x8000;
                assertThat(bcond16 || bcond32).as("%s at %x: B<c> outside IT", name, s.address()).isTrue();
            }
            if (i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.Step next) {
                assertThat(next.address()).as("%s: after failed %x", name, s.address()).isEqualTo(s.address() + s.size());
            }
        }
        assertThat(failed).isPositive();
        if (EXPECT.get(name).thumb2()) {
            assertThat(failedInItBlock).as("condition-failed instructions in IT blocks").isPositive();
            if (EXPECT.get(name).interrupts()) {
                assertThat(takenInItBlock).as("interrupts taken inside an IT block").isPositive();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void exceptionsEnterAtTheirVectorsAndReturnWhereTaken(String name) {
        List<ExecutionEvent> events = Corpus.execution(name).events();
        ProgramImage image = Corpus.image(name);
        MemoryImage mem = image.memory();
        boolean m = Corpus.profile(name) == Profile.M;
        long vbar = m ? 0 : image.symbols().find("_start").address();
        Deque<ExecutionEvent.ExceptionTaken> open = new ArrayDeque<>();
        ExecutionEvent.Step last = null;
        int svcs = 0;
        int asynchronous = 0;
        int tailChains = 0;
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent e = events.get(i);
            if (e instanceof ExecutionEvent.Step s) {
                last = s;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                ExecutionEvent.Step first = (ExecutionEvent.Step) events.get(i + 1);
                assertThat(first.address()).isEqualTo(x.handler());
                if (m) {
                    assertThat(mem.u32(4L * x.number()) & ~1L).as("vector %d", x.number()).isEqualTo(x.handler());
                } else {
                    assertThat(x.handler()).isEqualTo(vbar + 4L * x.number());
                }
                boolean svc = m ? x.number() == 11 : x.number() == 2;
                if (svc) {
                    svcs++;
                    boolean svcInsn = last.isa() == Isa.A32
                            ? (mem.u32(last.address()) & 0x0F00_0000L) == 0x0F00_0000L
                            : (mem.u16(last.address()) & 0xFF00) == 0xDF00;
                    assertThat(svcInsn).as("%s: SVC taken after %x", name, last.address()).isTrue();
                    assertThat(x.preferredReturn()).isEqualTo(last.address() + last.size());
                } else {
                    asynchronous++;
                    if (m) {
                        assertThat(x.number()).isIn(14, 15); // PendSV, SysTick
                    } else {
                        assertThat(x.number()).isEqualTo(6); // IRQ
                    }
                }
                if (m && x.number() == 14) {
                    // PendSV, pended by SysTick: tail-chained to its exception return (bx lr or
                    // pop {..., pc}), returning where SysTick would have
                    int insn = mem.u16(last.address());
                    assertThat(insn == 0x4770 || (insn & 0xFF00) == 0xBD00).as("%s: tail-chain after %x", name, last.address()).isTrue();
                    assertThat(open).isNotEmpty();
                    ExecutionEvent.ExceptionTaken done = open.pop();
                    assertThat(done.number()).isEqualTo(15);
                    assertThat(x.preferredReturn()).isEqualTo(done.preferredReturn());
                    tailChains++;
                }
                open.push(x);
            } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                assertThat(open).as("%s: return without entry", name).isNotEmpty();
                assertThat(r.resume()).isEqualTo(open.pop().preferredReturn());
                assertThat(((ExecutionEvent.Step) events.get(i + 1)).address()).isEqualTo(r.resume());
            }
        }
        assertThat(open).isEmpty();
        assertThat(svcs).isEqualTo(EXPECT.get(name).svcs());
        assertThat(asynchronous).isGreaterThanOrEqualTo(EXPECT.get(name).interrupts() ? 2 : 0);
        if (m) {
            assertThat(tailChains).as("PendSV tail-chained to SysTick").isPositive();
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void programsHoldTheFlowTheyPromise(String name) {
        Expect x = EXPECT.get(name);
        ProgramImage image = Corpus.image(name);
        MemoryImage mem = image.memory();
        Set<String> functions = new HashSet<>();
        Set<Isa> isas = new HashSet<>();
        Set<Isa> otherIsa = new HashSet<>();
        boolean tbb = false;
        boolean tbh = false;
        boolean ldrlsPc = false;
        int armConditionFailed = 0;
        long straightStart = image.symbols().find("straight").address();
        long straightEnd = straightStart + image.symbols().find("straight").size();
        long runStart = -1;
        long runNext = -1;
        long longestRun = 0;
        for (ExecutionEvent.Step s : Corpus.execution(name).steps()) {
            Symbol sym = image.symbols().lookup(s.address());
            if (sym != null) {
                String f = sym.name();
                functions.add(f.indexOf('.') > 0 ? f.substring(0, f.indexOf('.')) : f);
                if (f.equals("other_isa")) {
                    otherIsa.add(s.isa());
                }
            }
            isas.add(s.isa());
            if (s.isa() == Isa.T32 && mem.u16(s.address()) == 0xE8DF) {
                int hw2 = mem.u16(s.address() + 2);
                tbb |= (hw2 & 0xFFF0) == 0xF000;
                tbh |= (hw2 & 0xFFF0) == 0xF010;
            }
            if (s.isa() == Isa.A32) {
                long w = mem.u32(s.address()) & 0xFFFF_FFF0L;
                ldrlsPc |= w == 0x979F_F100L || w == 0x908F_F100L; // ldrls pc, [pc, rN, lsl #2] / addls pc, pc, rN, lsl #2
                if (!s.executed()) {
                    armConditionFailed++;
                }
            }
            // straight(): sequential instructions inside it, whatever interrupts in between
            if (s.address() >= straightStart && s.address() < straightEnd) {
                if (s.address() != runNext) {
                    runStart = s.address();
                }
                runNext = s.address() + s.size();
                longestRun = Math.max(longestRun, runNext - runStart);
            }
        }
        assertThat(functions).contains("quicksort", "cmp_asc", "cmp_desc", "classify", "big_switch", "straight",
                "crc32", "gcd", "clamp_sum");
        for (int i = 0; i < 24; i++) {
            assertThat(functions).contains("chain" + i);
        }
        assertThat(longestRun).as("bytes of straight-line code run in one go").isGreaterThan(4096);
        if (x.thumb2()) {
            assertThat(tbb).as("TBB executed").isTrue();
            assertThat(tbh).as("TBH executed").isTrue();
        }
        if (x.arm()) {
            assertThat(ldrlsPc).as("switch table: ldrls pc or addls pc executed").isTrue();
            assertThat(armConditionFailed).isPositive();
        }
        if (x.profile() == Profile.AR) {
            assertThat(isas).containsExactlyInAnyOrder(Isa.A32, Isa.T32);
            assertThat(otherIsa).containsExactly(x.arm() ? Isa.T32 : Isa.A32);
        }
    }

    private static boolean t32Wide(int hw1) {
        int top = hw1 >>> 11;
        return top == 0x1D || top == 0x1E || top == 0x1F;
    }
}
