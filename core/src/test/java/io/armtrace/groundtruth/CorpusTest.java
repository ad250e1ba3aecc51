package io.armtrace.groundtruth;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
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
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks every fixture against its own ELF file, independently of the importer: each instruction
 * lies in the program with the ISA its mapping symbols give and the size its encoding gives; a
 * condition-failed instruction never changes the flow and a conditional branch that passed goes to
 * its target; exceptions enter at their vectors and return where they were taken, at the exception
 * level they were taken from; SVCs follow SVC instructions; and each program really contains the
 * kinds of flow the corpus promises (docs/execution-format.md, tools/groundtruth/README.md).
 */
class CorpusTest {
    /**
     * Per fixture: profile, core, SVC exceptions (one per round of work(), plus the exit call of
     * a53-el1), Thumb-2 code, A32 code and A64 code in the workload, interrupts (none in user mode,
     * where the kernel is not in the record), the header's exception level and security state.
     */
    private record Expect(Profile profile, String core, int svcs, boolean thumb2, boolean arm, boolean a64,
            boolean interrupts, int el, ExecutionFormat.Security security) {
        Expect(Profile profile, String core, int svcs, boolean thumb2, boolean arm, boolean interrupts) {
            this(profile, core, svcs, thumb2, arm, false, interrupts, -1, null);
        }
    }

    private static final Map<String, Expect> EXPECT = Map.ofEntries(
            Map.entry("arm926-arm", new Expect(Profile.AR, "arm926ej-s", 4, false, true, true)),
            Map.entry("arm926-thumb", new Expect(Profile.AR, "arm926ej-s", 4, false, false, true)),
            Map.entry("a9-arm", new Expect(Profile.AR, "cortex-a9", 4, false, true, true)),
            Map.entry("a9-thumb", new Expect(Profile.AR, "cortex-a9", 4, true, false, true)),
            Map.entry("m3", new Expect(Profile.M, "cortex-m3", 6, true, false, true)),
            Map.entry("m0plus", new Expect(Profile.M, "cortex-m0plus", 4, false, false, true)),
            Map.entry("linux-arm", new Expect(Profile.AR, "cortex-a15", 0, false, true, false)),
            Map.entry("linux-thumb", new Expect(Profile.AR, "cortex-a15", 0, true, false, false)),
            Map.entry("a53-el1", new Expect(Profile.AR, "cortex-a53", 5, false, false, true, true, 1,
                    ExecutionFormat.Security.NON_SECURE)),
            Map.entry("m33", new Expect(Profile.M, "cortex-m33", 6, true, false, false, true, -1,
                    ExecutionFormat.Security.SECURE)),
            Map.entry("m55", new Expect(Profile.M, "cortex-m55", 6, true, false, false, true, -1,
                    ExecutionFormat.Security.SECURE)),
            Map.entry("linux-a64", new Expect(Profile.AR, "cortex-a57", 0, false, false, true, false, 0,
                    ExecutionFormat.Security.NON_SECURE)),
            Map.entry("linux-a64-O0", new Expect(Profile.AR, "cortex-a57", 0, false, false, true, false, 0,
                    ExecutionFormat.Security.NON_SECURE)));

    static List<String> names() {
        return Corpus.allNames();
    }

    @ParameterizedTest
    @MethodSource("names")
    void headerNamesTheCore(String name) {
        Expect x = EXPECT.get(name);
        assertThat(x).as("expectations for %s", name).isNotNull();
        ExecutionFormat.Header h = Corpus.header(name);
        assertThat(h.profile()).isEqualTo(x.profile());
        assertThat(h.core()).isEqualTo(x.core());
        assertThat(h.el()).isEqualTo(x.el());
        assertThat(h.security()).isEqualTo(x.security());
        boolean armv8 = x.a64() || x.security() != null;
        List<String> list = armv8 ? (x.interrupts() ? Corpus.armv8Names() : Corpus.armv8UserModeNames())
                : (x.interrupts() ? Corpus.names(x.profile()) : Corpus.userModeNames());
        assertThat(list).contains(name);
    }

