package io.armtrace.execution;

import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Imports the log of QEMU's instruction-logging plugin (tools/groundtruth/pctrace.c): lines
 * {@code I <pc hex> <size> <bytes hex>}, one per executed instruction, with the exception lines of
 * {@code -d int} between them, into execution events.
 *
 * <p>Optionally reads a register log ({@code -d exec,cpu,nochain} with one instruction per
 * translation block, see {@link CpuStateLog}) of the same run: the PSR before each instruction
 * decides the ISA (T bit) and whether a conditional instruction passed its condition (flags, IT state).
 * Without one, only conditional branches can be judged (by where execution went next); other
 * conditional instructions are taken as executed.
 *
 * <p>Exception numbers follow {@link ExecutionEvent.ExceptionTaken}. The preferred return address of
 * a synchronous exception follows from the instruction that caused it (SVC: the next instruction;
 * undefined instruction, breakpoint, data abort: that instruction). That of an asynchronous one
 * (IRQ, FIQ, SysTick, prefetch abort) is where its handler's exception return resumed, or, if it
 * never returns, the instruction after the last one executed.
 */
public final class QemuPluginLog {
    /** How many register-log records may lie between two matching ones (stale records of interrupted blocks). */
    private static final int CPU_LOOKAHEAD = 64;
    /** Events held back while an exception's return address is unresolved, before falling back. */
    private static final int MAX_HELD = 1 << 20;

    private QemuPluginLog() {
    }

    /** Counts of what an import saw. */
    public static final class Stats {
        public long steps;
        public long conditionFailed;
        public long exceptions;
        public long returns;
        /** Steps whose ISA came from the register log / the mapping symbols / size and alignment alone. */
        public long isaFromCpu;
        public long isaFromSymbols;
        public long isaGuessed;
        /** Steps for which the register log had no matching record. */
        public long cpuUnmatched;
        /** Exceptions whose preferred return had to be computed because no return resolved it. */
        public long returnFallbacks;
        /** Exceptions whose return resumed elsewhere than the computed preferred return (SVC etc.). */
        public long returnDisagreements;
        /** Second halves of Thumb BL/BLX pairs that QEMU logged as instructions of their own. */
        public long mergedHalves;

        @Override
        public String toString() {
            return "steps=" + steps + " conditionFailed=" + conditionFailed + " exceptions=" + exceptions
                    + " returns=" + returns + " isaFromCpu=" + isaFromCpu + " isaFromSymbols=" + isaFromSymbols
                    + " isaGuessed=" + isaGuessed + " cpuUnmatched=" + cpuUnmatched
                    + " returnFallbacks=" + returnFallbacks + " returnDisagreements=" + returnDisagreements
                    + " mergedHalves=" + mergedHalves;
        }
    }

    /** Imports a whole log (plain or gzip) into memory; {@code image} and {@code cpuLog} may be null. */
    public static Execution read(Path pluginLog, Profile profile, ProgramImage image, Path cpuLog) throws IOException {
        List<ExecutionEvent> events = new ArrayList<>();
        importLog(pluginLog, profile, image, cpuLog, events::add);
        return new Execution(events);
    }

    /** Streams the events of a log to {@code sink}; {@code image} and {@code cpuLog} may be null. */
    public static Stats importLog(Path pluginLog, Profile profile, ProgramImage image, Path cpuLog,
            Consumer<ExecutionEvent> sink) throws IOException {
        try (InputStream p = Files.newInputStream(pluginLog);
                InputStream c = cpuLog == null ? null : Files.newInputStream(cpuLog)) {
            return importLog(p, profile, image, c, sink);
        }
    }