    @ParameterizedTest
    @MethodSource("names")
    void everyInstructionIsInTheProgramWithItsIsaAndSize(String name) {
        Execution ex = Corpus.execution(name);
        ProgramImage image = Corpus.image(name);
        MemoryImage mem = image.memory();
        List<ExecutionEvent.Step> steps = ex.steps();
        assertThat(steps.size()).isBetween(20_000, 300_000);
        boolean a64 = EXPECT.get(name).a64();
        // the executable PT_LOAD segments of the ELF file, as the program headers give them
        List<ElfImage.Segment> code = ElfImage.describe(java.nio.ByteBuffer.wrap(Corpus.elfBytes(name)), name)
                .segments().stream().filter(g -> g.isLoad() && g.isExecutable()).toList();
        assertThat(code).isNotEmpty();
        int unmapped = 0;
        for (ExecutionEvent.Step s : steps) {
            assertThat(mem.contains(s.address(), s.size())).as("%s at %x", name, s.address()).isTrue();
            assertThat(code).as("%s at %x: in an executable segment", name, s.address())
                    .anyMatch(g -> Long.compareUnsigned(s.address() - g.vaddr(), g.memSize() - s.size()) <= 0);
            assertThat(s.address() % s.isa().alignment()).isZero();
            Isa mapped = io.armtrace.execution.MappingSymbols.isaAt(image.symbols(), s.address());
            if (mapped != null) {
                assertThat(s.isa()).as("%s at %x: mapping symbol", name, s.address()).isEqualTo(mapped);
            } else {
                unmapped++;
            }
            if (Corpus.profile(name) == Profile.M) {
                assertThat(s.isa()).isEqualTo(Isa.T32);
            }
            // AArch64 programs here never enter AArch32 state, and AArch32 ones have no A64 code
            assertThat(s.isa() == Isa.A64).as("%s at %x: A64", name, s.address()).isEqualTo(a64);
            int expectedSize = s.isa() == Isa.T32 ? (t32Wide(mem.u16(s.address())) ? 4 : 2) : 4;
            assertThat(s.size()).as("%s at %x: size", name, s.address()).isEqualTo(expectedSize);
        }
        if (a64) {
            // GNU as marks all A64 code with $x, glibc's included: the ISA of every step is checked
            assertThat(unmapped).as("%s: A64 steps without a mapping symbol", name).isZero();
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
        boolean m = Corpus.profile(name) == Profile.M;
        ExecutionEvent.Step last = null;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof ExecutionEvent.ExceptionTaken) {
                if (itLeft > 0) {
                    takenInItBlock++;
                }
                // an interrupt can come inside an IT block (ITSTATE is saved); an M-profile exception
                // tail-chained to a handler's return replaces that handler and returns where it would
                boolean tailChain = m && !itSaved.isEmpty() && last != null
                        && (mem.u16(last.address()) == 0x4770 || (mem.u16(last.address()) & 0xFF00) == 0xBD00);
                if (!tailChain) {
                    itSaved.push(itLeft);
                }
                itLeft = 0;
                continue;
            }
            if (events.get(i) instanceof ExecutionEvent.ExceptionReturned) {
                itLeft = itSaved.isEmpty() ? 0 : itSaved.pop();
                continue;
            }
            ExecutionEvent.Step s = (ExecutionEvent.Step) events.get(i);
            last = s;
            boolean inIt = itLeft > 0;
            if (itLeft > 0) {
                itLeft--;
            }
            if (s.isa() == Isa.A64) {
                continue; // below, in aarch64ConditionalBranchesGoWhereTheirConditionSays
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
            assertThat(next(events, i)).as("%s: after failed %x", name, s.address()).isEqualTo(s.address() + s.size());
        }
        if (EXPECT.get(name).a64()) {
            return;
        }
        assertThat(failed).isPositive();
        if (EXPECT.get(name).thumb2()) {
            assertThat(failedInItBlock).as("condition-failed instructions in IT blocks").isPositive();
            if (EXPECT.get(name).interrupts()) {
                assertThat(takenInItBlock).as("interrupts taken inside an IT block").isPositive();
            }
        }
    }