    /** Streams the events of a log to {@code sink}; {@code image} and {@code cpuLog} may be null. */
    public static Stats importLog(InputStream pluginLog, Profile profile, ProgramImage image, InputStream cpuLog,
            Consumer<ExecutionEvent> sink) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(
                ExecutionFormat.decompressIfGzip(pluginLog), StandardCharsets.ISO_8859_1), 1 << 16);
        CpuStateLog cpu = cpuLog == null ? null : new CpuStateLog(ExecutionFormat.decompressIfGzip(cpuLog));
        Importer im = new Importer(profile, image, cpu, sink);
        String line;
        long n = 0;
        while ((line = in.readLine()) != null) {
            n++;
            im.line(line, n);
        }
        im.finish();
        return im.stats;
    }

    /** An exception entry whose preferred return address is not known yet. */
    private static final class PendingEntry {
        int number;
        long handler = -1;
        long fallbackReturn;
        long resolvedReturn = -1;
        /** Synchronous exceptions know their preferred return from the instruction that caused them. */
        boolean synchronous;
        /** Returned straight into this next exception: returns where that one returns. */
        PendingEntry returnsLikeNext;

        long preferredReturn() {
            PendingEntry p = this;
            for (int guard = 0; guard < 1_000_000 && p.resolvedReturn < 0 && p.returnsLikeNext != null; guard++) {
                p = p.returnsLikeNext;
            }
            return p.resolvedReturn >= 0 ? p.resolvedReturn : fallbackReturn;
        }

        boolean resolved() {
            PendingEntry p = this;
            for (int guard = 0; guard < 1_000_000 && p.resolvedReturn < 0 && p.returnsLikeNext != null; guard++) {
                p = p.returnsLikeNext;
            }
            return p.resolvedReturn >= 0;
        }

        ExecutionEvent.ExceptionTaken toEvent() {
            // a synchronous exception's preferred return follows from its instruction, whatever
            // its handler does (an undefined-instruction handler returns after the instruction)
            return new ExecutionEvent.ExceptionTaken(number, synchronous ? fallbackReturn : preferredReturn(), handler);
        }
    }

    /** An A/R exception return followed at once by another exception: it resumed where that one returns. */
    private record PendingReturn(PendingEntry next) {
    }

    private static final class Importer {
        private final Profile profile;
        private final ProgramImage image;
        private final CpuStateLog cpu;
        private final Consumer<ExecutionEvent> sink;
        final Stats stats = new Stats();

        /** Events held while an entry is unresolved (first element is the outermost unresolved entry). */
        private final List<Object> held = new ArrayList<>();
        /** Exceptions being handled, innermost last. */
        private final List<PendingEntry> active = new ArrayList<>();
        /** An entry announced by "Taking exception" whose handler has not executed yet. */
        private PendingEntry entering;
        /** An exception return happened; the next step is where it resumed. */
        private boolean returning;

        /** The previous step, held back without a register log to infer a conditional branch's outcome. */
        private long prevAddr = -1;
        private int prevSize;
        private Isa prevIsa = Isa.A32;
        private boolean prevExecuted;
        private boolean prevCondBranch;
        private boolean prevHeld;
        /** The previous step is a 32-bit T32 instruction of which the log showed only the first half. */
        private boolean prevSplit;

        Importer(Profile profile, ProgramImage image, CpuStateLog cpu, Consumer<ExecutionEvent> sink) {
            this.profile = profile;
            this.image = image;
            this.cpu = cpu;
            this.sink = sink;
        }

        void line(String s, long lineNo) throws IOException {
            if (s.length() > 2 && s.charAt(0) == 'I' && s.charAt(1) == ' ') {
                step(s, lineNo);
            } else if (s.startsWith("Taking exception ")) {
                takingException(s);
            } else if (s.startsWith("...tailchaining to pending exception")) {
                // M profile: an exception return that goes straight into a pending exception; QEMU
                // writes no "Taking exception" line for it. The next line gives the number.
                enter(2, false);
            } else if (s.startsWith("...taking pending ")) {
                // "...taking pending nonsecure exception 15" (M profile): the architectural number
                int i = s.lastIndexOf(' ');
                if (entering != null) {
                    entering.number = (int) parseDec(s, i + 1);
                }
            } else if (s.startsWith("...loaded new PC ")) {
                if (entering != null) {
                    entering.handler = parseHex(s, "...loaded new PC ".length()) & ~1L;
                }
            } else if (s.startsWith("Exception return")) {
                // M profile: "Exception return: magic PC fffffff9 previous exception 15";
                // A/R profile: "Exception return from AArch32 irq to sys PC 0x6001273e"
                returning = true;
            }
            // anything else (register dumps, semihosting chatter, "...from EL1 to EL1") is not ours
        }

        private void takingException(String s) {
            int at = "Taking exception ".length();
            int qemuNumber = (int) parseDec(s, at);
            int arch;
            boolean sync;
            if (profile == Profile.M) {
                // QEMU's EXCP_* numbers; the "...taking pending" line that follows gives the real one
                switch (qemuNumber) {
                    case 8, 16 -> { // exception exit (logged separately), semihosting call
                        return;
                    }
                    case 2 -> { arch = 11; sync = true; }     // SVCall
                    case 7 -> { arch = 12; sync = true; }     // DebugMonitor (BKPT)
                    default -> { arch = 3; sync = false; }    // updated by the next line
                }
            } else {
                switch (qemuNumber) {
                    case 1 -> { arch = 1; sync = true; }      // undefined instruction
                    case 2 -> { arch = 2; sync = true; }      // SVC
                    case 3 -> { arch = 3; sync = false; }     // prefetch abort (the instruction never ran)
                    case 4 -> { arch = 4; sync = true; }      // data abort
                    case 5 -> { arch = 6; sync = false; }     // IRQ
                    case 6 -> { arch = 7; sync = false; }     // FIQ
                    case 7 -> { arch = 3; sync = true; }      // BKPT: prefetch abort vector
                    default -> { // semihosting, exception exit, hypervisor and secure monitor traps
                        return;
                    }
                }
            }
            enter(arch, sync);
        }

        private void enter(int arch, boolean sync) {
            PendingEntry e = new PendingEntry();
            e.number = arch;
            e.synchronous = sync;
            if (prevAddr < 0) {
                e.fallbackReturn = 0;
            } else if (sync && (profile == Profile.M ? arch == 11 : arch == 2)) {
                e.fallbackReturn = prevAddr + prevSize; // SVC: the next instruction
            } else if (sync && profile != Profile.M) {
                e.fallbackReturn = prevAddr;            // UNDEFINED, BKPT, data abort: the instruction itself
            } else {
                e.fallbackReturn = prevAddr + prevSize;
            }
            if (returning) {
                // No instruction between an exception return and this entry. M profile: tail-chaining,
                // the return did not happen (no R). A/R profile: the return happened and resumed at
                // the address the new exception will return to. Either way the finished exception's
                // preferred return is the new one's, known when that returns.
                returning = false;
                if (!active.isEmpty()) {
                    PendingEntry done = active.remove(active.size() - 1);
                    done.returnsLikeNext = e;
                    e.fallbackReturn = done.fallbackReturn;
                    if (profile != Profile.M) {
                        stats.returns++;
                        held.add(new PendingReturn(e)); // held is not empty: it holds done's entry
                    }
                }
            }
            entering = e;
        }

        private void step(String s, long lineNo) throws IOException {
            int pos = 2;
            long addr = parseHex(s, pos);
            pos = s.indexOf(' ', pos);
            int loggedSize = pos < 0 ? 0 : (int) parseDec(s, pos + 1);
            int bytesAt = pos < 0 ? -1 : s.indexOf(' ', pos + 1);
            if (bytesAt < 0 || loggedSize < 2 || loggedSize > 8) {
                throw new ExecutionFormat.FormatException(lineNo, "not a plugin instruction line: '" + s + "'");
            }
            bytesAt++;
            int hw1 = halfword(s, bytesAt);
            int hw2 = loggedSize >= 4 ? halfword(s, bytesAt + 4) : 0;
            long word = ((long) hw2 << 16) | hw1;

            // ARMv4T/v5 Thumb BL/BLX pairs whose halves QEMU translated apart (across a 1 KiB page):
            // the record keeps one 32-bit instruction, as ARMv6T2 and later define it
            if (prevSplit && addr == prevAddr + 2 && entering == null && !returning) {
                prevSplit = false;
                stats.mergedHalves++;
                return;
            }

            // a record of the register state before this instruction, if we have a register log
            CpuStateLog.State st = null;
            if (cpu != null) {
                st = cpu.find(addr, CPU_LOOKAHEAD);
                if (st == null) {
                    stats.cpuUnmatched++;
                }
            }

            Isa isa = isaOf(addr, loggedSize, st);
            int size = isa == Isa.T32 ? (Conditions.isT32Wide(hw1) ? 4 : 2) : 4;

            int cond;
            if (isa == Isa.A32) {
                cond = Conditions.a32Condition(word);
            } else if (st != null && (Conditions.itState(st.psr()) & 0xF) != 0) {
                cond = Conditions.itState(st.psr()) >> 4;
            } else {
                cond = Conditions.t32Condition(hw1, hw2);
            }
            boolean conditional = cond < Conditions.AL;
            boolean executed = !conditional || st == null || Conditions.passed(cond, st.psr());
            boolean condBranch = false;
            if (conditional && st == null) {
                // no register log: judge a conditional branch by its successor (below)
                condBranch = isa == Isa.A32 ? Conditions.a32MayBranch(word) : true;
            }

            // the previous instruction, if held back, learns its fate from this address
            if (prevHeld) {
                if (prevCondBranch && entering == null && !returning && addr == prevAddr + prevSize) {
                    prevExecuted = false;
                }
                emitStep(prevAddr, prevIsa, prevSize, prevExecuted);
                prevHeld = false;
            }
            if (returning) {
                returning = false;
                stats.returns++;
                emit(new ExecutionEvent.ExceptionReturned(addr));
                if (!active.isEmpty()) {
                    resolve(active.remove(active.size() - 1), addr);
                }
            }
            if (entering != null) {
                PendingEntry e = entering;
                entering = null;
                if (e.handler < 0) {
                    e.handler = addr;
                }
                stats.exceptions++;
                active.add(e);
                emit(e);
            }

            prevSplit = isa == Isa.T32 && size == 4 && loggedSize == 2;
            prevAddr = addr;
            prevSize = size;
            prevIsa = isa;
            prevExecuted = executed;
            prevCondBranch = condBranch;
            if (condBranch) {
                prevHeld = true;
            } else {
                emitStep(addr, isa, size, executed);
            }

            if (executed && profile != Profile.M
                    && (isa == Isa.A32 ? Conditions.isA32ExceptionReturn(word) : Conditions.isT32ExceptionReturn(hw1, hw2))) {
                returning = true;
            }
        }

        private Isa isaOf(long addr, int loggedSize, CpuStateLog.State st) {
            if (profile == Profile.M) {
                return Isa.T32;
            }
            if (st != null) {
                stats.isaFromCpu++;
                return (st.psr() & 0x20) != 0 ? Isa.T32 : Isa.A32; // CPSR.T
            }
            if (image != null) {
                Isa m = io.armtrace.execution.MappingSymbols.isaAt(image.symbols(), addr);
                if (m != null) {
                    stats.isaFromSymbols++;
                    return m;
                }
            }
            stats.isaGuessed++;
            if (loggedSize == 2 || (addr & 2) != 0) {
                return Isa.T32;
            }
            return prevIsa;
        }

        private void emitStep(long addr, Isa isa, int size, boolean executed) {
            stats.steps++;
            if (!executed) {
                stats.conditionFailed++;
            }
            emit(new ExecutionEvent.Step(addr, isa, size, executed));
        }

        private void emit(Object e) {
            if (active.isEmpty() && held.isEmpty()) {
                sink.accept((ExecutionEvent) e);
                return;
            }
            held.add(e);
            if (held.size() > MAX_HELD) {
                // a handler that does not return within a million events: give up waiting
                for (PendingEntry p : active) {
                    p.resolvedReturn = p.fallbackReturn;
                    stats.returnFallbacks++;
                }
                active.clear();
                flush();
            }
        }

        private void resolve(PendingEntry e, long resume) {
            e.resolvedReturn = resume;
            if (e.synchronous && resume != e.fallbackReturn) {
                stats.returnDisagreements++;
            }
            if (active.isEmpty()) {
                flush();
            }
        }

        private void flush() {
            for (Object e : held) {
                if (e instanceof PendingEntry p) {
                    if (!p.synchronous && !p.resolved()) {
                        stats.returnFallbacks++;
                    }
                    sink.accept(p.toEvent());
                } else if (e instanceof PendingReturn r) {
                    sink.accept(new ExecutionEvent.ExceptionReturned(r.next().preferredReturn()));
                } else {
                    sink.accept((ExecutionEvent) e);
                }
            }
            held.clear();
        }

        void finish() {
            if (prevHeld) {
                emitStep(prevAddr, prevIsa, prevSize, prevExecuted);
                prevHeld = false;
            }
            active.clear();
            flush();
        }
    }

    /** Two bytes in memory order, as hex text at {@code at}, as a little-endian halfword. */
    private static int halfword(String s, int at) {
        if (at + 4 > s.length()) {
            return 0;
        }
        int b0 = (Character.digit(s.charAt(at), 16) << 4) | Character.digit(s.charAt(at + 1), 16);
        int b1 = (Character.digit(s.charAt(at + 2), 16) << 4) | Character.digit(s.charAt(at + 3), 16);
        return (b1 << 8) | b0;
    }

    static long parseHex(String s, int at) {
        if (at + 1 < s.length() && s.charAt(at) == '0' && (s.charAt(at + 1) == 'x' || s.charAt(at + 1) == 'X')) {
            at += 2;
        }
        long v = 0;
        for (int i = at; i < s.length() && i < at + 16; i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0) {
                break;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    static long parseDec(String s, int at) {
        long v = 0;
        for (int i = at; i < s.length() && i < at + 12; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