    /**
     * A64: only B.cond has a condition code; a B.cond that failed it ({@code N}) falls through, one
     * that passed goes to its target. CBZ, CBNZ, TBZ, TBNZ always execute and go to their target or
     * to the next instruction; nothing else is ever {@code N} (conditional selects and compares
     * execute and write their result). Taken and not-taken occur for both kinds.
     */
    @ParameterizedTest
    @MethodSource("names")
    void aarch64ConditionalBranchesGoWhereTheirConditionSays(String name) {
        if (!EXPECT.get(name).a64()) {
            return;
        }
        List<ExecutionEvent> events = Corpus.execution(name).events();
        MemoryImage mem = Corpus.image(name).memory();
        int[] bcond = new int[2]; // not taken, taken
        int[] compareBranch = new int[2];
        int conditionalSelects = 0;
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof ExecutionEvent.Step s)) {
                continue;
            }
            long w = mem.u32(s.address());
            long next = next(events, i);
            if ((w & 0xFF00_0010L) == 0x5400_0000L && (w & 0xF) < 14) {
                long target = s.address() + (signExtend(w >>> 5, 19) << 2);
                assertThat(next).as("%s: B.cond at %x (%s)", name, s.address(), s.executed() ? "E" : "N")
                        .isEqualTo(s.executed() ? target : s.address() + 4);
                bcond[s.executed() ? 1 : 0]++;
                continue;
            }
            assertThat(s.executed()).as("%s: %x is not B.cond but failed", name, s.address()).isTrue();
            boolean cb = (w & 0x7E00_0000L) == 0x3400_0000L;
            boolean tb = (w & 0x7E00_0000L) == 0x3600_0000L;
            if ((cb || tb) && next != Long.MIN_VALUE) {
                long target = s.address() + (cb ? signExtend(w >>> 5, 19) << 2 : signExtend(w >>> 5, 14) << 2);
                assertThat(next).as("%s: CB/TB at %x", name, s.address()).isIn(target, s.address() + 4);
                compareBranch[next == target ? 1 : 0]++;
            }
            if ((w & 0x1FE0_0000L) == 0x1A80_0000L) {
                conditionalSelects++; // CSEL, CSINC, CSINV, CSNEG (and their aliases CSET, CINC, ...)
            }
        }
        assertThat(bcond).as("%s: B.cond not taken, taken", name).doesNotContain(0);
        assertThat(compareBranch).as("%s: CBZ/CBNZ/TBZ/TBNZ not taken, taken", name).doesNotContain(0);
        assertThat(conditionalSelects).as("%s: conditional selects executed", name).isPositive();
    }

    @ParameterizedTest
    @MethodSource("names")
    void exceptionsEnterAtTheirVectorsAndReturnWhereTaken(String name) {
        List<ExecutionEvent> events = Corpus.execution(name).events();
        ProgramImage image = Corpus.image(name);
        MemoryImage mem = image.memory();
        Expect expect = EXPECT.get(name);
        boolean m = Corpus.profile(name) == Profile.M;
        boolean a64 = expect.a64();
        long vbar = !expect.interrupts() ? 0
                : m || a64 ? image.symbols().find("vectors").address() : image.symbols().find("_start").address();
        Deque<ExecutionEvent.ExceptionTaken> open = new ArrayDeque<>();
        Deque<Integer> fromEl = new ArrayDeque<>();
        int el = Corpus.header(name).el();
        ExecutionEvent.Step last = null;
        int svcs = 0;
        int asynchronous = 0;
        int afterTakenBranch = 0;
        int tailChains = 0;
        int returnsWithoutEntry = 0;
        Set<Integer> numbers = new TreeSet<>();
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent e = events.get(i);
            if (e instanceof ExecutionEvent.Step s) {
                last = s;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                numbers.add(x.number());
                ExecutionEvent.Step first = (ExecutionEvent.Step) events.get(i + 1);
                assertThat(first.address()).isEqualTo(x.handler());
                if (m) {
                    assertThat(mem.u32(vbar + 4L * x.number()) & ~1L).as("vector %d", x.number()).isEqualTo(x.handler());
                } else if (a64) {
                    assertThat(x.handler()).isEqualTo(vbar + 0x80L * x.number());
                    assertThat(x.el()).as("%s: taken to EL1", name).isEqualTo(1);
                    // vector offsets 0x200-0x380: from EL1 with SP_EL1; 0x400-0x580: from EL0 (AArch64)
                    assertThat(x.number() >> 2).as("%s: vector group of exception %d from EL%d", name, x.number(), el)
                            .isEqualTo(el == 1 ? 1 : 2);
                } else {
                    assertThat(x.handler()).isEqualTo(vbar + 4L * x.number());
                }
                boolean svc = m ? x.number() == 11 : a64 ? (x.number() & 3) == 0 : x.number() == 2;
                if (svc) {
                    svcs++;
                    boolean svcInsn = last.isa() == Isa.A64 ? (mem.u32(last.address()) & 0xFFE0_001FL) == 0xD400_0001L
                            : last.isa() == Isa.A32 ? (mem.u32(last.address()) & 0x0F00_0000L) == 0x0F00_0000L
                            : (mem.u16(last.address()) & 0xFF00) == 0xDF00;
                    assertThat(svcInsn).as("%s: SVC taken after %x", name, last.address()).isTrue();
                    assertThat(x.preferredReturn()).isEqualTo(last.address() + last.size());
                    if (a64) {
                        assertThat(x.exceptionClass()).as("ESR_EL1.EC of SVC in AArch64 state").isEqualTo(0x15);
                    }
                } else {
                    asynchronous++;
                    if (m) {
                        assertThat(x.number()).isIn(14, 15); // PendSV, SysTick
                    } else if (a64) {
                        assertThat(x.number() & 3).as("IRQ").isEqualTo(1);
                        assertThat(x.exceptionClass()).isEqualTo(ExecutionEvent.ExceptionTaken.UNKNOWN);
                    } else {
                        assertThat(x.number()).isEqualTo(6); // IRQ
                    }
                    if (x.preferredReturn() != last.address() + last.size()) {
                        afterTakenBranch++; // the preferred return is where the last instruction went
                    }
                }
                if (m && x.number() == 14) {
                    // PendSV, pended by SysTick: tail-chained to its exception return (bx lr or
                    // pop {..., pc}), returning where SysTick would have
                    int insn = mem.u16(last.address());
                    assertThat(insn == 0x4770 || (insn & 0xFF00) == 0xBD00).as("%s: tail-chain after %x", name, last.address()).isTrue();
                    assertThat(open).isNotEmpty();
                    ExecutionEvent.ExceptionTaken done = open.pop();
                    fromEl.pop();
                    assertThat(done.number()).isEqualTo(15);
                    assertThat(x.preferredReturn()).isEqualTo(done.preferredReturn());
                    tailChains++;
                }
                open.push(x);
                fromEl.push(el);
                if (a64) {
                    el = x.el();
                }
            } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                ExecutionEvent.Step next = (ExecutionEvent.Step) events.get(i + 1);
                assertThat(next.address()).isEqualTo(r.resume());
                if (a64) {
                    assertThat(mem.u32(last.address())).as("%s: ERET before the return at %x", name, last.address())
                            .isEqualTo(0xD69F_03E0L);
                }
                if (open.isEmpty() && a64 && returnsWithoutEntry == 0) {
                    // the kernel's first ERET, into the user program at EL0
                    assertThat(r.el()).isZero();
                    assertThat(r.resume()).isEqualTo(image.symbols().find("user_main").address());
                    returnsWithoutEntry++;
                    el = r.el();
                    continue;
                }
                assertThat(open).as("%s: return without entry", name).isNotEmpty();
                assertThat(r.resume()).isEqualTo(open.pop().preferredReturn());
                int back = fromEl.pop();
                if (a64) {
                    assertThat(r.el()).as("%s: returns to the level it was taken from", name).isEqualTo(back);
                    el = r.el();
                } else {
                    assertThat(r.el()).isEqualTo(ExecutionEvent.ExceptionTaken.UNKNOWN);
                }
            }
        }
        if (a64 && expect.interrupts()) {
            // the user program ends with svc #2, whose handler exits through semihosting
            assertThat(open).hasSize(1);
            ExecutionEvent.ExceptionTaken exit = open.pop();
            assertThat(exit.number()).isEqualTo(8);
            assertThat((mem.u32(exit.preferredReturn() - 4) >>> 5) & 0xFFFF).as("svc #2").isEqualTo(2);
            assertThat(returnsWithoutEntry).isEqualTo(1);
            assertThat(numbers).as("SVC and IRQ from EL1 and from EL0").containsExactly(4, 5, 8, 9);
        }
        assertThat(open).isEmpty();
        assertThat(svcs).isEqualTo(expect.svcs());
        assertThat(asynchronous).isGreaterThanOrEqualTo(expect.interrupts() ? 2 : 0);
        if (expect.interrupts() && a64) {
            assertThat(afterTakenBranch).as("%s: interrupts right after a taken branch", name).isPositive();
        }
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
        Set<String> a64Kinds = new TreeSet<>();
        Set<String> loopKinds = new TreeSet<>();
        boolean tbb = false;
        boolean tbh = false;
        boolean ldrlsPc = false;
        boolean upperHalf = false;
        boolean lowerHalf = false;
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
            if (s.address() < 0 || s.address() >= 1L << 32) {
                upperHalf = true;
            } else {
                lowerHalf = true;
            }
            if (s.isa() == Isa.T32 && mem.u16(s.address()) == 0xE8DF) {
                int hw2 = mem.u16(s.address() + 2);
                tbb |= (hw2 & 0xFFF0) == 0xF000;
                tbh |= (hw2 & 0xFFF0) == 0xF010;
            }
            if (s.isa() == Isa.T32 && s.size() == 4) {
                String k = loopOrBranchFuture(mem.u16(s.address()), mem.u16(s.address() + 2));
                if (k != null) {
                    loopKinds.add(k);
                }
            }
            if (s.isa() == Isa.A32) {
                long w = mem.u32(s.address()) & 0xFFFF_FFF0L;
                ldrlsPc |= w == 0x979F_F100L || w == 0x908F_F100L; // ldrls pc, [pc, rN, lsl #2] / addls pc, pc, rN, lsl #2
                if (!s.executed()) {
                    armConditionFailed++;
                }
            }
            if (s.isa() == Isa.A64) {
                String k = a64Branch(mem.u32(s.address()));
                if (k != null) {
                    a64Kinds.add(k);
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
        if (x.a64()) {
            assertThat(isas).containsExactly(Isa.A64);
            // direct and indirect branches and calls, returns, the compare-and-branch kinds; a
            // switch through a table (BR); the system calls; and in a53-el1 the exception returns
            assertThat(a64Kinds).contains("B", "BL", "B.cond", "BR", "BLR", "RET", "CBZ/CBNZ", "SVC");
            if (name.startsWith("linux")) {
                assertThat(a64Kinds).contains("TBZ/TBNZ");
            } else {
                assertThat(a64Kinds).contains("ERET");
                assertThat(upperHalf).as("kernel code at upper-half addresses").isTrue();
            }
            assertThat(lowerHalf).isTrue();
        } else if (x.profile() == Profile.AR) {
            assertThat(isas).containsExactlyInAnyOrder(Isa.A32, Isa.T32);
            assertThat(otherIsa).containsExactly(x.arm() ? Isa.T32 : Isa.A32);
        }
        if (name.equals("m55")) {
            // Armv8.1-M: GCC's DLS/LE loops and lob_m55.S
            assertThat(loopKinds).containsExactlyInAnyOrder("WLS", "DLS", "LE", "DLSTP", "LETP", "LCTP",
                    "BF", "BFX", "BFL", "BFLX", "BFCSEL");
        } else {
            assertThat(loopKinds).isEmpty();
        }
    }

    /**
     * The Armv8.1-M "branch future and low-overhead loop" group, in the space of ARMv7's BLX
     * (immediate): first halfword {@code 11110 boff:4 op:3 Rn:4}, second halfword {@code 11x0 ...
     * 1} with {@code 1100} at the top for an immediate offset and {@code 1110} for none. {@code boff} = 0 selects the loop instructions: WLS/DLS (op 100),
     * WLSTP/DLSTP (op 0sz, Rn not 15), and with Rn = 15 LE (op 000 with LR, 010 without), LETP (001)
     * and LCTP (000, no offset); any other {@code boff} is the branch point of BF (op 100), BFX (110),
     * BFLX (111), BFL (000 with an offset) or BFCSEL (000 without).
     */
    static String loopOrBranchFuture(int hw1, int hw2) {
        if ((hw1 & 0xF800) != 0xF000 || (hw2 & 0xD001) != 0xC001) {
            return null;
        }
        int boff = (hw1 >>> 7) & 0xF;
        int op = (hw1 >>> 4) & 0x7;
        int rn = hw1 & 0xF;
        boolean offset = (hw2 & 0x2000) == 0;
        if (boff == 0) {
            if (op == 4) {
                return offset ? "WLS" : hw2 == 0xE001 ? "DLS" : null;
            }
            if ((op & 4) != 0) {
                return null;
            }
            if (rn != 15) {
                return offset ? "WLSTP" : hw2 == 0xE001 ? "DLSTP" : null;
            }
            return switch (op) {
                case 0 -> offset ? "LE" : hw2 == 0xE001 ? "LCTP" : null;
                case 1 -> offset ? "LETP" : null;
                case 2 -> offset ? "LE" : null;
                default -> null;
            };
        }
        return switch (op) {
            case 4 -> "BF";
            case 6 -> "BFX";
            case 7 -> "BFLX";
            case 0 -> offset ? "BFL" : "BFCSEL";
            default -> null;
        };
    }

    /** The A64 branch kinds (Arm DDI 0487 C4.1 "Branches, Exception generating and System instructions"). */
    static String a64Branch(long w) {
        if ((w & 0xFC00_0000L) == 0x1400_0000L) {
            return "B";
        }
        if ((w & 0xFC00_0000L) == 0x9400_0000L) {
            return "BL";
        }
        if ((w & 0xFF00_0010L) == 0x5400_0000L) {
            return "B.cond";
        }
        if ((w & 0x7E00_0000L) == 0x3400_0000L) {
            return "CBZ/CBNZ";
        }
        if ((w & 0x7E00_0000L) == 0x3600_0000L) {
            return "TBZ/TBNZ";
        }
        if ((w & 0xFFFF_FC1FL) == 0xD61F_0000L) {
            return "BR";
        }
        if ((w & 0xFFFF_FC1FL) == 0xD63F_0000L) {
            return "BLR";
        }
        if ((w & 0xFFFF_FC1FL) == 0xD65F_0000L) {
            return "RET";
        }
        if (w == 0xD69F_03E0L) {
            return "ERET";
        }
        if ((w & 0xFFE0_001FL) == 0xD400_0001L) {
            return "SVC";
        }
        return null;
    }

    /**
     * Where execution went after the instruction at event {@code i}: the next instruction, or the
     * preferred return of an exception taken before it; {@link Long#MIN_VALUE} at the end.
     */
    private static long next(List<ExecutionEvent> events, int i) {
        if (i + 1 >= events.size()) {
            return Long.MIN_VALUE;
        }
        ExecutionEvent e = events.get(i + 1);
        if (e instanceof ExecutionEvent.Step s) {
            return s.address();
        }
        if (e instanceof ExecutionEvent.ExceptionTaken x) {
            return x.preferredReturn();
        }
        return ((ExecutionEvent.ExceptionReturned) e).resume();
    }

    private static long signExtend(long v, int bits) {
        long m = v & ((1L << bits) - 1);
        return (m ^ (1L << (bits - 1))) - (1L << (bits - 1));
    }

    private static boolean t32Wide(int hw1) {
        int top = hw1 >>> 11;
        return top == 0x1D || top == 0x1E || top == 0x1F;
    }
}
